import { describe, expect, it } from 'vitest';
import { sameAction, tryMatchesEntry } from './actionMatch';

describe('sameAction: is the learner doing exactly what the script does?', () => {
  const nodes = ['w0', 'w1', 'w2', 'w3', 's0'];
  const scripted = { do: 'partition' as const, groups: [['w0', 'w1'], ['w2', 'w3']] };
  it('partitions compare as sets of groups, unlisted nodes joining the first', () => {
    expect(sameAction(scripted, { do: 'partition', groups: [['w3', 'w2'], ['w1', 'w0', 's0']] }, nodes)).toBe(true);
    expect(sameAction(scripted, { do: 'partition', groups: [['w0', 'w1', 's0'], ['w2', 'w3']] }, nodes)).toBe(true);
    // s0 on the other side is another partition.
    expect(sameAction(scripted, { do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3', 's0']] }, nodes)).toBe(false);
    expect(sameAction(scripted, { do: 'partition', groups: [['w0'], ['w1', 'w2', 'w3']] }, nodes)).toBe(false);
  });
  it('other actions field by field; an absent oneWay is false; the kind must match', () => {
    expect(sameAction({ do: 'cut', from: 'w1', to: 'w2' }, { do: 'cut', from: 'w1', to: 'w2', oneWay: false }, nodes)).toBe(true);
    expect(sameAction({ do: 'cut', from: 'w1', to: 'w2' }, { do: 'cut', from: 'w2', to: 'w1' }, nodes)).toBe(false);
    expect(sameAction({ do: 'cut', from: 'w1', to: 'w2' }, { do: 'cut', from: 'w1', to: 'w2', oneWay: true }, nodes)).toBe(false);
    expect(sameAction({ do: 'slow', node: 'w2', factor: 4 }, { do: 'slow', node: 'w2', factor: 2 }, nodes)).toBe(false);
    expect(sameAction({ do: 'heal' }, { do: 'heal' }, nodes)).toBe(true);
    expect(sameAction({ do: 'heal' }, { do: 'crash', node: 'w1' }, nodes)).toBe(false);
  });
  it('a selector matches the node it resolves to at the wait', () => {
    const leader = (s: string) => (s === '@leader' ? ['s1'] : []);
    expect(sameAction({ do: 'crash', node: '@leader' }, { do: 'crash', node: 's1' }, nodes, leader)).toBe(true);
    expect(sameAction({ do: 'crash', node: '@leader' }, { do: 'crash', node: 's2' }, nodes, leader)).toBe(false);
  });
});

describe('tryMatchesEntry: a step\u2019s try against a timeline entry', () => {
  it('ignores when it fires, who applied it and interactive; every other field must agree', () => {
    const cut = { do: 'cut', from: 'w1', to: 'w2', oneWay: true };
    expect(tryMatchesEntry(cut, { at: 9000, ...cut, interactive: true })).toBe(true);
    expect(tryMatchesEntry(cut, { on: { event: 'commit' }, by: 'user', ...cut })).toBe(true);
    expect(tryMatchesEntry(cut, { at: 9000, do: 'cut', from: 'w1', to: 'w2' })).toBe(false); // oneWay missing
    expect(tryMatchesEntry(cut, { at: 9000, ...cut, to: 'w3' })).toBe(false);
    expect(tryMatchesEntry({ do: 'heal' }, { at: 1, do: 'heal', extra: 1 })).toBe(false);
  });
  it('fields compare whatever order they were written in', () => {
    expect(tryMatchesEntry({ do: 'network', latencyMs: 5, jitterMs: 1 }, { jitterMs: 1, at: 1, latencyMs: 5, do: 'network' })).toBe(true);
    expect(tryMatchesEntry({ do: 'network', latencyMs: 5, jitterMs: 1 }, { jitterMs: 2, at: 1, latencyMs: 5, do: 'network' })).toBe(false);
  });
  it('partition groups compare as sets, as the engine applies them', () => {
    const p = { do: 'partition', groups: [['w0', 'w1'], ['w2']] };
    expect(tryMatchesEntry(p, { at: 5, do: 'partition', groups: [['w2'], ['w1', 'w0']] })).toBe(true);
    expect(tryMatchesEntry(p, { at: 5, do: 'partition', groups: [['w0', 'w1']] })).toBe(false);
    expect(tryMatchesEntry(p, { at: 5, do: 'partition', groups: [['w0'], ['w1', 'w2']] })).toBe(false);
  });
});
