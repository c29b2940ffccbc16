import { describe, expect, it } from 'vitest';
import { loadOnce } from './loadOnce';

describe('loadOnce', () => {
  it('fetches a key once, shares the request, and reads what arrived', async () => {
    const calls: string[] = [];
    const m = loadOnce(async (k: string) => {
      calls.push(k);
      return k.toUpperCase();
    });
    expect(m.get('a')).toBeUndefined();
    const [p, q] = [m.load('a'), m.load('a')];
    expect(p).toBe(q);
    await p;
    await m.load('a');
    expect(calls).toEqual(['a']);
    expect(m.get('a')).toBe('A');
    expect(m.get('b')).toBeUndefined();
  });

  it('tries a failed fetch again on the next call', async () => {
    let fail = true;
    let calls = 0;
    const m = loadOnce(async (k: string) => {
      calls++;
      if (fail) throw new Error(`offline: ${k}`);
      return 1;
    });
    await expect(m.load('x')).rejects.toThrow('offline: x');
    expect(m.get('x')).toBeUndefined();
    fail = false;
    await m.load('x');
    expect(m.get('x')).toBe(1);
    expect(calls).toBe(2);
  });
});
