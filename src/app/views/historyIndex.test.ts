import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../sim/types';
import { completeGroups, HistoryIndex, lastAtOrBefore, firstAtOrAfter, partitionGroupsAt } from './historyIndex';

const ev: HistoryEvent[] = [
  { t: 0, type: 'version', node: 'w0', version: 0, synced: 0, v: { hash: 'a' } },
  { t: 10, type: 'send', id: 1, from: 'w0', to: 'w1', kind: 'chunk', bytes: 40, due: 20 },
  { t: 12, type: 'send', id: 2, from: 'w1', to: 'w2', kind: 'chunk', bytes: 40, due: 25 },
  { t: 20, type: 'deliver', id: 1, from: 'w0', to: 'w1', kind: 'chunk', sentAt: 10 },
  { t: 21, type: 'deliver', id: 1, from: 'w0', to: 'w1', kind: 'chunk', sentAt: 10 }, // duplicate
  { t: 22, type: 'stepStart', node: 'w0', step: 1, version: 0, due: 222 },
  { t: 100, type: 'action', action: { do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] }, source: 'timeline' },
  { t: 101, type: 'drop', id: 2, from: 'w1', to: 'w2', kind: 'chunk', reason: 'partition', sentAt: 12 },
  { t: 150, type: 'crash', node: 'w3' },
  { t: 200, type: 'action', action: { do: 'cut', from: 'w0', to: 'w1' }, source: 'user' },
  { t: 250, type: 'metrics', v: { cluster: { steps: 12 }, nodes: { w0: { version: 3, loss: 0.5, accuracy: 0.8 } } } },
  { t: 300, type: 'action', action: { do: 'heal' }, source: 'user' },
  { t: 320, type: 'restart', node: 'w3' },
  { t: 400, type: 'action', action: { do: 'partition', groups: [['w3']] }, source: 'user' },
];

describe('HistoryIndex', () => {
  it('pairs sends with deliveries and drops, ignoring duplicate deliveries', () => {
    const ix = new HistoryIndex();
    ix.sync(ev);
    expect(ix.messages).toHaveLength(2);
    expect(ix.messages[0]).toMatchObject({ id: 1, end: 20, dropped: false });
    expect(ix.messages[1]).toMatchObject({ id: 2, end: 101, dropped: true });
    expect(ix.kinds).toEqual(['chunk']);
    expect(ix.dropsNear(150, 200).map((d) => d.id)).toEqual([2]);
    expect(ix.dropsNear(400, 200)).toEqual([]);
  });

  it('is incremental: syncing in pieces gives the same result as at once', () => {
    const a = new HistoryIndex();
    a.sync(ev);
    const b = new HistoryIndex();
    for (let i = 1; i <= ev.length; i++) b.sync(ev.slice(0, i));
    expect(b.messages).toEqual(a.messages);
    expect(b.partitions).toEqual(a.partitions);
    expect(b.cuts).toEqual(a.cuts);
    expect([...b.downs]).toEqual([...a.downs]);
  });

  it('derives partition periods, cuts (both directions) and down periods', () => {
    const ix = new HistoryIndex();
    ix.sync(ev);
    expect(ix.partitions.map((p) => [p.start, p.end])).toEqual([
      [100, 300],
      [400, null],
    ]);
    expect(ix.partitionAt(99)).toBeNull();
    expect(ix.partitionAt(100)?.groups).toEqual([['w0', 'w1'], ['w2', 'w3']]);
    expect(ix.partitionAt(300)).toBeNull();
    expect(ix.partitionAt(500)?.groups).toEqual([['w3']]);
    expect(ix.cuts.map((c) => `${c.from}>${c.to}:${c.start}-${c.end}`)).toEqual(['w0>w1:200-300', 'w1>w0:200-300']);
    expect(ix.downs.get('w3')).toEqual([{ start: 150, end: 320 }]);
  });

  it('finds samples and running steps at a time', () => {
    const ix = new HistoryIndex();
    ix.sync(ev);
    expect(ix.sampleAt('w0', 249)).toBeNull();
    expect(ix.sampleAt('w0', 1000)?.loss).toBe(0.5);
    expect(ix.stepAt('w0', 100)).toEqual({ t: 22, due: 222 });
    expect(ix.stepAt('w0', 222)).toBeNull();
  });
});

describe('partitionGroupsAt', () => {
  const all = ['w0', 'w1', 'w2', 'w3', 's0'];
  it('uses the latest partition or heal at or before t, unlisted nodes joining the first group', () => {
    expect(partitionGroupsAt(ev, 50, all)).toBeNull();
    expect(partitionGroupsAt(ev, 100, all)).toEqual([['w0', 'w1', 's0'], ['w2', 'w3']]);
    expect(partitionGroupsAt(ev, 300, all)).toBeNull();
    expect(partitionGroupsAt(ev, 400, all)).toEqual([['w3', 'w0', 'w1', 'w2', 's0']]);
  });
  it('completeGroups drops unknown ids and empty groups', () => {
    expect(completeGroups([['w9'], ['w1']], ['w0', 'w1'])).toEqual([['w0'], ['w1']]);
  });
});

describe('binary search helpers', () => {
  const a = [1, 3, 3, 7];
  it('lastAtOrBefore / firstAtOrAfter', () => {
    expect(lastAtOrBefore(a, 0, (x) => x)).toBe(-1);
    expect(lastAtOrBefore(a, 3, (x) => x)).toBe(2);
    expect(lastAtOrBefore(a, 9, (x) => x)).toBe(3);
    expect(firstAtOrAfter(a, 3, (x) => x)).toBe(1);
    expect(firstAtOrAfter(a, 8, (x) => x)).toBe(4);
  });
});
