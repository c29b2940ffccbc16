import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RaftObserver } from './observer';
import { updateKey } from '../paramMachine';
import { majority, type LogEntry } from './state';

/**
 * lostUpdates is kept incrementally (holders per update, adjusted on store / truncate / ack). The
 * reference is the definition it replaced: every acknowledged update, counted when fewer than a
 * majority of the servers' logs hold a copy — recomputed from the logs after every step.
 */
function lostByDefinition(logs: Map<string, LogEntry[]>, acked: ReadonlySet<string>): number {
  const need = majority(logs.size);
  let lost = 0;
  for (const key of acked) {
    let n = 0;
    for (const log of logs.values()) if (log.some((e) => e.kind === 'update' && updateKey(e.worker!, e.seq!) === key)) n++;
    if (n < need) lost++;
  }
  return lost;
}

type Op =
  | { op: 'store'; server: number; worker: number; seq: number; noop: boolean }
  | { op: 'truncate'; server: number; keep: number }
  | { op: 'ack'; worker: number; seq: number };

// Few workers and sequence numbers, so that the same update lands on many logs, twice on one log
// (a retry appended again) and is acknowledged more than once.
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('store' as const), server: fc.nat(4), worker: fc.nat(2), seq: fc.integer({ min: 1, max: 4 }), noop: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('truncate' as const), server: fc.nat(4), keep: fc.nat(8) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('ack' as const), worker: fc.nat(2), seq: fc.integer({ min: 1, max: 4 }) }) },
);

describe('RaftObserver.lostUpdates (incremental)', () => {
  it('equals the count recomputed from every log after each store, truncation and acknowledgement', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(opArb, { maxLength: 120 }), (n, ops) => {
        const servers = Array.from({ length: n }, (_, i) => `s${i}`);
        const obs = new RaftObserver(servers);
        const logs = new Map(servers.map((s) => [s, [] as LogEntry[]]));
        let term = 1;
        let uid = 0;
        for (const o of ops) {
          if (o.op === 'ack') {
            obs.ack(`w${o.worker}`, o.seq);
          } else {
            const s = servers[o.server % n];
            const log = logs.get(s)!;
            if (o.op === 'store') {
              const e: LogEntry = o.noop ? { term: term++, kind: 'noop', uid: ++uid } : { term: term++, kind: 'update', worker: `w${o.worker}`, seq: o.seq, uid: ++uid };
              log.push(e);
              obs.stored(s, e);
            } else {
              const removed = log.splice(Math.min(o.keep, log.length));
              obs.truncated(s, removed);
            }
          }
          expect(obs.lostUpdates()).toBe(lostByDefinition(logs, obs.ackedKeys()));
        }
      }),
      { numRuns: 300, seed: 9 },
    );
  });

  it('counts an update acknowledged before any server stores it, until a majority holds it', () => {
    const obs = new RaftObserver(['a', 'b', 'c']);
    const logs = { a: [] as LogEntry[], b: [] as LogEntry[] };
    obs.ack('w0', 1);
    expect(obs.lostUpdates()).toBe(1);
    logs.a.push({ term: 1, kind: 'update', worker: 'w0', seq: 1, uid: 1 });
    obs.stored('a', logs.a[0]);
    expect(obs.lostUpdates()).toBe(1);
    logs.b.push({ term: 1, kind: 'update', worker: 'w0', seq: 1, uid: 2 });
    obs.stored('b', logs.b[0]);
    expect(obs.lostUpdates()).toBe(0);
    obs.truncated('b', logs.b.splice(0));
    expect(obs.lostUpdates()).toBe(1);
  });

  it('keeps its counts for sequence numbers of any size, and duplicates per server until a crash', () => {
    const obs = new RaftObserver(['a']);
    for (const seq of [1, 2 ** 25, 2.5, -3]) {
      const e: LogEntry = { term: 1, kind: 'update', worker: 'w0', seq, uid: seq };
      obs.ack('w0', seq);
      expect(obs.lostUpdates()).toBe(1);
      obs.stored('a', e);
      expect(obs.lostUpdates()).toBe(0);
      obs.effectiveUpdate('a', 'w0', seq);
      obs.effectiveUpdate('a', 'w0', seq);
      obs.truncated('a', [e]);
      expect(obs.lostUpdates()).toBe(1);
      obs.stored('a', e);
      expect(obs.lostUpdates()).toBe(0);
    }
    expect(obs.duplicateUpdates()).toBe(4);
    obs.serverCrashed('a');
    obs.effectiveUpdate('a', 'w0', 1);
    expect(obs.duplicateUpdates()).toBe(4);
  });
});
