import { inflateSync } from 'fflate';
import type { RowsBatch } from './historyRows';
import { unpackBatch, type RowsSlice } from './packedBatch';

/**
 * What reading packed records back needs (sim/packer.ts), loaded on demand: fflate's inflate alone,
 * the history batches' unpacking and the rows that pack their chunks.
 */
export { batchFrame, unpackBatch } from './packedBatch';
export { PackedRows } from './packedRows';

/** Inflates `packed` into `out` (whose length is the unpacked size). */
export function unpack(packed: Uint8Array, out: Uint8Array): Uint8Array {
  return inflateSync(packed, { out });
}

/** A history slice's batch: a packed one unpacked (an export's worker, the tests). */
export function sliceBatch(s: RowsSlice): RowsBatch {
  return 'bytes' in s ? unpackBatch(s, unpack) : s;
}
