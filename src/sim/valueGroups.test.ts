import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGE, VALUE } from './historyRows';
import { groupWords, ungroupWords } from './valueGroups';
import { SHIFT } from './valueWords';

type Piece = { chunk: number; at: number; words: Int32Array };
const geometry = (ps: Piece[]) => ps.map((p) => ({ chunk: p.chunk, at: p.at, length: p.words.length }));

/** Pieces holding values of the given lengths, one after another (a new chunk where `newChunk`), and the events' where and refs. */
function laidOut(values: Array<{ words: number[]; newChunk: boolean }>, lead: number) {
  const pieces: Piece[] = [];
  const where: number[] = [];
  const refs: number[] = [];
  let cur: { chunk: number; at: number; words: number[] } = { chunk: 3, at: 100, words: Array.from({ length: lead }, (_, i) => 7 * i) };
  for (const v of values) {
    if (v.newChunk && cur.words.length > 0) {
      pieces.push({ chunk: cur.chunk, at: cur.at, words: Int32Array.from(cur.words) });
      cur = { chunk: cur.chunk + 1, at: 0, words: [] };
    }
    where.push(MESSAGE);
    refs.push(5);
    where.push(VALUE);
    refs.push((cur.chunk << SHIFT) | (cur.at + cur.words.length));
    cur.words.push(...v.words);
  }
  pieces.push({ chunk: cur.chunk, at: cur.at, words: Int32Array.from(cur.words) });
  return { pieces, where: Uint8Array.from(where), refs: Int32Array.from(refs) };
}

describe('valueGroups: value words laid out by shape', () => {
  const value = fc.record({
    words: fc.oneof(
      fc.tuple(fc.constantFrom(1, 2), fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { minLength: 0, maxLength: 6 })).map(([shape, rest]) => [shape, ...rest]),
      fc.tuple(fc.constant(9), fc.integer({ min: 0, max: 3 }), fc.integer()).map(([s, a, b]) => [s, a, b]),
    ),
    newChunk: fc.boolean(),
  });

  it('gives back every piece, word for word, whatever the values, their chunks and the words before the first', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 40 }), fc.nat(4), (values, lead) => {
        const { pieces, where, refs } = laidOut(values, lead);
        const col = groupWords(where, refs, pieces);
        expect(col.length).toBe(pieces.reduce((n, p) => n + p.words.length, 0));
        expect(ungroupWords(where, refs, geometry(pieces), col).map((w) => Array.from(w))).toEqual(pieces.map((p) => Array.from(p.words)));
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  it('writes a repeated shape as its first value and then zeros', () => {
    const { pieces, where, refs } = laidOut(Array.from({ length: 50 }, () => ({ words: [4, 10, -3, 99], newChunk: false })), 0);
    const col = Array.from(groupWords(where, refs, pieces));
    expect(col.slice(0, 50)).toEqual(Array(50).fill(4)); // the shapes first
    expect(col.filter((x) => x !== 0).length).toBe(50 + 3);
  });

  it('leaves the words as they are where the refs do not fit the pieces, and reads them back the same', () => {
    const { pieces, where } = laidOut([{ words: [1, 2, 3], newChunk: false }, { words: [1, 5, 6], newChunk: false }], 0);
    const refs = Int32Array.from([5, (3 << SHIFT) | 103, 5, (3 << SHIFT) | 100]); // out of order
    const col = groupWords(where, refs, pieces);
    expect(Array.from(col)).toEqual([1, 2, 3, 1, 5, 6]);
    expect(Array.from(ungroupWords(where, refs, geometry(pieces), col)[0])).toEqual([1, 2, 3, 1, 5, 6]);
  });
});
