/// <reference lib="webworker" />
import type { RowsBatch } from '../sim/historyRows';
import { localPacking } from '../sim/packLocal';
import type { PackReply, PackRequest } from './packClient';

/** The page's packer: deflates what has aged of a run's record, off the main thread (sim/packer.ts). */
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (e: MessageEvent<PackRequest>) => {
  const m = e.data;
  try {
    if (m.op === 'batch') {
      const out = localPacking.batch(m.batch as RowsBatch) as Exclude<ReturnType<typeof localPacking.batch>, Promise<unknown>>;
      scope.postMessage({ id: m.id, ok: true, out } satisfies PackReply, [out.bytes.buffer as ArrayBuffer]);
    } else {
      const out = localPacking.bytes(m.bytes) as Uint8Array;
      scope.postMessage({ id: m.id, ok: true, out } satisfies PackReply, [out.buffer as ArrayBuffer]);
    }
  } catch (err) {
    scope.postMessage({ id: m.id, ok: false, error: String(err) } satisfies PackReply);
  }
};
