/**
 * Writes values as UTF-8 JSON straight into a growing byte buffer, byte for byte what
 * `new TextEncoder().encode(JSON.stringify(value))` gives — the history hashes every event's JSON
 * line, and building each line as a string and encoding it again cost more than the rest of an
 * event's handling (issue 9: simulator core speed). Plain objects, arrays, ASCII strings, integers
 * and the simulator's quantized times (whole microseconds) take the fast paths; anything else —
 * other characters, other numbers, objects with toJSON or a class of their own, deep nesting —
 * is handed to JSON.stringify itself, so the output never differs.
 */
const encoder = new TextEncoder();
/** Deeper than this, JSON.stringify handles the rest (and reports a cycle as it would). */
const MAX_DEPTH = 32;
/** Quantized times up to 10⁹ ms are written as integer and fraction (see `writeNumber`). */
const QUANTIZED_MAX = 1e9;

export class JsonBytes {
  buf: Uint8Array;
  /** Bytes written so far. */
  n = 0;

  /** `initialBytes`: the buffer's first size (it doubles as needed). */
  constructor(initialBytes = 1 << 17) {
    this.buf = new Uint8Array(initialBytes);
  }

  /** Makes room for `more` bytes. */
  reserve(more: number): void {
    if (this.n + more <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.n + more) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
  }

  byte(c: number): void {
    if (this.n === this.buf.length) this.reserve(1);
    this.buf[this.n++] = c;
  }

  /** JSON.stringify(value), except that a top-level object leaves out the key `skipKey`. */
  value(v: unknown, skipKey?: string): void {
    this.write(v, 0, skipKey);
  }

  private write(v: unknown, depth: number, skipKey?: string): void {
    switch (typeof v) {
      case 'string':
        return this.string(v);
      case 'number':
        return this.number(v);
      case 'boolean':
        return this.ascii(v ? 'true' : 'false');
      case 'object':
        if (v === null) return this.ascii('null');
        if (depth < MAX_DEPTH) {
          if (Array.isArray(v)) return this.array(v, depth);
          const proto = Object.getPrototypeOf(v) as unknown;
          if ((proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
            return this.object(v as Record<string, unknown>, depth, skipKey);
          }
        }
        return this.fallback(v, skipKey);
      default:
        // undefined, functions and symbols are skipped by the callers (as JSON does); bigint throws there.
        return this.fallback(v);
    }
  }

  private object(o: Record<string, unknown>, depth: number, skipKey?: string): void {
    this.byte(0x7b); // {
    let first = true;
    // for…in over a plain object (prototype Object.prototype or null: nothing inherited to list)
    // visits the own keys in Object.keys order, and V8 reads `o[k]` from its enum cache.
    for (const k in o) {
      if (k === skipKey) continue;
      const x = o[k];
      const type = typeof x;
      if (x === undefined || type === 'function' || type === 'symbol') continue;
      if (!first) this.byte(0x2c); // ,
      first = false;
      this.string(k);
      this.byte(0x3a); // :
      // The two commonest values, without the general dispatch.
      if (type === 'number') this.number(x as number);
      else if (type === 'string') this.string(x as string);
      else this.write(x, depth + 1);
    }
    this.byte(0x7d); // }
  }

  private array(a: readonly unknown[], depth: number): void {
    this.byte(0x5b); // [
    for (let i = 0; i < a.length; i++) {
      if (i > 0) this.byte(0x2c);
      const x = a[i];
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') this.ascii('null');
      else this.write(x, depth + 1);
    }
    this.byte(0x5d); // ]
  }

  /** A string of printable ASCII needs no escape: its bytes are its char codes. */
  private string(s: string): void {
    const len = s.length;
    this.reserve(len + 2);
    const b = this.buf;
    let n = this.n;
    b[n++] = 0x22;
    for (let i = 0; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return this.fallback(s);
      b[n++] = c;
    }
    b[n++] = 0x22;
    this.n = n;
  }

  /**
   * JSON writes a finite number as String(x). For an integer below 10²¹ that is its digits; for a
   * quantized time x = k/1000 (k an integer, |x| < 10⁹) it is k's digits with the decimal point
   * three places from the right and trailing zeros dropped: the doubles there lie closer than
   * 10⁻⁶ apart, so the only shortest decimal that rounds to x is k/1000 itself.
   */
  private number(x: number): void {
    if (!Number.isFinite(x)) return this.ascii('null');
    if (Number.isSafeInteger(x)) return this.digits(x);
    const k = Math.round(x * 1000);
    if (k / 1000 !== x || !(Math.abs(x) < QUANTIZED_MAX)) return this.ascii(String(x));
    let a = k;
    if (a < 0) {
      this.byte(0x2d); // -
      a = -a;
    }
    const whole = Math.floor(a / 1000);
    let frac = a - whole * 1000; // 1…999: x is not an integer
    let places = 3;
    while (frac % 10 === 0) {
      frac /= 10;
      places--;
    }
    this.digits(whole);
    this.reserve(4);
    const b = this.buf;
    let n = this.n;
    b[n++] = 0x2e; // .
    if (places === 3) {
      b[n++] = 0x30 + Math.floor(frac / 100);
      frac %= 100;
    }
    if (places >= 2) {
      b[n++] = 0x30 + Math.floor(frac / 10);
      frac %= 10;
    }
    b[n++] = 0x30 + frac;
    this.n = n;
  }

  /** A safe integer's decimal digits (-0 as 0, as JSON does). */
  private digits(x: number): void {
    if (x < 0) {
      this.byte(0x2d);
      x = -x;
    }
    if (x < 10) return this.byte(0x30 + x);
    if (x >= 0x80000000) return this.ascii(String(x));
    // Below 2³¹, digit by digit in int32 arithmetic: twice as fast as String(x) for ids and byte counts.
    let v = x | 0;
    let len = 1;
    for (let d = 10; v >= d && len < 10; d *= 10) len++;
    this.reserve(len);
    const b = this.buf;
    let end = this.n + len;
    this.n = end;
    do {
      const q = (v / 10) | 0;
      b[--end] = 0x30 + v - q * 10;
      v = q;
    } while (v > 0);
  }

  /** A string known to be ASCII. */
  private ascii(s: string): void {
    this.reserve(s.length);
    const b = this.buf;
    let n = this.n;
    for (let i = 0; i < s.length; i++) b[n++] = s.charCodeAt(i);
    this.n = n;
  }

  private fallback(v: unknown, skipKey?: string): void {
    let json: string;
    if (skipKey !== undefined && v !== null && typeof v === 'object' && skipKey in v) {
      const { [skipKey]: _skipped, ...rest } = v as Record<string, unknown>;
      json = JSON.stringify(rest);
    } else {
      json = JSON.stringify(v);
    }
    const bytes = encoder.encode(json);
    this.reserve(bytes.length);
    this.buf.set(bytes, this.n);
    this.n += bytes.length;
  }
}
