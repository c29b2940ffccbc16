import { describe, expect, it } from 'vitest';
import {
  becomeLeader,
  epochOf,
  freshZabPersistent,
  freshZabVolatile,
  handleAck,
  handleCommit,
  handleEpochReply,
  handleNewEpoch,
  handleNewLeader,
  handleNewLeaderAck,
  handleProposal,
  handleSyncedAck,
  leaderPropose,
  startCandidacy,
  zxidHex,
  zxidOf,
  type Txn,
  type ZabCore,
} from './zab';

const server = (id: string, peers: string[]): ZabCore => ({ id, peers, p: freshZabPersistent(), v: freshZabVolatile() });
const cmd = (key: string) => ({ op: 'put' as const, key, value: 'v', opId: 0 });
let uid = 0;
const txn = (epoch: number, counter: number): Txn => ({ zxid: zxidOf(epoch, counter), term: epoch, cmd: cmd(`/k${counter}`), uid: ++uid });

/** A leader established over a quorum, with its followers synced. */
function cluster() {
  const [a, b, c] = [server('c0', ['c1', 'c2']), server('c1', ['c0', 'c2']), server('c2', ['c0', 'c1'])];
  const ne = startCandidacy(a);
  for (const f of [b, c]) {
    const r = handleNewEpoch(f, 'c0', ne, false);
    expect(r.ok).toBe(true);
    handleEpochReply(a, f.id, r);
  }
  const nl = becomeLeader(a);
  for (const f of [b, c]) expect(handleNewLeader(f, 'c0', nl).ok).toBe(true);
  handleNewLeaderAck(a, 'c1', nl.epoch);
  return { a, b, c, epoch: nl.epoch };
}

describe('Zab as guarded transitions', () => {
  it('zxid = (epoch, counter), printed as ZooKeeper does', () => {
    expect(epochOf(zxidOf(3, 7))).toBe(3);
    expect(zxidHex(zxidOf(1, 5))).toBe('0x100000005');
  });

  it('phase 1: an epoch is promised once, only to a candidate whose history is at least as new', () => {
    const f = server('c1', ['c0', 'c2']);
    f.p.currentEpoch = 2;
    f.p.history = [txn(2, 1)];
    // Older history (an older current epoch): refused, and nothing promised.
    expect(handleNewEpoch(f, 'c0', { epoch: 3, currentEpoch: 1, lastZxid: zxidOf(1, 9) }, false).ok).toBe(false);
    expect(f.p.acceptedEpoch).toBe(0);
    // Up to date: promised; the same epoch again (another candidate) is refused.
    expect(handleNewEpoch(f, 'c0', { epoch: 3, currentEpoch: 2, lastZxid: zxidOf(2, 1) }, false).ok).toBe(true);
    expect(f.p.acceptedEpoch).toBe(3);
    expect(handleNewEpoch(f, 'c2', { epoch: 3, currentEpoch: 2, lastZxid: zxidOf(2, 1) }, false).ok).toBe(false);
    // A server that follows a live leader does not help unseat it.
    const busy = server('c2', ['c0', 'c1']);
    expect(handleNewEpoch(busy, 'c0', { epoch: 9, currentEpoch: 0, lastZxid: 0 }, true)).toMatchObject({ ok: false });
  });

  it('phase 2: a follower adopts the leader history, truncating what it holds beyond it', () => {
    const f = server('c1', ['c0']);
    const shared = txn(1, 1);
    f.p.history = [shared, txn(1, 2)]; // (1,2) was never committed
    const out = handleNewLeader(f, 'c0', { epoch: 2, history: [shared, txn(2, 1)], committed: 1 });
    expect(out.ok).toBe(true);
    expect(out.truncated.map((t) => t.zxid)).toEqual([zxidOf(1, 2)]);
    expect(f.p.history.map((t) => t.zxid)).toEqual([zxidOf(1, 1), zxidOf(2, 1)]);
    expect(f.p.currentEpoch).toBe(2);
    expect(f.v.committed).toBe(1);
    // A leader of an epoch older than the one promised is refused.
    f.p.acceptedEpoch = 5;
    expect(handleNewLeader(f, 'c9', { epoch: 4, history: [], committed: 0 }).ok).toBe(false);
  });

  it('phase 3: proposals commit in zxid order once a quorum logged them', () => {
    const { a, b, epoch } = cluster();
    expect(a.v.established).toBe(true);
    const p1 = leaderPropose(a, cmd('/x'), ++uid);
    const p2 = leaderPropose(a, cmd('/y'), ++uid);
    expect(p2.txn.zxid).toBe(p1.txn.zxid + 1);
    expect(handleProposal(b, 'c0', p2)).toBe('gap'); // out of order: resync
    expect(handleProposal(b, 'c0', p1)).toBe('logged');
    expect(handleProposal(b, 'c0', p2)).toBe('logged');
    // The leader's own ACK alone is no quorum.
    expect(handleAck(a, 'c0', epoch, p1.index)).toBe(0);
    expect(handleAck(a, 'c0', epoch, p2.index)).toBe(0);
    expect(handleAck(a, 'c1', epoch, p1.index)).toBe(1);
    expect(handleAck(a, 'c1', epoch, p2.index)).toBe(2);
    handleCommit(b, 'c0', epoch, 2);
    expect(b.v.committed).toBe(2);
  });

  it("phase 3: a follower's ACK vouches for every earlier proposal, so one ACK lost to a cut does not stall commits", () => {
    const { a, b, epoch } = cluster();
    const p1 = leaderPropose(a, cmd('/x'), ++uid);
    const p2 = leaderPropose(a, cmd('/y'), ++uid);
    handleAck(a, 'c0', epoch, p1.index);
    handleAck(a, 'c0', epoch, p2.index);
    expect(handleProposal(b, 'c0', p1)).toBe('logged');
    expect(handleProposal(b, 'c0', p2)).toBe('logged');
    // c1's ACK of p1 is lost; its ACK of p2 (it logs in order) commits both, in zxid order.
    expect(a.v.committed).toBe(0);
    expect(handleAck(a, 'c1', epoch, p2.index)).toBe(2);
    // An ACK from another epoch counts for nothing.
    const p3 = leaderPropose(a, cmd('/z'), ++uid);
    handleAck(a, 'c0', epoch, p3.index);
    expect(handleAck(a, 'c1', epoch - 1, p3.index)).toBe(2);
  });

  it('a follower re-synced up to upTo acknowledges only what it holds, not the proposal after it', () => {
    const { a, epoch } = cluster();
    const before = a.p.history.length;
    const p = leaderPropose(a, cmd('/x'), ++uid);
    handleAck(a, 'c0', epoch, p.index);
    // c2's NEWLEADER ack names the history it took (before p): p has the leader's ACK only.
    expect(handleSyncedAck(a, 'c2', epoch, before)).toBe(before);
    expect(handleSyncedAck(a, 'c2', epoch, p.index)).toBe(p.index);
  });

  it('a proposal from another leader, or of another epoch, is ignored', () => {
    const { a, b, epoch } = cluster();
    const p = leaderPropose(a, cmd('/x'), ++uid);
    expect(handleProposal(b, 'c2', p)).toBe('ignored');
    expect(handleProposal(b, 'c0', { ...p, epoch: epoch + 1 })).toBe('ignored');
  });
});
