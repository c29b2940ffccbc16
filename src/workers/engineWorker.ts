/**
 * A worker that runs simulations for the page (engine/remote; issue 9: the engine off the main
 * thread). It starts training workers first — their tfjs takes longest to load — and then loads the
 * engine itself (engineHost.ts), which takes the pools the page asks for from those spares.
 */
import { prewarmTrainWorkers } from './spare';

// A pool has min(workers, cores) workers; most scenarios have four.
prewarmTrainWorkers(Math.min(navigator.hardwareConcurrency || 2, 4));

// Messages that come before the host is there wait for it (it sets onmessage when it starts).
const early: MessageEvent[] = [];
self.onmessage = (e: MessageEvent) => void early.push(e);
import('./engineHost').then(
  ({ startHost }) => startHost(early),
  (e: unknown) => self.postMessage({ req: 0, ok: false, error: e instanceof Error ? e.message : String(e) }),
);
