/**
 * `npm run bench`: speed as ratios against baselines measured in the same process (never timed
 * assertions). Prints a readable report, then one JSON line with at least simEventsPerSec and
 * clusterVsBare.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { Simulation } from '../src/engine/simulation';
import { InstantTrainer } from '../src/engine/testing/instantTrainer';
import { testScenario } from '../src/engine/testing/scenarios';
import { validateScenario } from '../src/scenario/validate';
import { LocalTrainer } from '../src/train/localTrainer';
import { chromiumArgs, findChromium } from '../scripts/chromium.mjs';
import { nodeSha256 } from '../src/cli/nodeSha256';
import { bareInProcess, bareStepsPerSec, clusterStepsPerSec, throughputScenario } from './cluster';

const log = (s: string) => process.stderr.write(s + '\n');

async function simCore(): Promise<{ eventsPerSec: number; events: number }> {
  // 64 nodes on a ring all-reduce with a stand-in gradient: the scheduler, network and protocol alone.
  const sc = testScenario({ cluster: { workers: 64 }, durationMs: 4000, compute: { stepMs: 50, jitter: 0.1 } });
  const sim = await Simulation.create(sc, { trainer: new InstantTrainer(105, 400), sampleEveryMs: 0, sha256: nodeSha256 });
  const t0 = performance.now();
  await sim.runToEnd();
  const dt = performance.now() - t0;
  return { eventsPerSec: (sim.history.events.length / dt) * 1000, events: sim.history.events.length };
}

function builtin(id: string) {
  const v = validateScenario(JSON.parse(readFileSync(`public/scenarios/${id}.json`, 'utf8')));
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return v.scenario;
}

async function nodeCluster(id: string, durationMs: number, hidden?: number[]) {
  const sc = throughputScenario(builtin(id), durationMs, hidden);
  const trainer = await LocalTrainer.create({ model: sc.model, seed: sc.seed, backend: 'cpu' });
  await clusterStepsPerSec({ ...sc, durationMs: 2000 }, trainer, nodeSha256); // warm-up
  // Alternate the two and keep each one's best of three: on a shared 2-core machine single runs
  // of either vary by ±20%.
  const bareSteps = Math.max(200, Math.round(1500 * (105 / trainer.paramCount) ** 0.7));
  let bare = 0;
  let cluster = { stepsPerSec: 0 };
  for (let r = 0; r < 3; r++) {
    bare = Math.max(bare, await bareStepsPerSec(sc, bareSteps, bareInProcess(sc)));
    const c = await clusterStepsPerSec(sc, trainer, nodeSha256);
    if (c.stepsPerSec > cluster.stepsPerSec) cluster = c;
  }
  return { backend: trainer.backend, params: trainer.paramCount, bareStepsPerSec: bare, clusterStepsPerSec: cluster.stepsPerSec, ratio: cluster.stepsPerSec / bare };
}

async function browserCluster(id: string, backend: string, durationMs: number) {
  const port = 4191;
  const server: ChildProcess = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { stdio: 'ignore' });
  try {
    await waitForServer(`http://127.0.0.1:${port}/bench.html`);
    const found = await findChromium();
    const browser = await chromium.launch({ executablePath: found?.path, args: chromiumArgs });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/bench.html`);
      await page.waitForSelector('body[data-ready="true"]');
      return await page.evaluate(
        (o) => (window as unknown as { runBench(x: typeof o): Promise<Record<string, number | string>> }).runBench(o),
        { scenario: id, backend: backend as 'wasm', durationMs, bareSteps: 1500 },
      );
    } finally {
      await browser.close();
    }
  } finally {
    server.kill();
  }
}

async function waitForServer(url: string) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`preview server did not start at ${url} (run \`npm run build\` first)`);
}

const core = await simCore();
log(`simulator core: ${core.events} events, ${Math.round(core.eventsPerSec).toLocaleString('en')} events/s (64-node ring, stand-in gradients)`);
const node = { allreduce: await nodeCluster('allreduce-partition', 20000), async: await nodeCluster('async-partition', 20000) };
for (const [k, r] of Object.entries(node))
  log(`node ${k.padEnd(9)} ${r.backend}: bare ${r.bareStepsPerSec.toFixed(0)} steps/s, cluster ${r.clusterStepsPerSec.toFixed(0)} steps/s, ratio ${r.ratio.toFixed(3)}`);
// The lesson model has 105 parameters and a 0.4 ms step, so per-message costs weigh; the same
// workload with wider layers shows how the overhead shrinks as compute grows.
const bySize: Array<{ hidden: string; params: number; strategy: string; ratio: number }> = [];
for (const hidden of [[64, 64], [256, 256]]) {
  for (const [k, id] of [['allreduce', 'allreduce-partition'], ['async', 'async-partition']] as const) {
    const r = await nodeCluster(id, 8000, hidden);
    bySize.push({ hidden: hidden.join('x'), params: r.params, strategy: k, ratio: Number(r.ratio.toFixed(3)) });
    log(`node ${k.padEnd(9)} hidden ${hidden.join('x')} (${r.params} params): bare ${r.bareStepsPerSec.toFixed(0)} steps/s, cluster ${r.clusterStepsPerSec.toFixed(0)} steps/s, ratio ${r.ratio.toFixed(3)}`);
  }
}
let browser: Record<string, Record<string, number | string>> | null = null;
try {
  browser = {
    allreduce: await browserCluster('allreduce-partition', 'wasm', 20000),
    async: await browserCluster('async-partition', 'wasm', 20000),
  };
  for (const [k, r] of Object.entries(browser))
    log(`browser ${k.padEnd(9)} ${r.backend} ×${r.poolSize} workers: bare ${Number(r.bareStepsPerSec).toFixed(0)} steps/s, cluster ${Number(r.clusterStepsPerSec).toFixed(0)} steps/s, ratio ${Number(r.ratio).toFixed(3)}`);
} catch (e) {
  log(`browser bench skipped: ${e instanceof Error ? e.message : String(e)}`);
}
const ratios = [node.allreduce.ratio, node.async.ratio, ...(browser ? [Number(browser.allreduce.ratio), Number(browser.async.ratio)] : [])];
console.log(
  JSON.stringify({
    simEventsPerSec: Math.round(core.eventsPerSec),
    clusterVsBare: Number(Math.min(...ratios).toFixed(3)),
    node: Object.fromEntries(Object.entries(node).map(([k, r]) => [k, { ...r, ratio: Number(r.ratio.toFixed(3)) }])),
    browser,
    bySize,
  }),
);
