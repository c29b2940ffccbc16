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

(window as unknown as { runBench: typeof runBench }).runBench = runBench;
document.body.dataset.ready = 'true';
