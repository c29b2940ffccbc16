import type { Sha256Factory, Sha256Stream } from '../sim/history';
import type { HashReply, HashRequest } from './hashService';

/**
 * The page's SHA-256 for run histories: every chunk goes to one worker of its own (hashWorker.ts),
 * and a digest comes back as a promise. Hashing every event's line on the main thread was a tenth
 * of its time at speed max (raft-ps, 16 workers), and @noble/hashes ~5 KiB of its first load.
 */

/** What the client needs of a worker (a fake one in tests). */
export interface HashPort {
  postMessage(m: HashRequest, transfer: Transferable[]): void;
  addEventListener(type: 'message', l: (e: MessageEvent<HashReply>) => void): void;
  addEventListener(type: 'error', l: (e: Event) => void): void;
}

/** SHA-256 streams hashed behind `port`. */
export function hashClient(port: HashPort): Sha256Factory {
  let nextId = 1;
  let nextReq = 1;
  const waiting = new Map<number, { resolve(hex: string): void; reject(e: Error): void }>();
  let failed: Error | null = null;
  port.addEventListener('message', (e) => {
    const r = e.data;
    const w = waiting.get(r.req);
    if (!w) return;
    waiting.delete(r.req);
    if ('hex' in r) w.resolve(r.hex);
    else w.reject(new Error(r.error));
  });
  port.addEventListener('error', (e) => {
    e.preventDefault();
    failed = new Error('the hash worker failed to start');
    for (const w of waiting.values()) w.reject(failed);
    waiting.clear();
  });
  // A run thrown away (a new scenario, a fork left) lets its streams go in the worker too.
  const gone = typeof FinalizationRegistry === 'undefined' ? null : new FinalizationRegistry<number>((id) => port.postMessage({ op: 'drop', id }, []));
  return (): Sha256Stream => {
    const id = nextId++;
    const stream: Sha256Stream = {
      update(data) {
        // A copy: the history reuses its buffer, and the copy's memory moves to the worker.
        const copy = data.slice();
        port.postMessage({ op: 'update', id, data: copy.buffer }, [copy.buffer]);
      },
      peekHex() {
        if (failed) return Promise.reject(failed);
        const req = nextReq++;
        return new Promise<string>((resolve, reject) => {
          waiting.set(req, { resolve, reject });
          port.postMessage({ op: 'digest', id, req }, []);
        });
      },
    };
    gone?.register(stream, id);
    return stream;
  };
}

let shared: Sha256Factory | null = null;

/** The page's one hash worker's streams; undefined where there are no workers (the engine's default then). */
export function pageSha256(): Sha256Factory | undefined {
  if (typeof Worker === 'undefined') return undefined;
  shared ??= hashClient(new Worker(new URL('./hashWorker.ts', import.meta.url), { type: 'module' }));
  return shared;
}
