import { DELIVER_FLOATS, DELIVER_INTS, SEND_FLOATS, SEND_INTS } from './compactMessages';
import type { RowsBatch } from './historyRows';
import { bytesOf } from './rows';
import { floatColumns, floatRows, intColumns, intRows } from './columnLayout';

/** Inflates `packed` into `out` (whose length is the unpacked size). */
export type Unpack = (packed: Uint8Array, out: Uint8Array) => Uint8Array;

/**
 * A history batch with its typed columns deflated into one buffer (RowsHistory: batches that have
 * aged). `frame` is the batch with those columns emptied: the strings and shapes its decoders
 * learn, its tables' first rows, its values' chunks and offsets.
 *
 * Before deflating, the message tables are laid out column by column and each column as the
 * differences between consecutive rows: simulated times are whole microseconds (the network
 * quantizes them) that grow by little from row to row, message ids count up, senders and kinds
 * repeat. A float column whose numbers are not all whole microseconds is kept as it is. The refs
 * become differences from the previous ref of the same kind (message rows, word offsets,
 * objects). A batch of a busy Raft run packs to 0.74 of what deflate alone gives.
 */
export interface PackedColumns {
  readonly bytes: Uint8Array;
  /** Unpacked size in bytes. */
  readonly size: number;
  /** Rows: events, sends, deliveries, and each values piece's words. */
  readonly events: number;
  readonly sends: number;
  readonly delivers: number;
  readonly words: readonly number[];
  /** Per float column (sends' then deliveries'): whole microseconds as differences, or the floats as they are. */
  readonly micros: readonly boolean[];
}

export interface PackedBatch extends PackedColumns {
  readonly frame: RowsBatch;
}

/** A slice of a history as an export reads it: a batch, or a packed one (unpacked where it is written: the export's worker). */
export type RowsSlice = RowsBatch | PackedBatch;

/** The batch's columns, laid out and deflated (where a worker packs, there: it is the costly half). */
export function packColumns(b: RowsBatch, deflate: (bytes: Uint8Array) => Uint8Array): PackedColumns {
  const m = b.messages;
  const sends = m.sends.i32.length / SEND_INTS;
  const delivers = m.delivers.i32.length / DELIVER_INTS;
  const floats = [...floatColumns(m.sends.f64, SEND_FLOATS), ...floatColumns(m.delivers.f64, DELIVER_FLOATS)];
  // Raw floats first, so that each segment starts aligned for its element size.
  const raw = floats.filter((c): c is Float64Array => c instanceof Float64Array);
  const ints = [...floats.filter((c): c is Int32Array => c instanceof Int32Array), refDifferences(b.where, b.refs), ...intColumns(m.sends.i32, SEND_INTS), ...intColumns(m.delivers.i32, DELIVER_INTS), ...b.values.pieces.map((p) => p.words)];
  const segments = [...raw, ...ints, b.where];
  const size = segments.reduce((n, c) => n + c.byteLength, 0);
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of segments) {
    all.set(bytesOf(c), at);
    at += c.byteLength;
  }
  return { bytes: deflate(all), size, events: b.where.length, sends, delivers, words: b.values.pieces.map((p) => p.words.length), micros: floats.map((c) => c instanceof Int32Array) };
}

/** The batch with its columns emptied: what a packed batch keeps beside its bytes. */
export function batchFrame(b: RowsBatch): RowsBatch {
  const m = b.messages;
  return {
    where: new Uint8Array(0),
    refs: new Int32Array(0),
    messages: { names: m.names, sends: { first: m.sends.first, f64: new Float64Array(0), i32: new Int32Array(0) }, delivers: { first: m.delivers.first, f64: new Float64Array(0), i32: new Int32Array(0) } },
    values: { strings: b.values.strings, shapes: b.values.shapes, pieces: b.values.pieces.map((p) => ({ chunk: p.chunk, at: p.at, words: new Int32Array(0) })) },
    objects: b.objects,
  };
}

/** The batch again, its columns fresh arrays. */
export function unpackBatch(p: PackedBatch, unpack: Unpack): RowsBatch {
  const buf = unpack(p.bytes, new Uint8Array(p.size)).buffer;
  const f = p.frame;
  const events = p.events;
  let at = 0;
  const take = <A extends Float64Array | Int32Array | Uint8Array>(make: new (b: ArrayBufferLike, offset: number, length: number) => A, n: number, width: number): A => {
    const a = new make(buf, at, n);
    at += n * width;
    return a;
  };
  const counts = [p.sends, p.sends, p.sends, p.delivers, p.delivers];
  const floatCols: Array<Float64Array | Int32Array | null> = counts.map((n, c) => (p.micros[c] ? null : take(Float64Array, n, 8)));
  for (let c = 0; c < counts.length; c++) if (p.micros[c]) floatCols[c] = take(Int32Array, counts[c], 4);
  const refDiffs = take(Int32Array, events, 4);
  const sendInts = Array.from({ length: SEND_INTS }, () => take(Int32Array, p.sends, 4));
  const deliverInts = Array.from({ length: DELIVER_INTS }, () => take(Int32Array, p.delivers, 4));
  const pieces = f.values.pieces.map((x, k) => ({ chunk: x.chunk, at: x.at, words: take(Int32Array, p.words[k], 4) }));
  const where = take(Uint8Array, events, 1);
  const m = f.messages;
  return {
    where,
    refs: undoRefDifferences(where, refDiffs),
    messages: {
      names: m.names,
      sends: { first: m.sends.first, f64: floatRows(floatCols.slice(0, SEND_FLOATS) as Array<Float64Array | Int32Array>, p.sends), i32: intRows(sendInts, p.sends) },
      delivers: { first: m.delivers.first, f64: floatRows(floatCols.slice(SEND_FLOATS) as Array<Float64Array | Int32Array>, p.delivers), i32: intRows(deliverInts, p.delivers) },
    },
    values: { strings: f.values.strings, shapes: f.values.shapes, pieces },
    objects: f.objects,
  };
}

function refDifferences(where: Uint8Array, refs: Int32Array): Int32Array {
  const prev = [0, 0, 0];
  const d = new Int32Array(refs.length);
  for (let i = 0; i < refs.length; i++) {
    const k = where[i];
    d[i] = (refs[i] - prev[k]) | 0;
    prev[k] = refs[i];
  }
  return d;
}

function undoRefDifferences(where: Uint8Array, d: Int32Array): Int32Array {
  const prev = [0, 0, 0];
  const refs = new Int32Array(d.length);
  for (let i = 0; i < d.length; i++) {
    const k = where[i];
    refs[i] = prev[k] = (prev[k] + d[i]) | 0;
  }
  return refs;
}
