// First: no schema may be built before zod's eval-based compiler is off (the page runs under the app's CSP).
import '../src/scenario/zodConfig';
import { clusterStepsPerSec, throughputScenario } from './cluster';
import { benchCluster, type BrowserCluster, type ClusterBenchOptions } from './clusterBench';
import { fetchBuiltin } from '../src/scenario/loader';
import type { BackendChoice } from '../src/train/types';
import { WorkerPool } from '../src/workers/pool';
import { Simulation } from '../src/engine/simulation';
import { pageSha256 } from '../src/workers/workerSha256';
import { InstantTrainer } from '../src/engine/testing/instantTrainer';
import { validateScenario } from '../src/scenario/validate';
import { EngineClient, type RemoteRun } from '../src/engine/remote/client';
import type { Scenario } from '../src/scenario/schema';
import type { EnginePort, FromHost, ToHost } from '../src/engine/remote/protocol';

/**
 * The cluster bench (clusterBench.ts) on this page's main thread, where the app runs its engine, or
 * (`engineInWorker`) in a dedicated worker that owns the training workers: how much the page's
 * main thread itself costs the cluster (issue 9: the engine off the main thread).
 */
async function runBench(opts: ClusterBenchOptions & { engineInWorker?: boolean }): Promise<BrowserCluster> {
  if (!opts.engineInWorker) return benchCluster(opts);
  const w = new Worker(new URL('./benchWorker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<BrowserCluster>((resolve, reject) => {
      w.onmessage = (e: MessageEvent<{ ok: true; result: BrowserCluster } | { ok: false; error: string }>) => (e.data.ok ? resolve(e.data.result) : reject(new Error(e.data.error)));
      w.onerror = (e) => reject(new Error(e.message || 'the bench worker failed to start'));
      w.postMessage({ ...opts, scenariosUrl: new URL('./scenarios/', location.href).href });
    });
  } finally {
    w.terminate();
  }
}

/**
 * The engine alone on this thread with a stand-in gradient (no worker, no messages): what the
 * cluster run costs the main thread before any messaging, in ms per gradient step (best of `reps`).
 */
async function runEngineOnly(opts: { scenario: string; durationMs: number; reps?: number; paramCount: number; samples: number }) {
  const loaded = await fetchBuiltin(opts.scenario, './scenarios/');
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const sc = throughputScenario(loaded.scenario, opts.durationMs);
  let best = Infinity;
  let steps = 0;
  for (let r = 0; r < (opts.reps ?? 3); r++) {
    const c = await clusterStepsPerSec(sc, new InstantTrainer(opts.paramCount, opts.samples), pageSha256());
    steps = c.steps;
    best = Math.min(best, c.wallMs / c.steps);
  }
  return { steps, msPerStep: best };
}

/** 'auto' in a worker: each backend's measured ms/step on a built-in's model, and the pick. */
async function measureBackends(opts: { scenario: string; backend?: BackendChoice; timeSoftwareGpu?: boolean }) {
  const loaded = await fetchBuiltin(opts.scenario, './scenarios/');
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const sc = loaded.scenario;
  const t0 = performance.now();
  const spec = { model: sc.model, seed: sc.seed, backend: opts.backend ?? 'auto', timeSoftwareGpu: opts.timeSoftwareGpu };
  const pool = await WorkerPool.create(spec, { size: 1 });
  const initMs = performance.now() - t0;
  try {
    const sel = pool.backendSelection();
    return { params: pool.paramCount, chosen: sel?.backend ?? 'none', initMs, measured: sel?.measured ?? [] };
  } finally {
    await pool.dispose();
  }
}

/**
 * A scenario run to its end at full speed with no UI — the engine and the worker pool the app
 * uses, metric samples included — for `npm run bench:web` to compare the app's speed-max pace with.
 * Wall ms from the first event to the end.
 */
async function runHeadless(opts: { json: string; backend: BackendChoice }): Promise<number> {
  const v = validateScenario(JSON.parse(opts.json));
  if (!v.ok) throw new Error(v.errors.join('\n'));
  const sc = v.scenario;
  const pool = await WorkerPool.create({ model: sc.model, seed: sc.seed, backend: opts.backend }, { nodes: sc.cluster.workers });
  try {
    // Hashed as the app hashes (its own worker), so the two runs differ by the UI alone.
    const sim = await Simulation.create(sc, { trainer: pool, sha256: pageSha256() });
    const t0 = performance.now();
    await sim.runToEnd();
    return performance.now() - t0;
  } finally {
    await pool.dispose();
  }
}

/**
 * A run of `sc` with the engine in a worker of its own (workers/engineWorker.ts, engine/remote),
 * driven to its end in requests of `sliceMs` of the worker's time, `each` after every answer;
 * `read` takes what it needs from the finished run and the wall ms the driving took before the
 * worker goes.
 */
async function remoteToEnd<T>(sc: Scenario, backend: BackendChoice, sliceMs: number, read: (run: RemoteRun, wallMs: number) => Promise<T> | T, each?: (run: RemoteRun) => void): Promise<T> {
  const worker = new Worker(new URL('../src/workers/engineWorker.ts', import.meta.url), { type: 'module' });
  try {
    const client = new EngineClient(worker as unknown as EnginePort<FromHost, ToHost>);
    const run = await client.create(sc, await client.trainer({ model: sc.model, seed: sc.seed, backend }, { nodes: sc.cluster.workers }));
    const t0 = performance.now();
    while (!run.done && !run.failure) {
      await run.advanceTo(run.durationMs, { wallBudgetMs: sliceMs });
      each?.(run);
    }
    if (run.failure) throw new Error(run.failure);
    return await read(run, performance.now() - t0);
  } finally {
    worker.terminate();
  }
}

/**
 * runHeadless with the engine in a worker and this page following the run as the app would: every
 * answer's rows read into the page's copy of the history and indexed. `sliceMs`: the wall budget of
 * each request (runToEnd's 200, or the app's 14 at speed max). Wall ms from the first request to the end.
 */
async function runHeadlessRemote(opts: { json: string; backend: BackendChoice; sliceMs?: number }): Promise<number> {
  const v = validateScenario(JSON.parse(opts.json));
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return remoteToEnd(v.scenario, opts.backend, opts.sliceMs ?? 200, (_, wallMs) => wallMs, (run) => run.index());
}

/**
 * A built-in run to its end with the engine in a worker, for the e2e suite: its digests, which
 * must be the CLI's and the app's, and how much of it the page holds.
 */
async function remoteRunSummary(opts: { scenario: string; backend: BackendChoice }) {
  const loaded = await fetchBuiltin(opts.scenario, './scenarios/');
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return remoteToEnd(loaded.scenario, opts.backend, 50, async (run) => ({ ...(await run.digests()), events: run.history.length, now: run.now(), expectations: run.expectations().map((e) => e.pass) }));
}

(window as unknown as { runHeadlessRemote: typeof runHeadlessRemote }).runHeadlessRemote = runHeadlessRemote;
(window as unknown as { remoteRunSummary: typeof remoteRunSummary }).remoteRunSummary = remoteRunSummary;
(window as unknown as { runBench: typeof runBench; measureBackends: typeof measureBackends }).runBench = runBench;
(window as unknown as { runHeadless: typeof runHeadless }).runHeadless = runHeadless;
(window as unknown as { runEngineOnly: typeof runEngineOnly }).runEngineOnly = runEngineOnly;
(window as unknown as { measureBackends: typeof measureBackends }).measureBackends = measureBackends;
document.body.dataset.ready = 'true';
