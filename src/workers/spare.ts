/**
 * Training workers started before anyone asks for them. A worker's first cost is fetching and
 * compiling tfjs (most of a second on a classroom laptop); the engine's worker starts that first
 * thing (engineWorker.ts), while the page's own scripts load and the first scenario is fetched, and
 * the first pool takes them. A spare
 * holds no model: `init` (WorkerPool) gives it one, so any spare serves any pool.
 */

/** The one place a training worker is constructed (Vite bundles the worker from this call). */
export function newTrainWorker(): Worker {
  return new Worker(new URL('./trainWorker.ts', import.meta.url), { type: 'module' });
}

interface Spare {
  worker: Worker;
  /** Its script failed to load before a pool took it: the error event is gone, so never hand it out. */
  failed: boolean;
  onError: (e: Event) => void;
}

const spares: Spare[] = [];

/** Starts up to `n` workers now (none where the page has no Worker). */
export function prewarmTrainWorkers(n: number): void {
  if (typeof Worker === 'undefined') return;
  for (let i = spares.length; i < n; i++) {
    const spare: Spare = { worker: newTrainWorker(), failed: false, onError: () => undefined };
    spare.onError = (e: Event) => {
      e.preventDefault();
      spare.failed = true;
    };
    spare.worker.addEventListener('error', spare.onError);
    spares.push(spare);
  }
}

/** A started worker, or undefined when none is left (the caller starts a new one). */
export function takeSpare(): Worker | undefined {
  for (let s = spares.shift(); s; s = spares.shift()) {
    s.worker.removeEventListener('error', s.onError);
    if (!s.failed) return s.worker;
    s.worker.terminate();
  }
  return undefined;
}

/** Ends the spares nobody took (an idle tfjs worker still holds tens of MB). */
export function dropSpares(): void {
  for (let s = spares.shift(); s; s = spares.shift()) s.worker.terminate();
}

/** How many spares wait (tests). */
export function spareCount(): number {
  return spares.length;
}
