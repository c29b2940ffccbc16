import { inflateSync } from 'fflate';

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
