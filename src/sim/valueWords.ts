/**
 * The word format of CompactValues (compactValues.ts), and reading it back: what a value's words
 * mean, how a shape key parses, and the decoder that rebuilds values — the store's own, or a copy on
 * another thread (the hash worker and the export worker rebuild the history's lines from the words,
 * sim/historyRows.ts).
 */
import { Interner } from './interner';

/** Escapes in the word stream: a float64 follows in 2 words; a number with whole microseconds (k / 1000) in 1. */
export const ESC_F64 = -0x80000000;
export const ESC_MILLI = -0x7fffffff;
export const INT_MIN = -0x7ffffffd;
export const INT_MAX = 0x7fffffff;

/** A shape, parsed once: how to rebuild a value from the stream. */
export type Tpl =
  | { k: 'n' } // a number, in the stream
  | { k: 's' } // a string, its id in the stream
  | { k: 'c'; v: boolean | null | undefined } // a constant
  | { k: 'a' } // an array: its length in the stream, then each element as a value (shape id, words)
  | { k: 'o'; keys: string[]; vals: Tpl[] };

const NUM: Tpl = { k: 'n' };
const STR: Tpl = { k: 's' };
const ARR: Tpl = { k: 'a' };

export const f64 = new Float64Array(1);
export const i32 = new Int32Array(f64.buffer);

/** Words per chunk (a value never straddles two: its offset is chunk << SHIFT | position). */
export const SHIFT = 16;
export const CHUNK = 1 << SHIFT;

/** Where a store stood (`CompactValues.mark`): what a later `delta` starts from. */
export interface ValuesMark {
  strings: number;
  shapes: number;
  chunk: number;
  at: number;
}

/**
 * What a store took in since a mark, for a copy of its decoder on another thread: the new strings
 * and shape keys, in order, and the new words as pieces of chunks (a value's offset names its chunk
 * and its place there; a piece holds words from `at` on).
 */
export interface ValuesDelta {
  strings: string[];
  shapes: string[];
  pieces: Array<{ chunk: number; at: number; words: Int32Array }>;
}

/**
 * Rebuilds values from their words, given the shapes and strings the words refer to: a store's
 * own, or a copy on another thread that `learn`s each delta's (the hash worker rebuilds the
 * history's lines from these words, sim/historyRows.ts).
 */
export class ValueDecoder {
  readonly strings = new Interner();
  readonly shapes: Tpl[] = [];
  private words: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private pos = 0;

  learn(d: Pick<ValuesDelta, 'strings' | 'shapes'>): void {
    this.strings.learn(d.strings);
    for (const k of d.shapes) this.shapes.push(parseShape(k));
  }

  /** The value whose words start at `words[at]`, as a fresh object. */
  read(words: Int32Array, at: number): unknown {
    this.words = words;
    this.pos = at;
    return this.value();
  }

  /** The value at `offset` (as `CompactValues.add` returned it) in a delta's pieces. */
  readIn(pieces: ValuesDelta['pieces'], offset: number): unknown {
    const c = offset >>> SHIFT;
    const at = offset & (CHUNK - 1);
    for (const p of pieces) if (p.chunk === c && at >= p.at && at - p.at < p.words.length) return this.read(p.words, at - p.at);
    throw new RangeError(`compact values: no value at ${offset} in this delta`);
  }

  private value(): unknown {
    return this.build(this.shapes[this.words[this.pos++]]);
  }

  private build(t: Tpl): unknown {
    const w = this.words;
    switch (t.k) {
      case 'n': {
        const x = w[this.pos++];
        if (x === ESC_MILLI) return w[this.pos++] / 1000;
        if (x !== ESC_F64) return x;
        i32[0] = w[this.pos++];
        i32[1] = w[this.pos++];
        return f64[0];
      }
      case 's':
        return this.strings.at(w[this.pos++]);
      case 'c':
        return t.v;
      case 'a': {
        const len = w[this.pos++];
        const a = new Array<unknown>(len);
        for (let i = 0; i < len; i++) a[i] = this.value();
        return a;
      }
      case 'o': {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < t.keys.length; i++) o[t.keys[i]] = this.build(t.vals[i]);
        return o;
      }
    }
  }
}

/** Parses a shape key (`n s t f u z a` and `{"key":part,…}`) into its template. */
export function parseShape(key: string): Tpl {
  let i = 0;
  const part = (): Tpl => {
    const c = key[i++];
    switch (c) {
      case 'n':
        return NUM;
      case 's':
        return STR;
      case 'a':
        return ARR;
      case 't':
        return { k: 'c', v: true };
      case 'f':
        return { k: 'c', v: false };
      case 'z':
        return { k: 'c', v: null };
      case 'u':
        return { k: 'c', v: undefined };
      case '{': {
        const keys: string[] = [];
        const vals: Tpl[] = [];
        while (key[i] !== '}') {
          // A JSON string: up to the first quote not escaped by a backslash.
          let j = i + 1;
          while (key[j] !== '"') j += key[j] === '\\' ? 2 : 1;
          keys.push(JSON.parse(key.slice(i, j + 1)) as string);
          i = j + 2; // past the quote and the colon
          vals.push(part());
          i++; // the comma
        }
        i++;
        return { k: 'o', keys, vals };
      }
      default:
        throw new Error(`compact values: bad shape key at ${i - 1} in ${key}`);
    }
  };
  return part();
}
