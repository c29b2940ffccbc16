// First: no schema may be built before zod's eval-based compiler is off (the page runs under the app's CSP).
import '../src/scenario/zodConfig';
import { bareStepsPerSec, clusterStepsPerSec, throughputScenario, warmUp } from './cluster';
import { fetchBuiltin } from '../src/scenario/loader';
import type { BackendChoice } from '../src/train/types';
import { WorkerPool } from '../src/workers/pool';
import { pageSha256 } from '../src/workers/workerSha256';
import { summarizeTimings, type TimingSummary } from '../src/workers/requestTimings';

export interface ClusterBenchOptions {
  scenario: string;
  backend: BackendChoice;
  durationMs: number;
  bareSteps: number;
  hidden?: number[];
  reps?: number;
  /** Where the built-ins are (a worker resolves './scenarios/' against its own script's URL). */
  scenariosUrl?: string;
}

/**
 * In-browser half of `npm run bench`: cluster throughput through the real worker pool against the
 * same pool's workers each running a bare tfjs loop at once (equal parallelism). As in Node
 * (bench/run.ts), the cluster first runs as many steps as a bare turn (`warmUp`), then the two take
 * turns `reps` times and each keeps its best. The last cluster run is the one returned when `reps`
 * is 1 (bench/ratioProfile.ts reads the threads' CPU over it and the bare phase before it).
 * With it, where its gradient requests' time went (workers/requestTimings.ts).
 */
export async function benchCluster(opts: ClusterBenchOptions) {
  const loaded = await fetchBuiltin(opts.scenario, opts.scenariosUrl ?? './scenarios/');
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const sc = throughputScenario(loaded.scenario, opts.durationMs, opts.hidden);
  const nodes = sc.cluster.workers;
  const pool = await WorkerPool.create({ model: sc.model, seed: sc.seed, backend: opts.backend }, { nodes, timings: true });
  try {
    const backend = pool.workers().find((w) => w.alive)?.backend ?? 'none';
    // Hashed as the app hashes: in its own worker.
    await warmUp(sc, pool, opts.bareSteps, pageSha256());
    let bare = 0;
    let cluster: Awaited<ReturnType<typeof clusterStepsPerSec>> | null = null;
    let timings: TimingSummary | null = null;
    for (let r = 0; r < (opts.reps ?? 1); r++) {
      bare = Math.max(bare, await bareStepsPerSec(sc, opts.bareSteps, (draws) => pool.benchBare(draws)));
      pool.takeTimings();
      const c = await clusterStepsPerSec(sc, pool, pageSha256());
      const t = summarizeTimings(pool.takeTimings());
      if (!cluster || c.stepsPerSec > cluster.stepsPerSec) [cluster, timings] = [c, t];
    }
    if (!cluster) throw new Error('reps: at least 1');
    return { backend, poolSize: pool.workers().length, bareStepsPerSec: bare, clusterStepsPerSec: cluster.stepsPerSec, ratio: cluster.stepsPerSec / bare, clusterWallMs: cluster.wallMs, clusterSteps: cluster.steps, timings };
  } finally {
    await pool.dispose();
  }
}

export type BrowserCluster = Awaited<ReturnType<typeof benchCluster>>;
