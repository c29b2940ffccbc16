import { EngineClient, type RemoteRun, type RemoteTrainer } from '../engine/remote/client';
import type { EnginePort, FromHost, ToHost } from '../engine/remote/protocol';
import type { Scenario } from '../scenario/schema';
import type { CheckName, Checks } from './checks/table';
import type { BackendChoice } from '../train/types';
import { packWith } from '../sim/packer';
import { takeEngineWorker } from '../workers/engineSpawn';

/**
 * The app's runs: each one's engine runs in the engine's worker (engine/remote, issue 9: the engine
 * off the main thread), the page follows it. One worker serves every run the page shows — the run
 * on screen, its forks, a lesson's variants — and starts their trainers (pools of training workers).
 */

/** A run as the app holds it: the engine's worker runs it, the page reads and drives it. */
export type Run = RemoteRun;
/** A trainer as the app holds it: runs are made on it, the app disposes of it when none uses it. */
export type RunTrainer = RemoteTrainer;

let client: EngineClient | null = null;

// What ages of a run's record on this page is packed in a worker (sim/packer.ts).
packWith(() => import('../workers/packClient').then((m) => m.workerPacking()));

/**
 * The engine's worker, started on first use. One that failed to load or died answers nothing: its
 * runs say so (the error panel) instead of waiting forever, and the next run starts a new worker —
 * loading a scenario again works without reloading the page.
 */
function engine(): EngineClient {
  if (client && !client.lost) return client;
  const worker = takeEngineWorker();
  const c = new EngineClient(worker as unknown as EnginePort<FromHost, ToHost>, () => worker.terminate());
  worker.addEventListener('error', (e) => {
    e.preventDefault();
    c.fail(e.message || 'its script failed');
  });
  client = c;
  return c;
}

/**
 * A trainer for `sc`'s model and seed: one logical node per worker (its pool sizes itself to
 * min(workers, cores)), or exactly `size` workers.
 */
export function makeTrainer(sc: Scenario, backend: BackendChoice, size?: number): Promise<RunTrainer> {
  return engine().trainer({ model: sc.model, seed: sc.seed, backend }, size === undefined ? { nodes: sc.cluster.workers } : { size });
}

/** Starts loading the code a run of `sc` needs (its strategy …) in the engine's worker; a failure shows through `createRun`. */
export function prepareRun(sc: Scenario): void {
  engine()
    .prepare(sc)
    .catch(() => undefined);
}

/** A run of `sc` (validated) on `trainer`. */
export function createRun(sc: Scenario, trainer: RunTrainer): Promise<Run> {
  return engine().create(sc, trainer);
}

/**
 * A check in the engine's worker (app/checks/table.ts): the page carries no schema. Rejects only
 * when the worker cannot answer; a refused input is the check's own answer (its problems).
 */
export function check<K extends CheckName>(name: K, ...args: Parameters<Checks[K]>): Promise<ReturnType<Checks[K]>> {
  return engine().check(name, args) as Promise<ReturnType<Checks[K]>>;
}
