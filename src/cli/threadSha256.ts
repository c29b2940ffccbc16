import { Worker } from 'node:worker_threads';
import type { Sha256Factory } from '../sim/history';
import type { HashReply, HashRequest } from '../workers/hashService';
import { hashClient, type HashPort } from '../workers/workerSha256';

/**
 * The history's digests on a worker thread of their own, as the page takes them on its hash worker
 * (workers/workerSha256.ts): the history sends its rows and the thread writes and hashes the lines
 * (sim/historyRows.ts). The thread does not keep the process alive, except while a digest is being
 * waited for. Digests come as promises: read them with `digests()`.
 */
export function threadSha256(): Sha256Factory {
  const w = spawn(new URL('./hashThread.ts', import.meta.url));
  w.unref();
  let waiting = 0;
  const port: HashPort = {
    postMessage(m: HashRequest, transfer: Transferable[]) {
      if (m.op === 'digest' || m.op === 'rowDigests') if (waiting++ === 0) w.ref();
      w.postMessage(m, transfer as ArrayBuffer[]);
    },
    addEventListener(type: 'message' | 'error', l: ((e: MessageEvent<HashReply>) => void) | ((e: Event) => void)) {
      if (type === 'message') {
        w.on('message', (data: HashReply) => {
          if (--waiting === 0) w.unref();
          (l as (e: MessageEvent<HashReply>) => void)({ data } as MessageEvent<HashReply>);
        });
      } else {
        w.on('error', () => (l as (e: Event) => void)(new Event('error')));
      }
    },
  };
  return hashClient(port);
}

/**
 * A thread running `entry`. The CLI runs TypeScript through tsx, whose loader a worker thread does
 * not inherit: a .ts entry is loaded after registering tsx in the thread.
 */
function spawn(entry: URL): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true });
}
