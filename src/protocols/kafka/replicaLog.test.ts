import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReplicaLog } from './replicaLog';
import { epochCacheOf } from './rules';
import { keyOf, type Rec } from './types';

const rec = (epoch: number, pid: string, seq: number): Rec => ({ epoch, pid, seq, worker: 'w0', grad: new Float32Array(0), basedOn: 0 });

/** What the indexes must equal: a scan of the records. */
function scanned(log: ReplicaLog) {
  const last = new Map<string, number>();
  const copies = new Map<string, number>();
  log.records.forEach((r, i) => {
    last.set(keyOf(r), i);
    copies.set(keyOf(r), (copies.get(keyOf(r)) ?? 0) + 1);
  });
  return { cache: epochCacheOf(log.records.map((r) => r.epoch)), last, copies };
}

describe('a replica log keeps its leader-epoch cache and producer index as records come and go', () => {
  it('property: after any appends and truncations, the indexes equal a scan of the records', () => {
    const op = fc.oneof(
      fc.record({ append: fc.tuple(fc.nat(3), fc.constantFrom('a.0', 'b.0'), fc.nat(4)) }),
      fc.record({ truncate: fc.nat(12) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const log = new ReplicaLog();
        const heard: string[] = [];
        log.listener = { appended: (r) => heard.push(`+${keyOf(r)}`), removed: (r) => heard.push(`-${keyOf(r)}`) };
        const expectHeard: string[] = [];
        for (const o of ops) {
          if ('append' in o) {
            const [epoch, pid, seq] = o.append;
            log.append(rec(epoch, pid, seq));
            expectHeard.push(`+${pid}#${seq}`);
          } else {
            for (let i = log.records.length - 1; i >= o.truncate; i--) expectHeard.push(`-${keyOf(log.records[i])}`);
            log.truncate(o.truncate);
          }
          const s = scanned(log);
          expect({ runs: log.runs, leo: log.leo }).toEqual(s.cache);
          for (const pid of ['a.0', 'b.0'])
            for (let seq = 0; seq <= 4; seq++) {
              expect(log.lastOffsetOf(pid, seq)).toBe(s.last.get(`${pid}#${seq}`) ?? -1);
              expect(log.copies(`${pid}#${seq}`)).toBe(s.copies.get(`${pid}#${seq}`) ?? 0);
            }
          expect(log.lastEpoch).toBe(log.records.length ? log.records[log.records.length - 1].epoch : -1);
        }
        expect(heard).toEqual(expectHeard);
      }),
    );
  });

  it('truncates in place: the records array keeps its identity (the engine diffs logs by identity)', () => {
    const log = new ReplicaLog();
    const records = log.records;
    for (let i = 0; i < 5; i++) log.append(rec(0, 'a.0', i));
    const kept = records[1];
    log.truncate(2);
    log.append(rec(1, 'b.0', 0));
    expect(log.records).toBe(records);
    expect(records[1]).toBe(kept);
    expect(records.map((r) => r.epoch)).toEqual([0, 0, 1]);
  });
});
