import { VALUE } from './historyRows';
import { CHUNK, SHIFT } from './valueWords';

/**
 * A batch's value words laid out by shape for deflate (issue 9: a long run's memory). A node's
 * facts and a log's entries repeat one shape with a field or two changed (compactValues.ts): word
 * j of one fact is word j of the last one, or near it. Values of one shape and length form a
 * group; a group is written column by column, each word as the difference from the same word of
 * the group's value before. What no group covers — each value's first word (its shape), words
 * before a piece's first value — comes first, in order, so that reading back learns the groups
 * before their columns. A busy Raft run's words pack to less than half of what they did as they
 * were.
 *
 * Where each value starts and ends comes from the events' refs (a value runs to the next one in its
 * piece, or to the piece's end), so nothing is stored for it; refs that do not map cleanly onto the
 * pieces leave the words as they are, on both sides.
 */

/** A piece of a values delta as the layout needs it: its chunk, where it starts there, how many words it has. */
export interface PieceSpan {
  chunk: number;
  at: number;
  length: number;
}

/** Per value event in order: its piece, and where it starts and ends in the piece's words (triples); null if the refs do not fit the pieces. */
function valueSpans(where: Uint8Array, refs: Int32Array, pieces: readonly PieceSpan[]): Int32Array | null {
  const offsets: number[] = [];
  for (let i = 0; i < where.length; i++) if (where[i] === VALUE) offsets.push(refs[i]);
  const spans = new Int32Array(offsets.length * 3);
  let p = 0;
  for (let k = 0; k < offsets.length; k++) {
    const c = offsets[k] >>> SHIFT;
    const at = offsets[k] & (CHUNK - 1);
    while (p < pieces.length && !(pieces[p].chunk === c && at >= pieces[p].at && at < pieces[p].at + pieces[p].length)) p++;
    if (p === pieces.length) return null;
    const start = at - pieces[p].at;
    let end = pieces[p].length;
    if (k + 1 < offsets.length && offsets[k + 1] >>> SHIFT === c) {
      const next = (offsets[k + 1] & (CHUNK - 1)) - pieces[p].at;
      if (next <= start) return null;
      if (next < end) end = next;
    }
    spans.set([p, start, end], k * 3);
  }
  return spans;
}

/** Groups of values by shape and length, in order of first appearance: each a list of span indices. */
function groupsOf(spans: Int32Array, shapeAt: (piece: number, at: number) => number): number[][] {
  const groups = new Map<number, number[]>();
  for (let k = 0; k < spans.length / 3; k++) {
    const len = spans[k * 3 + 2] - spans[k * 3 + 1];
    if (len < 2) continue;
    const key = shapeAt(spans[k * 3], spans[k * 3 + 1]) * (CHUNK + 1) + len;
    const g = groups.get(key);
    if (g) g.push(k);
    else groups.set(key, [k]);
  }
  return [...groups.values()];
}

/** Per piece, which words a group covers (all of a value's but its first). */
function covered(spans: Int32Array, pieces: readonly PieceSpan[]): Uint8Array[] {
  const masks = pieces.map((p) => new Uint8Array(p.length));
  for (let k = 0; k < spans.length; k += 3) masks[spans[k]].fill(1, spans[k + 1] + 1, spans[k + 2]);
  return masks;
}

/** The pieces' words as one column laid out by shape (or as they are, where the refs do not fit the pieces). */
export function groupWords(where: Uint8Array, refs: Int32Array, pieces: ReadonlyArray<{ chunk: number; at: number; words: Int32Array }>): Int32Array {
  const out = new Int32Array(pieces.reduce((n, p) => n + p.words.length, 0));
  const geometry = pieces.map((p) => ({ chunk: p.chunk, at: p.at, length: p.words.length }));
  const spans = valueSpans(where, refs, geometry);
  let n = 0;
  if (!spans) {
    for (const p of pieces) {
      out.set(p.words, n);
      n += p.words.length;
    }
    return out;
  }
  const masks = covered(spans, geometry);
  pieces.forEach((p, i) => {
    const m = masks[i];
    for (let j = 0; j < p.words.length; j++) if (!m[j]) out[n++] = p.words[j];
  });
  for (const g of groupsOf(spans, (piece, at) => pieces[piece].words[at])) {
    const len = spans[g[0] * 3 + 2] - spans[g[0] * 3 + 1];
    for (let j = 1; j < len; j++) {
      let prev = 0;
      for (const k of g) {
        const x = pieces[spans[k * 3]].words[spans[k * 3 + 1] + j];
        out[n++] = (x - prev) | 0;
        prev = x;
      }
    }
  }
  return out;
}

/** Undoes groupWords: each piece's words. */
export function ungroupWords(where: Uint8Array, refs: Int32Array, geometry: readonly PieceSpan[], column: Int32Array): Int32Array[] {
  const words = geometry.map((p) => new Int32Array(p.length));
  const spans = valueSpans(where, refs, geometry);
  let n = 0;
  if (!spans) {
    for (const w of words) {
      w.set(column.subarray(n, n + w.length));
      n += w.length;
    }
    return words;
  }
  const masks = covered(spans, geometry);
  words.forEach((w, i) => {
    const m = masks[i];
    for (let j = 0; j < w.length; j++) if (!m[j]) w[j] = column[n++];
  });
  for (const g of groupsOf(spans, (piece, at) => words[piece][at])) {
    const len = spans[g[0] * 3 + 2] - spans[g[0] * 3 + 1];
    for (let j = 1; j < len; j++) {
      let prev = 0;
      for (const k of g) prev = words[spans[k * 3]][spans[k * 3 + 1] + j] = (prev + column[n++]) | 0;
    }
  }
  return words;
}
