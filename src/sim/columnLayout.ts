import { bytesOf, type TypedArray } from './rows';

/**
 * Row-major tables laid out column by column, each column as the differences between consecutive
 * rows, for deflate (issue 9: a long run's memory). Simulated times are whole microseconds (the
 * network quantizes them) that grow by little from row to row, ids count up, senders and kinds
 * repeat: as differences they deflate to a fraction of what the rows do. Used by packed history
 * batches (packedBatch.ts) and packed rows (packedRows.ts: the index's message spans and columns).
 */

/**
 * A row-major float table's columns: each as differences of whole microseconds where every number
 * in it is one (exactly: x = m / 1000 for an integer m, −0 and NaN excluded, each difference an
 * Int32), else as its floats.
 */
export function floatColumns(a: Float64Array, width: number): Array<Float64Array | Int32Array> {
  const n = a.length / width;
  const out: Array<Float64Array | Int32Array> = [];
  for (let c = 0; c < width; c++) {
    const d = new Int32Array(n);
    let prev = 0;
    let whole = true;
    for (let i = 0; i < n && whole; i++) {
      const x = a[i * width + c];
      const us = Math.round(x * 1000);
      const diff = us - prev;
      // As `rows` will read it back (a −0 comes back as 0: kept as a float).
      whole = Number.isSafeInteger(us) && diff === (diff | 0) && Object.is((prev + diff) / 1000, x);
      d[i] = diff;
      prev = us;
    }
    if (whole) out.push(d);
    else {
      const raw = new Float64Array(n);
      for (let i = 0; i < n; i++) raw[i] = a[i * width + c];
      out.push(raw);
    }
  }
  return out;
}

/** A row-major int table's columns, each as differences (Int32 wrap-around: exact for any Int32). */
export function intColumns(a: Int32Array, width: number): Int32Array[] {
  const n = a.length / width;
  return Array.from({ length: width }, (_, c) => {
    const d = new Int32Array(n);
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const x = a[i * width + c];
      d[i] = (x - prev) | 0;
      prev = x;
    }
    return d;
  });
}

/** Float columns (differences of microseconds, or floats) back into a row-major table (`out`, or a new one). */
export function floatRows<F extends Float64Array<ArrayBufferLike>>(cols: Array<Float64Array | Int32Array>, n: number, out: F = new Float64Array(n * cols.length) as F): F {
  const w = cols.length;
  cols.forEach((col, c) => {
    if (col instanceof Float64Array) {
      for (let i = 0; i < n; i++) out[i * w + c] = col[i];
      return;
    }
    let us = 0;
    for (let i = 0; i < n; i++) out[i * w + c] = (us += col[i]) / 1000;
  });
  return out;
}

/** Int columns (differences) back into a row-major table (`out`, or a new one). */
export function intRows<I extends Int32Array<ArrayBufferLike>>(cols: Int32Array[], n: number, out: I = new Int32Array(n * cols.length) as I): I {
  const w = cols.length;
  cols.forEach((col, c) => {
    let x = 0;
    for (let i = 0; i < n; i++) out[i * w + c] = x = (x + col[i]) | 0;
  });
  return out;
}

/** Running sums of a difference column: the values (microseconds, exact in a double). */
export function sums(d: Int32Array): Float64Array {
  const a = new Float64Array(d.length);
  let x = 0;
  for (let i = 0; i < d.length; i++) a[i] = x += d[i];
  return a;
}

/** Differences between consecutive values (the inverse of `sums`, for values whose differences fit an Int32). */
export function diffs(a: Float64Array): Int32Array {
  const d = new Int32Array(a.length);
  let prev = 0;
  for (let i = 0; i < a.length; i++) {
    d[i] = a[i] - prev;
    prev = a[i];
  }
  return d;
}

/** A float chunk's column as packed: differences of whole microseconds, the floats as they are, or the microseconds less its base column's in the same row. */
const DIFF = 0;
const FLOAT = 1;
const RELATIVE = 2;

/**
 * Float columns read against another column of the same row, as [column, base] pairs in order (a
 * base may be an earlier pair's column): a message's due time less its send time is its latency,
 * its end less its due is zero unless the network held or dropped it.
 */
export type Relative = ReadonlyArray<readonly [number, number]>;

/** A chunk laid out for packing: its bytes, and for a float chunk how each column is kept (DIFF, FLOAT, RELATIVE). */
export interface ChunkColumns {
  bytes: Uint8Array;
  floats: Uint8Array | null;
}

/** A row-major chunk of `width` columns, laid out: floats kept as floats first (8-byte aligned), then the difference columns. A Uint8Array chunk stays as it is. */
export function chunkColumns(a: TypedArray, width: number, relative: Relative = []): ChunkColumns {
  if (a instanceof Uint8Array) return { bytes: a.slice(), floats: null };
  const cols: Array<Float64Array | Int32Array> = a instanceof Float64Array ? floatColumns(a, width) : intColumns(a, width);
  const codes = Uint8Array.from(cols, (c) => (c instanceof Float64Array ? FLOAT : DIFF));
  if (a instanceof Float64Array) {
    const abs = cols.map((c) => (c instanceof Int32Array ? sums(c) : null));
    for (const [c, base] of relative) {
      const x = abs[c];
      const b = abs[base];
      if (!x || !b) continue;
      const rel = Float64Array.from(x, (v, i) => v - b[i]);
      if (!rel.every((v) => v === (v | 0))) continue;
      cols[c] = Int32Array.from(rel);
      codes[c] = RELATIVE;
    }
  }
  const ordered = [...cols.filter((c) => c instanceof Float64Array), ...cols.filter((c) => c instanceof Int32Array)];
  const bytes = new Uint8Array(ordered.reduce((k, c) => k + c.byteLength, 0));
  let at = 0;
  for (const c of ordered) {
    bytes.set(bytesOf(c), at);
    at += c.byteLength;
  }
  return { bytes, floats: a instanceof Float64Array ? codes : null };
}

/** Bytes of a chunk of `n` rows laid out by chunkColumns. */
export function chunkColumnsSize(a: TypedArray, n: number, width: number, floats: Uint8Array | null): number {
  if (a instanceof Uint8Array) return n * width;
  if (!floats) return n * width * 4;
  let k = 0;
  for (const f of floats) k += f === FLOAT ? 8 : 4;
  return n * k;
}

/** Undoes chunkColumns into `out` (row-major, `width` columns), with the pairs it was given. */
export function chunkRows(bytes: Uint8Array, floats: Uint8Array | null, out: TypedArray, width: number, relative: Relative = []): void {
  if (out instanceof Uint8Array) return void out.set(bytes);
  const n = out.length / width;
  const buf = bytes.buffer;
  let at = bytes.byteOffset;
  const take = <C extends Float64Array | Int32Array>(make: new (b: ArrayBufferLike, offset: number, length: number) => C, size: number): C => {
    const c = new make(buf, at, n);
    at += n * size;
    return c;
  };
  if (out instanceof Int32Array) {
    intRows(Array.from({ length: width }, () => take(Int32Array, 4)), n, out);
    return;
  }
  const codes = floats!;
  const cols: Array<Float64Array | Int32Array | null> = Array.from(codes, (f) => (f === FLOAT ? take(Float64Array, 8) : null));
  for (let c = 0; c < width; c++) if (codes[c] !== FLOAT) cols[c] = take(Int32Array, 4);
  for (const [c, base] of relative) {
    if (codes[c] !== RELATIVE) continue;
    const b = sums(cols[base] as Int32Array);
    cols[c] = diffs(Float64Array.from(cols[c] as Int32Array, (v, i) => v + b[i]));
  }
  floatRows(cols as Array<Float64Array | Int32Array>, n, out);
}
