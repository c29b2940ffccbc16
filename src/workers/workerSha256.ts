import type { RunDigests, Sha256Factory, Sha256Stream } from '../sim/history';
import { batchTransfers, type RowsDigester } from '../sim/historyRows';
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

/**
 * SHA-256 streams hashed behind `port`, and (`rows`) histories whose lines are written there too:
 * the main thread then only copies each batch of rows it stored (sim/historyRows.ts).
 */
export function hashClient(port: HashPort): Sha256Factory {
  let nextId = 1;
  let nextReq = 1;
  const waiting = new Map<number, { resolve(answer: string | RunDigests): void; reject(e: Error): void }>();
  let failed: Error | null = null;
  port.addEventListener('message', (e) => {
    const r = e.data;
    const w = waiting.get(r.req);
    if (!w) return;
    waiting.delete(r.req);
    if ('hex' in r) w.resolve(r.hex);
    else if ('digests' in r) w.resolve(r.digests);
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
  const ask = <T extends string | RunDigests>(m: (req: number) => HashRequest): Promise<T> => {
    if (failed) return Promise.reject(failed);
    const req = nextReq++;
    return new Promise<T>((resolve, reject) => {
      waiting.set(req, { resolve: resolve as (answer: string | RunDigests) => void, reject });
      port.postMessage(m(req), []);
    });
  };
  const rows = (): RowsDigester => {
    const id = nextId++;
    const digester: RowsDigester = {
      // The batch's arrays are fresh copies: their memory moves to the worker.
      add: (batch) => port.postMessage({ op: 'rows', id, batch }, batchTransfers(batch)),
      digests: () => ask<RunDigests>((req) => ({ op: 'rowDigests', id, req })),
    };
    gone?.register(digester, id);
    return digester;
  };
  const stream = (): Sha256Stream => {
    const id = nextId++;
    const stream: Sha256Stream = {
      update(data) {
        // A copy: the history reuses its buffer, and the copy's memory moves to the worker.
        const copy = data.slice();
        port.postMessage({ op: 'update', id, data: copy.buffer }, [copy.buffer]);
      },
      peekHex: () => ask<string>((req) => ({ op: 'digest', id, req })),
    };
    gone?.register(stream, id);
    return stream;
  };
  return Object.assign(stream, { rows });
}

let shared: Sha256Factory | null = null;

/** The page's one hash worker's streams; undefined where there are no workers (the engine's default then). */
export function pageSha256(): Sha256Factory | undefined {
  if (typeof Worker === 'undefined') return undefined;
  shared ??= hashClient(new Worker(new URL('./hashWorker.ts', import.meta.url), { type: 'module' }));
  return shared;
}
