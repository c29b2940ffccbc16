import type { RowsBatch } from '../sim/historyRows';
import type { PackedColumns } from '../sim/packedBatch';
import type { Packing } from '../sim/packer';

type Request = { op: 'batch'; batch: RowsBatch } | { op: 'bytes'; bytes: Uint8Array };
export type PackRequest = Request & { id: number };
export type PackReply = { id: number; ok: true; out: PackedColumns | Uint8Array } | { id: number; ok: false; error: string };

/**
 * Packing in a worker of its own (workers/packWorker.ts), started with the first request: a batch
 * is copied to it (the page goes on reading its own), bytes are transferred. A worker that fails
 * refuses every request from then on: what was to be packed stays as it is.
 *
 * One request at a time, and after each a rest twice as long as it took: packing can wait, and at
 * speed max the engine's worker, the training workers and the page need the cores (on two, a
 * crash key's worst latency passed 100 ms in three of five runs with packing at full pace, none of
 * three without). The backlog is packed as the run allows.
 */
export function workerPacking(): Packing {
  let worker: Worker | null = null;
  let broken: string | null = null;
  let next = 0;
  const queue: Array<() => void> = [];
  let busy = false;
  const pump = (): void => {
    if (busy || queue.length === 0 || broken !== null) return;
    busy = true;
    queue.shift()!();
  };
  const rested = (took: number): void => {
    setTimeout(() => {
      busy = false;
      pump();
    }, 2 * took);
  };
  const waiting = new Map<number, { ok: (out: PackedColumns | Uint8Array) => void; no: (e: Error) => void }>();
  const fail = (why: string): void => {
    broken = why;
    for (const w of waiting.values()) w.no(new Error(why));
    waiting.clear();
    worker?.terminate();
  };
  const ask = (req: Request, transfer: Transferable[]): Promise<PackedColumns | Uint8Array> => {
    if (broken !== null) return Promise.reject(new Error(broken));
    if (!worker) {
      worker = new Worker(new URL('./packWorker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = (e: MessageEvent<PackReply>) => {
        const w = waiting.get(e.data.id);
        waiting.delete(e.data.id);
        if (e.data.ok) w?.ok(e.data.out);
        else w?.no(new Error(e.data.error));
      };
      worker.onerror = (e) => {
        e.preventDefault();
        fail(`pack worker: ${e.message || 'its script failed'}`);
      };
    }
    const id = ++next;
    return new Promise((ok, no) => {
      queue.push(() => {
        const sent = performance.now();
        const done = (): void => rested(performance.now() - sent);
        waiting.set(id, {
          ok: (out) => {
            done();
            ok(out);
          },
          no: (e) => {
            done();
            no(e);
          },
        });
        worker!.postMessage({ ...req, id } satisfies PackRequest, transfer);
      });
      pump();
    });
  };
  return {
    batch: (batch) => ask({ op: 'batch', batch }, []) as Promise<PackedColumns>,
    bytes: (bytes) => ask({ op: 'bytes', bytes }, [bytes.buffer as ArrayBuffer]) as Promise<Uint8Array>,
  };
}
