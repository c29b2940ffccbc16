// First: no schema may be built before zod's eval-based compiler is off (the page runs under the app's CSP).
import '../src/scenario/zodConfig';
import { bareStepsPerSec, clusterStepsPerSec, throughputScenario } from './cluster';
import { fetchBuiltin } from '../src/scenario/loader';
import type { BackendChoice } from '../src/train/types';
import { WorkerPool } from '../src/workers/pool';

/**
 * In-browser half of `npm run bench`: cluster throughput through the real worker pool against the
 * same pool's workers each running a bare tfjs loop at once (equal parallelism).
 */
async function runBench(opts: { scenario: string; backend: BackendChoice; durationMs: number; bareSteps: number; hidden?: number[] }) {
  const loaded = await fetchBuiltin(opts.scenario, './scenarios/');
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const sc = throughputScenario(loaded.scenario, opts.durationMs, opts.hidden);
  const nodes = sc.cluster.workers;
  const pool = await WorkerPool.create({ model: sc.model, seed: sc.seed, backend: opts.backend }, { nodes });
  try {
    const backend = pool.workers().find((w) => w.alive)?.backend ?? 'none';
    const bare = await bareStepsPerSec(sc, opts.bareSteps, (draws) => pool.benchBare(draws));
    const cluster = await clusterStepsPerSec(sc, pool);
    return { backend, poolSize: pool.workers().length, bareStepsPerSec: bare, clusterStepsPerSec: cluster.stepsPerSec, ratio: cluster.stepsPerSec / bare };
  } finally {
    await pool.dispose();
  }
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

(window as unknown as { runBench: typeof runBench; measureBackends: typeof measureBackends }).runBench = runBench;
(window as unknown as { measureBackends: typeof measureBackends }).measureBackends = measureBackends;
document.body.dataset.ready = 'true';
