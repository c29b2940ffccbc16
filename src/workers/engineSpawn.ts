/**
 * The engine's worker (workers/engineWorker.ts), started before anyone asks for it: the page's
 * entry starts it while the app's own scripts load, and it starts the training workers (tfjs, the
 * slowest to load) from there at once. The app's engine client (app/engine.ts) takes it.
 */

let early: Worker | null = null;

/** The one place the engine's worker is constructed (Vite bundles it from this call). */
function newEngineWorker(): Worker {
  return new Worker(new URL('./engineWorker.ts', import.meta.url), { type: 'module' });
}

/** Starts the engine's worker now (nothing where the page has no Worker). */
export function prewarmEngine(): void {
  if (typeof Worker !== 'undefined') early ??= newEngineWorker();
}

/** The worker started early, or a new one. */
export function takeEngineWorker(): Worker {
  const w = early ?? newEngineWorker();
  early = null;
  return w;
}
