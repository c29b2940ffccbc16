import { CHUNK, ESC_F64, ESC_MILLI, f64, i32, INT_MAX, INT_MIN, parseShape, SHIFT, ValueDecoder, type Tpl, type ValuesDelta, type ValuesMark } from './valueWords';

/**
 * Plain data values (objects, arrays, strings, numbers, booleans, null, undefined) kept as 32-bit
 * words instead of objects (issue 9: a lecture-long run must not grow the heap by megabytes a
 * minute). A value is stored as the id of its *shape* — its structure: keys in order, which fields
 * are numbers, strings, constants, arrays — followed by the words of its numbers and strings.
 * Shapes and strings are interned, so a stream of similar values (a node's facts, a log's entries)
 * costs a few words each. Reading a value back builds a fresh object equal to the original field
 * for field, keys in the same order (so its JSON line, and every hash over it, is the same).
 *
 * Values that are not plain data (typed arrays, maps, class instances, functions, a `__proto__`
 * key) are refused: `add` returns -1 and the caller keeps the object as it is.
 */

/** Shapes remembered per event type for the fast path. */
const RECENT = 4;

export class CompactValues {
  // Chunked: growing never copies what is stored (a doubling copy late in a long run was a pause
  // that grew with the run, sim/rows.ts). The first chunk starts small and doubles to full size.
  private readonly chunks: Int32Array[] = [new Int32Array(4096)];
  /** Chunks let go of (forgetBefore). */
  private forgotten = 0;
  /** Words used in the last chunk. */
  private tailN = 0;
  /** Words stored, over all chunks. */
  private n = 0;
  /** Words used in each chunk before the last (a delta copies no unused tail). */
  private readonly ends: number[] = [];
  private readonly decoder = new ValueDecoder();
  private readonly strings = this.decoder.strings;
  private readonly shapes = this.decoder.shapes;
  /** Each shape's key, by id (a delta sends the new ones). */
  private readonly shapeKeys: string[] = [];
  private readonly shapeIx = new Map<string, number>();
  /**
   * Scratch for the value being encoded (copied into `words` once it proved plain), and how much
   * of it is in use: a typed array reset by its count, since `array.length = 0` frees a JS
   * array's storage and every value then grew it again.
   */
  private out = new Int32Array(256);
  private outN = 0;
  /** Object keys as they appear in a shape key (JSON-quoted), made once per key: every event has them. */
  private readonly quoted = new Map<string, string>();
  /**
   * The shapes last seen per event `type` (most recent first, a few each): a value of a known shape
   * is encoded by walking its template, without building its shape key — a string per value, hashed
   * for the lookup, was most of the encoding's cost (issue 9: simulator core speed).
   */
  private readonly recent = new Map<string, number[]>();

  /** Stores `v`; returns its offset for `get`, or -1 if it is not plain data (nothing is stored). */
  add(v: unknown): number {
    this.outN = 0;
    // A value longer than a chunk is not compacted (History keeps it as the object it is).
    if (!this.known(v) && !this.value(v)) return -1;
    const len = this.outN;
    if (len > CHUNK) return -1;
    let c = this.chunks.length - 1;
    let tail = this.chunks[c];
    if (this.tailN + len > tail.length) {
      if (c === 0 && tail.length < CHUNK) {
        let size = tail.length * 2;
        while (this.tailN + len > size) size *= 2;
        const w = new Int32Array(Math.min(CHUNK, size));
        w.set(tail.subarray(0, this.tailN));
        tail = this.chunks[0] = w;
      }
      if (this.tailN + len > tail.length) {
        if (c + 1 >= 1 << (31 - SHIFT)) return -1; // offsets stay non-negative int32
        this.ends[c] = this.tailN;
        tail = new Int32Array(CHUNK);
        this.chunks.push(tail);
        c++;
        this.tailN = 0;
      }
    }
    const at = this.tailN;
    const out = this.out;
    for (let i = 0; i < len; i++) tail[at + i] = out[i]; // a few words: a loop, not a subarray view each time
    this.tailN = at + len;
    this.n += len;
    return (c << SHIFT) | at;
  }

  /** The value stored at `offset` (as `add` returned it), rebuilt as a fresh object. */
  get(offset: number): unknown {
    const c = offset >>> SHIFT;
    const at = offset & (CHUNK - 1);
    if (offset < 0 || c >= this.chunks.length || (c === this.chunks.length - 1 && at >= this.tailN)) throw new RangeError(`compact values: no value at ${offset}`);
    return this.decoder.read(this.chunks[c], at);
  }

  /** Where the store stands now. */
  mark(): ValuesMark {
    return { strings: this.strings.size, shapes: this.shapeKeys.length, chunk: this.chunks.length - 1, at: this.tailN };
  }

  /** Lets go of the chunks wholly before mark `m`'s: no one reads their values any more. */
  forgetBefore(m: ValuesMark): void {
    for (; this.forgotten < m.chunk; this.forgotten++) this.chunks[this.forgotten] = new Int32Array(0);
  }

  /** What was stored since `m`, up to `until` (now by default) (copies: a delta may be sent to another thread). */
  delta(m: ValuesMark, until: ValuesMark = this.mark()): ValuesDelta {
    const pieces: ValuesDelta['pieces'] = [];
    for (let c = m.chunk; c <= until.chunk; c++) {
      const from = c === m.chunk ? m.at : 0;
      // A chunk before the mark's was full to its recorded end when the mark was taken.
      const to = c === until.chunk ? until.at : this.ends[c];
      if (to > from) pieces.push({ chunk: c, at: from, words: this.chunks[c].slice(from, to) });
    }
    return { strings: this.strings.since(m.strings, until.strings), shapes: this.shapeKeys.slice(m.shapes, until.shapes), pieces };
  }

  /** Words in use (for measurements). */
  get size(): number {
    return this.n;
  }

  // ---------------------------------------------------------------- encoding

  /** Appends shape id and words of one value to `out`; false if it is not plain data. */
  private value(v: unknown): boolean {
    const slot = this.outN;
    this.push(0);
    const key = this.part(v);
    if (key === null) return false;
    let id = this.shapeIx.get(key);
    if (id === undefined) {
      id = this.shapes.length;
      this.shapes.push(parseShape(key));
      this.shapeKeys.push(key);
      this.shapeIx.set(key, id);
    }
    this.out[slot] = id;
    return true;
  }

  /**
   * The fast path: if `v` is an object whose `type` names a recently seen shape that it has, pushes
   * its shape id and words (the very words `value` would push) and returns true. Otherwise pushes
   * nothing and returns false.
   */
  private known(v: unknown): boolean {
    if (typeof v !== 'object' || v === null) return false;
    const type = (v as { type?: unknown }).type;
    if (typeof type !== 'string') return false;
    let ids = this.recent.get(type);
    if (ids !== undefined) {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i];
        this.push(id);
        if (this.fill(this.shapes[id], v)) {
          if (i > 0) {
            ids.splice(i, 1); // keep the likeliest first
            ids.unshift(id);
          }
          return true;
        }
        this.outN = 0;
      }
    }
    // Unknown here: the general path, remembered for the next value of this type.
    if (!this.value(v)) return (this.outN = 0), false;
    if (ids === undefined) this.recent.set(type, (ids = []));
    ids.unshift(this.out[0]);
    if (ids.length > RECENT) ids.pop();
    return true;
  }

  /** Pushes the words of `v` along template `t`; false (words half pushed) if `v` does not have that shape. */
  private fill(t: Tpl, v: unknown): boolean {
    switch (t.k) {
      case 'n':
        if (typeof v !== 'number') return false;
        this.number(v);
        return true;
      case 's':
        if (typeof v !== 'string') return false;
        this.push(this.strings.id(v));
        return true;
      case 'c':
        return v === t.v;
      case 'a':
        // Each element carries its own shape id: the general path does them.
        if (typeof v !== 'object' || v === null || Object.getPrototypeOf(v) !== Array.prototype) return false;
        return this.part(v) === 'a';
      case 'o': {
        if (typeof v !== 'object' || v === null || Object.getPrototypeOf(v) !== Object.prototype) return false;
        const keys = t.keys;
        let i = 0;
        // The same keys in the same order (for…in lists own keys first, so an inherited one shows as extra).
        for (const k in v) {
          if (i === keys.length || k !== keys[i]) return false;
          if (!this.fill(t.vals[i], (v as Record<string, unknown>)[k])) return false;
          i++;
        }
        return i === keys.length;
      }
    }
  }

  /** The shape key of `v`, pushing its words; null if it is not plain data. */
  private part(v: unknown): string | null {
    switch (typeof v) {
      case 'number':
        this.number(v);
        return 'n';
      case 'string':
        this.push(this.strings.id(v));
        return 's';
      case 'boolean':
        return v ? 't' : 'f';
      case 'undefined':
        return 'u';
      case 'object': {
        if (v === null) return 'z';
        const proto = Object.getPrototypeOf(v) as unknown;
        if (proto === Array.prototype) {
          const a = v as unknown[];
          this.push(a.length);
          for (let i = 0; i < a.length; i++) if (!(i in a) || !this.value(a[i])) return null; // holes are not data
          return 'a';
        }
        if (proto !== Object.prototype) return null;
        let key = '{';
        for (const k in v) {
          if (!Object.prototype.hasOwnProperty.call(v, k)) return null;
          if (k === '__proto__') return null; // assigning it back would set the prototype
          const part = this.part((v as Record<string, unknown>)[k]);
          if (part === null) return null;
          let q = this.quoted.get(k);
          if (q === undefined) this.quoted.set(k, (q = JSON.stringify(k) + ':'));
          key += q + part + ',';
        }
        return key + '}';
      }
      default:
        return null; // functions, symbols, bigints
    }
  }

  private number(x: number): void {
    if (Number.isInteger(x) && x >= INT_MIN && x <= INT_MAX && !Object.is(x, -0)) {
      this.push(x);
      return;
    }
    const k = Math.round(x * 1000);
    if (k >= INT_MIN && k <= INT_MAX && k / 1000 === x && !Object.is(x, -0)) {
      this.push(ESC_MILLI);
      this.push(k);
      return;
    }
    f64[0] = x;
    this.push(ESC_F64);
    this.push(i32[0]);
    this.push(i32[1]);
  }

  private push(word: number): void {
    if (this.outN === this.out.length) {
      const grown = new Int32Array(this.out.length * 2);
      grown.set(this.out);
      this.out = grown;
    }
    this.out[this.outN++] = word;
  }
}
