import { describe, expect, it } from 'vitest';
import { clipText, wrapItems } from './fitText';
import { textWidth } from './hooks';

describe('clipText', () => {
  it('leaves a line that fits as it is', () => {
    expect(clipText('leader s0 · voted for s0', 500, 12)).toBe('leader s0 · voted for s0');
  });

  it('cuts a long line back to a whole item or word and ends it with an ellipsis that fits', () => {
    const text = 'leader c0 · zxid 0x100000037 · lock: w3, token 0x100000031, 3 queued';
    const out = clipText(text, 210, 12);
    expect(out.endsWith('…')).toBe(true);
    expect(textWidth(out, 12)).toBeLessThanOrEqual(210);
    expect(text.startsWith(out.slice(0, -1))).toBe(true);
    expect(out).toBe('leader c0 · zxid 0x100000037…'); // whole items: never half a token
    expect(clipText(text, 150, 12)).toBe('leader c0…');
    expect(clipText('offset 83 lag 69 replaying', 100, 12)).toBe('offset 83 lag…');
  });

  it('counts a CJK character as a full em, and scales the estimate by what the caller measured', () => {
    const zh = '领导者 s1 · 投票给 s1';
    expect(clipText(zh, textWidth(zh, 12), 12)).toBe(zh);
    expect(clipText(zh, textWidth(zh, 12), 12, 1.1).endsWith('…')).toBe(true);
  });

  it('gives nothing rather than a lone ellipsis where no word fits', () => {
    expect(clipText('ISR {b0, b1, b2}', 8, 12)).toBe('');
  });
});

describe('wrapItems', () => {
  const facts = 'leader c0 · zxid 0x100000037 · lock: w3, token 0x100000031, 3 queued';
  it('keeps a line that fits on the first', () => {
    expect(wrapItems(facts, 1000, 1000, 12)).toEqual([facts, '']);
  });
  it('moves whole items that do not fit to the second line', () => {
    expect(wrapItems(facts, 220, 400, 12)).toEqual(['leader c0 · zxid 0x100000037', 'lock: w3, token 0x100000031, 3 queued']);
  });
  it('clips the second where even it is short, and a first item too long for the first', () => {
    const [a, b] = wrapItems(facts, 220, 150, 12);
    expect(a).toBe('leader c0 · zxid 0x100000037');
    expect(b.endsWith('…')).toBe(true);
    expect(wrapItems('lock: w3, token 0x100000031', 80, 400, 12)[0]).toBe('lock: w3…');
  });
});
