import { describe, expect, it } from 'vitest';
import { buildAppend, handleAppendEntries, handleInstallSnapshot } from './rules';
import { compactLog, entryAt, freshVolatile, lastIndex, lastTerm, termAt, type LogEntry, type RaftCore } from './state';

/** The compaction rules of §7 (Figure 13) and how the other rules read a compacted log. */

let uid = 0;
const entry = (term: number): LogEntry => ({ term, kind: 'noop', uid: ++uid });

function core(id: string, terms: number[], currentTerm: number): RaftCore {
  const peers = ['s0', 's1', 's2'].filter((p) => p !== id);
  return { id, peers, p: { currentTerm, votedFor: null, log: terms.map(entry), snapIndex: 0, snapTerm: 0 }, v: freshVolatile() };
}

describe('a compacted log', () => {
  it('keeps indices: lastIndex, lastTerm, termAt and entryAt read through the snapshot', () => {
    const s = core('s0', [1, 1, 2, 2, 3], 3);
    const fourth = s.p.log[3];
    compactLog(s.p, 3);
    expect([s.p.snapIndex, s.p.snapTerm, s.p.log.length]).toEqual([3, 2, 2]);
    expect([lastIndex(s.p), lastTerm(s.p)]).toEqual([5, 3]);
    expect([termAt(s.p, 2), termAt(s.p, 3), termAt(s.p, 4), termAt(s.p, 6)]).toEqual([undefined, 2, 2, undefined]);
    expect([entryAt(s.p, 3), entryAt(s.p, 4)]).toEqual([undefined, fourth]);
    compactLog(s.p, 5);
    expect([lastIndex(s.p), lastTerm(s.p), s.p.log.length]).toEqual([5, 3, 0]);
    expect(() => compactLog(s.p, 6)).toThrow(/past the log's end/);
  });

  it('a leader sends entries after its snapshot, and no AppendEntries where the follower needs what it compacted', () => {
    const s = core('s0', [1, 1, 1, 1], 1);
    s.v.role = 'leader';
    compactLog(s.p, 2);
    s.v.nextIndex.set('s1', 3);
    expect(buildAppend(s, 's1', 64)).toMatchObject({ prevLogIndex: 2, prevLogTerm: 1, entries: s.p.log });
    s.v.nextIndex.set('s1', 2);
    expect(buildAppend(s, 's1', 64)).toBeNull();
  });

  it('a follower with a snapshot accepts AppendEntries that start inside it, keeping only what follows', () => {
    const leader = core('s0', [1, 1, 1, 1, 1], 1);
    const f = core('s1', [], 1);
    f.p.log = leader.p.log.slice(0, 3);
    f.v.commitIndex = 3;
    compactLog(f.p, 3);
    const out = handleAppendEntries(f, { term: 1, leaderId: 's0', prevLogIndex: 1, prevLogTerm: 1, entries: leader.p.log.slice(1), leaderCommit: 5 });
    expect(out.reply).toMatchObject({ success: true, matchIndex: 5 });
    expect(out.stored).toEqual([4, 5]);
    expect(f.p.log).toEqual(leader.p.log.slice(3));
    // Entirely inside the snapshot: matched (committed), nothing stored.
    const old = handleAppendEntries(f, { term: 1, leaderId: 's0', prevLogIndex: 0, prevLogTerm: 0, entries: leader.p.log.slice(0, 2), leaderCommit: 5 });
    expect(old.reply).toMatchObject({ success: true, matchIndex: 2 });
    expect(old.stored).toEqual([]);
  });
});

describe('InstallSnapshot receiver (Figure 13)', () => {
  const req = (lastIncludedIndex: number, lastIncludedTerm: number, term = 3) => ({ term, leaderId: 's0', lastIncludedIndex, lastIncludedTerm });

  it('refuses an older term and installs nothing', () => {
    const f = core('s1', [1, 1], 4);
    const out = handleInstallSnapshot(f, req(5, 2, 3));
    expect(out).toMatchObject({ install: false, fromLeader: false, reply: { success: false, term: 4 } });
    expect(lastIndex(f.p)).toBe(2);
  });

  it('a snapshot of what it has committed changes nothing', () => {
    const f = core('s1', [1, 1, 1, 2], 3);
    f.v.commitIndex = 3;
    const out = handleInstallSnapshot(f, req(3, 1));
    expect(out).toMatchObject({ install: false, fromLeader: true, reply: { success: true, matchIndex: 3 } });
    expect([f.p.snapIndex, f.p.log.length]).toEqual([0, 4]);
  });

  it('holding the snapshot’s last entry, it keeps the entries after it', () => {
    const f = core('s1', [1, 1, 2, 2, 3], 3);
    const kept = f.p.log.slice(4);
    f.v.commitIndex = 1;
    const out = handleInstallSnapshot(f, req(4, 2));
    expect(out).toMatchObject({ install: true, discarded: [], reply: { success: true, matchIndex: 4, lastLogIndex: 5 } });
    expect([f.p.snapIndex, f.p.snapTerm, f.v.commitIndex, f.v.lastApplied]).toEqual([4, 2, 4, 4]);
    expect(f.p.log).toEqual(kept);
  });

  it('otherwise the whole log goes, and the uncommitted entries it lost are reported from the commit index on', () => {
    const f = core('s1', [1, 1, 2, 2, 2], 3);
    const uncommitted = f.p.log.slice(2);
    f.v.commitIndex = 2;
    f.v.role = 'candidate';
    const out = handleInstallSnapshot(f, req(6, 3));
    expect(out).toMatchObject({ install: true, discardedFrom: 3, reply: { success: true, matchIndex: 6, lastLogIndex: 6 } });
    expect(out.discarded).toEqual(uncommitted);
    expect([f.p.snapIndex, f.p.snapTerm, f.p.log.length, f.v.commitIndex, f.v.role, f.v.leaderId]).toEqual([6, 3, 0, 6, 'follower', 's0']);
  });
});
