import { DELIVER_FLOATS, DELIVER_INTS, SEND_FLOATS, SEND_INTS } from './compactMessages';
import { MESSAGE, type RowsBatch } from './historyRows';
import { link, unlink, type Links } from './messageLinks';
import { groupWords, ungroupWords } from './valueGroups';
import { bytesOf } from './rows';
import { floatColumns, floatRows, intColumns, intRows } from './columnLayout';

/** Inflates `packed` into `out` (whose length is the unpacked size). */
export type Unpack = (packed: Uint8Array, out: Uint8Array) => Uint8Array;

/**
 * A history batch with its typed columns deflated into one buffer (RowsHistory: batches that have
 * aged). `frame` is the batch with those columns emptied: the strings and shapes its decoders
 * learn, its tables' first rows, its values' chunks and offsets.
 *
 * Before deflating, the columns are laid out for it (issue 9: a long run's memory):
 * - the message tables column by column, each column as the differences between consecutive rows
 *   (columnLayout.ts: simulated times are whole microseconds that grow by little from row to row,
 *   message ids count up, senders and kinds repeat), and each delivery against its send
 *   (messageLinks.ts);
 * - the refs as four streams — objects, sends, values, deliveries (a delivery's `where` is packed as
 *   DELIVERY) — each as differences within it: rows count up by one, values' offsets by their
 *   lengths;
 * - the value words grouped by shape (valueGroups.ts).
 * A batch of a busy Raft run packs to ~0.47 of what the row-to-row differences alone gave.
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
  /** Which float columns are read against others (messageLinks.ts). */
  readonly links: Links;
}

export interface PackedBatch extends PackedColumns {
  readonly frame: RowsBatch;
}

/** A slice of a history as an export reads it: a batch, or a packed one (unpacked where it is written: the export's worker). */
export type RowsSlice = RowsBatch | PackedBatch;

/** A delivery's `where` as packed (its ref has a stream of its own). */
const DELIVERY = 3;
const STREAMS = 4;

/** The batch's columns, laid out and deflated (where a worker packs, there: it is the costly half). */
export function packColumns(b: RowsBatch, deflate: (bytes: Uint8Array) => Uint8Array): PackedColumns {
  const m = b.messages;
  const sends = m.sends.i32.length / SEND_INTS;
  const delivers = m.delivers.i32.length / DELIVER_INTS;
  const { columns: c, links } = link({ sendFloats: floatColumns(m.sends.f64, SEND_FLOATS), sendInts: intColumns(m.sends.i32, SEND_INTS), deliverFloats: floatColumns(m.delivers.f64, DELIVER_FLOATS), deliverInts: intColumns(m.delivers.i32, DELIVER_INTS) });
  const floats = [...c.sendFloats, ...c.deliverFloats];
  const where = Uint8Array.from(b.where, (w, i) => (w === MESSAGE && b.refs[i] < 0 ? DELIVERY : w));
  // Raw floats first, so that each segment starts aligned for its element size.
  const raw = floats.filter((x): x is Float64Array => x instanceof Float64Array);
  const ints = [...floats.filter((x): x is Int32Array => x instanceof Int32Array), refStreams(where, b.refs), ...c.sendInts, ...c.deliverInts, groupWords(b.where, b.refs, b.values.pieces)];
  const segments = [...raw, ...ints, where];
  const size = segments.reduce((n, x) => n + x.byteLength, 0);
  const all = new Uint8Array(size);
  let at = 0;
  for (const x of segments) {
    all.set(bytesOf(x), at);
    at += x.byteLength;
  }
  return { bytes: deflate(all), size, events: b.where.length, sends, delivers, words: b.values.pieces.map((p) => p.words.length), micros: floats.map((x) => x instanceof Int32Array), links };
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
  const refCol = take(Int32Array, events, 4);
  const sendInts = Array.from({ length: SEND_INTS }, () => take(Int32Array, p.sends, 4));
  const deliverInts = Array.from({ length: DELIVER_INTS }, () => take(Int32Array, p.delivers, 4));
  const wordCol = take(Int32Array, p.words.reduce((n, k) => n + k, 0), 4);
  const packedWhere = take(Uint8Array, events, 1);
  const refs = undoRefStreams(packedWhere, refCol);
  const where = Uint8Array.from(packedWhere, (w) => (w === DELIVERY ? MESSAGE : w));
  const c = unlink({ sendFloats: floatCols.slice(0, SEND_FLOATS) as Array<Float64Array | Int32Array>, sendInts, deliverFloats: floatCols.slice(SEND_FLOATS) as Array<Float64Array | Int32Array>, deliverInts }, p.links);
  const words = ungroupWords(where, refs, f.values.pieces.map((x, k) => ({ chunk: x.chunk, at: x.at, length: p.words[k] })), wordCol);
  const m = f.messages;
  return {
    where,
    refs,
    messages: {
      names: m.names,
      sends: { first: m.sends.first, f64: floatRows(c.sendFloats, p.sends), i32: intRows(c.sendInts, p.sends) },
      delivers: { first: m.delivers.first, f64: floatRows(c.deliverFloats, p.delivers), i32: intRows(c.deliverInts, p.delivers) },
    },
    values: { strings: f.values.strings, shapes: f.values.shapes, pieces: f.values.pieces.map((x, k) => ({ chunk: x.chunk, at: x.at, words: words[k] })) },
    objects: f.objects,
  };
}

/** The refs as one column of streams (each stream's refs in order, as differences within it), stream after stream. */
function refStreams(where: Uint8Array, refs: Int32Array): Int32Array {
  const start = streamStarts(where);
  const prev = new Int32Array(STREAMS);
  const d = new Int32Array(refs.length);
  for (let i = 0; i < refs.length; i++) {
    const k = where[i];
    d[start[k]++] = (refs[i] - prev[k]) | 0;
    prev[k] = refs[i];
  }
  return d;
}

function undoRefStreams(where: Uint8Array, d: Int32Array): Int32Array {
  const start = streamStarts(where);
  const prev = new Int32Array(STREAMS);
  const refs = new Int32Array(d.length);
  for (let i = 0; i < d.length; i++) {
    const k = where[i];
    refs[i] = prev[k] = (prev[k] + d[start[k]++]) | 0;
  }
  return refs;
}

/** Where each stream starts in the column. */
function streamStarts(where: Uint8Array): Int32Array {
  const count = new Int32Array(STREAMS);
  for (const w of where) count[w]++;
  const start = new Int32Array(STREAMS);
  for (let k = 1; k < STREAMS; k++) start[k] = start[k - 1] + count[k - 1];
  return start;
}
