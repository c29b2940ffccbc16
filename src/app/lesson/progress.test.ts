import { describe, expect, it } from 'vitest';
import type { Act } from '../../scenario/lesson';
import { clearProgress, fractionSeen, loadProgress, PROGRESS_KEY, recordProgress, withStep } from './progress';

const text = { en: 'x', zh: 'x' };
const acts: Act[] = [
  { id: 'one', title: text, show: ['base'], steps: [{ id: 'N1', when: { at: 0 }, text }, { id: 'N2', when: { at: 1 }, text }] },
  { id: 'two', title: text, show: ['base'], steps: [{ id: 'M1', when: { at: 0 }, text }] },
];

function memory(): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
    clear: () => data.clear(),
    key: () => null,
    length: 0,
  };
}

describe('progress in this browser', () => {
  it('collects the steps seen, the answers, where to resume, and completion at the last step', () => {
    let p = withStep(undefined, acts, { act: 0, step: 0 });
    expect(p).toEqual({ seen: ['one.N1'], total: 3, answers: {}, last: 'one.1', done: false });
    p = withStep(p, acts, { act: 0, step: 1 }, { 'one.N2': 2 });
    p = withStep(p, acts, { act: 0, step: 0 });
    expect(fractionSeen(p)).toBeCloseTo(2 / 3);
    expect(p.last).toBe('one.1');
    p = withStep(p, acts, { act: 1, step: 0 });
    expect(p).toMatchObject({ answers: { 'one.N2': 2 }, last: 'two.1', done: true });
    expect(fractionSeen(p)).toBe(1);
    // Going back does not undo having finished.
    expect(withStep(p, acts, { act: 0, step: 0 }).done).toBe(true);
  });

  it('round-trips through storage, drops what does not parse, and survives a storage that refuses', () => {
    const s = memory();
    recordProgress('cap-partition-choice', acts, { act: 0, step: 1 }, { 'one.N2': 1 }, s);
    expect(loadProgress(s)).toEqual({ 'cap-partition-choice': { seen: ['one.N2'], total: 3, answers: { 'one.N2': 1 }, last: 'one.2', done: false } });
    s.data.set(PROGRESS_KEY, JSON.stringify({ a: { seen: 'x' }, b: withStep(undefined, acts, { act: 1, step: 0 }) }));
    expect(Object.keys(loadProgress(s))).toEqual(['b']);
    s.data.set(PROGRESS_KEY, '{not json');
    expect(loadProgress(s)).toEqual({});
    const refusing = { ...memory(), setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(() => recordProgress('x', acts, { act: 0, step: 0 }, undefined, refusing)).not.toThrow();
    clearProgress(s);
    expect(loadProgress(s)).toEqual({});
  });
});
