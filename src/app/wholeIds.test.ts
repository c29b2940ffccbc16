import { describe, expect, it } from 'vitest';
import { leftOutNotes } from './editNotes';
import { wholeIds } from './wholeIds';

describe('wholeIds', () => {
  it('marks the ids with hyphens in a notice as whole parts and leaves the text as it was', () => {
    const text = leftOutNotes('zh', { cause: 'strategy', pruned: 0, droppedVariants: ['local-reads', 'ps4-large'], droppedLesson: false, droppedChecks: [], droppedCheckCount: 0 }).join('');
    const parts = wholeIds(text);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.filter((p) => p.id).map((p) => p.text)).toEqual(['local-reads', 'ps4-large']);
  });

  it('keeps words without a hyphen, and a hyphen between spaces, in the running text', () => {
    expect(wholeIds('maxCommitGapMs, staleReads — a-b')).toEqual([
      { text: 'maxCommitGapMs, staleReads — ', id: false },
      { text: 'a-b', id: true },
    ]);
    expect(wholeIds('expect[2].variant "fast-ring" is unknown')).toEqual([
      { text: 'expect[2].variant "', id: false },
      { text: 'fast-ring', id: true },
      { text: '" is unknown', id: false },
    ]);
    expect(wholeIds('')).toEqual([]);
  });
});
