import type { NodeId } from '../../sim/types';
import { RaftChecker } from './invariants';
import type { RaftGroupConfig, RaftHooks, RaftIo } from './port';
import type { RaftRpc } from './messages';
import { followerAnswered, queueRead, serveReads } from './requests';
import { advanceCommit, buildAppend, type AppendReply, handleAppendEntries, handleAppendReply, handleInstallSnapshot, leaderAppend, probeAppend } from './rules';
import { freshServerX, type RaftServer } from './server';
import { compactLog, entryAt, freshPersistent, freshVolatile, lastIndex, termAt, type RaftEntry } from './state';

/**
 * The log half of a Raft group (group.ts builds elections and dispatch on it): the servers and
 * their observer, AppendEntries with one entry-carrying request in flight per follower, modelled
 * fsync, commit, applying in order, log compaction with InstallSnapshot (§7), and ReadIndex /
 * lease reads (thesis §6.4). Decisions are the pure rules of rules.ts and requests.ts; the
 * election timer and stepping down are the group's.
 */

/** Entries per AppendEntries, so a follower far behind catches up in bounded messages. */
const MAX_ENTRIES = 64;

/** The `fsync` timer's data: a follower's held answer, or a leader's own write of up to `upTo`. */
export type FsyncDone<E extends RaftEntry> = { upTo: number } & ({ to: NodeId; reply: RaftRpc<E> } | { term: number });

export abstract class RaftReplication<E extends RaftEntry, M> {
  readonly servers = new Map<NodeId, RaftServer<E, M>>();
  readonly checker = new RaftChecker();
  // Observer bookkeeping (identities for the checks, metrics), never read by the protocol.
  private uidSeq = 0;
  protected readonly overwritten = new Map<NodeId, number>();

  constructor(
    protected readonly io: RaftIo,
    ids: readonly NodeId[],
    protected readonly cfg: RaftGroupConfig,
    protected readonly hooks: RaftHooks<E, M>,
  ) {
    for (const id of ids) {
      const peers = ids.filter((p) => p !== id);
      this.servers.set(id, { id, peers, p: freshPersistent<E>(), v: freshVolatile(), x: freshServerX(hooks.machine()), snap: null, rng: io.rng(`election:${id}`) });
    }
  }

  get(id: NodeId): RaftServer<E, M> | undefined {
    return this.servers.get(id);
  }

  /** A fresh randomised election deadline (the group's election timer). */
  protected abstract resetElectionTimer(s: RaftServer<E, M>): void;
  /** Called whenever a leader became a follower (higher term seen, or CheckQuorum). */
  protected abstract steppedDown(s: RaftServer<E, M>, from?: NodeId): void;

  protected newEntry(e: Omit<E, 'uid'>): E {
    // Not `{ ...e, uid }`: V8's spread at this site (updates, reads, no-ops: a polymorphic one) gave
    // every entry a hidden class of its own — ~0.5 MB per simulated minute of a busy run's heap.
    // Object.assign takes the cached transitions; the keys keep their order (uid last).
    return Object.assign({}, e, { uid: ++this.uidSeq }) as E;
  }

  protected get minTimeout(): number {
    return this.cfg.electionTimeoutMs[0];
  }

  private get fsyncMs(): number {
    return this.cfg.fsyncMs ?? 0;
  }

  // ================================================================ replication

  /** Observer: `s` wrote the entry at `index` (log matching check, the owner's bookkeeping). */
  protected stored(s: RaftServer<E, M>, index: number): void {
    this.checker.stored(s.id, s.p, index);
    this.hooks.stored?.(s, entryAt(s.p, index)!);
  }

  /**
   * Sends AppendEntries from nextIndex. One entry-carrying request is in flight per follower;
   * `replicate` waits for it, a `heartbeat` goes anyway (empty while that request is young, or
   * carrying the entries again if it is older than a heartbeat interval and presumed lost). A
   * follower that needs entries this leader compacted gets the snapshot instead, which stays in
   * flight until the follower answers anything: meanwhile heartbeats probe at the log's start, and
   * a down follower is not sent the snapshot again and again (etcd pauses such a follower too).
   */
  protected sendAppend(s: RaftServer<E, M>, peer: NodeId, why: 'replicate' | 'heartbeat'): void {
    const now = this.io.now();
    const inf = s.x.inflight.get(peer);
    const busy = inf !== undefined && (inf.snap === true || now - inf.at < this.cfg.heartbeatMs);
    if (why === 'replicate' && busy) return;
    const ae = buildAppend(s, peer, busy ? 0 : MAX_ENTRIES) ?? (busy ? probeAppend(s) : null);
    if (!ae) return this.sendSnapshot(s, peer, now);
    const id = ++s.x.aeSeq;
    if (ae.entries.length) s.x.inflight.set(peer, { id, at: now });
    let bytes = 0;
    for (const e of ae.entries) bytes += this.hooks.entryBytes(e);
    this.io.send(s.id, peer, 'append', { t: 'ae', ...ae, id, round: s.x.round, sentAt: now } satisfies RaftRpc<E>, bytes);
  }

  /** The follower needs entries this leader has compacted: its snapshot goes instead (§7), in flight like entries. */
  private sendSnapshot(s: RaftServer<E, M>, peer: NodeId, now: number): void {
    const snap = s.snap!; // the log was compacted only after a snapshot covered it
    const id = ++s.x.aeSeq;
    s.x.inflight.set(peer, { id, at: now, snap: true });
    const rpc: RaftRpc<E> = {
      t: 'is',
      term: s.p.currentTerm,
      leaderId: s.id,
      lastIncludedIndex: snap.index,
      lastIncludedTerm: snap.term,
      data: snap.machine,
      id,
      round: s.x.round,
      sentAt: now,
    };
    this.io.send(s.id, peer, 'snapshot', rpc, this.hooks.snapshotBytes?.(snap.machine) ?? 0);
  }

  protected onInstallSnapshot(s: RaftServer<E, M>, from: NodeId, m: Extract<RaftRpc<E>, { t: 'is' }>): void {
    const wasLeader = s.v.role === 'leader';
    const out = handleInstallSnapshot<E>(s, m);
    this.heardFrom(s, from, wasLeader, out.fromLeader);
    if (out.install) {
      // Of the uncommitted entries the log lost, those that are the committed ones live on in the snapshot.
      const at = (k: number) => out.discardedFrom + k;
      const lost = out.discarded.filter((e, k) => at(k) > m.lastIncludedIndex || this.checker.committedUid(at(k)) !== e.uid);
      if (lost.length) this.overwrote(s, at(out.discarded.indexOf(lost[0])), lost);
      s.snap = { index: m.lastIncludedIndex, term: m.lastIncludedTerm, machine: m.data as M };
      s.x.sm = this.hooks.cloneMachine!(s.snap.machine);
      this.io.note('snapshotInstalled', s.id, { index: m.lastIncludedIndex, from });
    }
    // The snapshot reaches the disk before the follower says it holds it.
    this.answer(s, from, m, out.reply, out.install);
  }

  private replicate(s: RaftServer<E, M>): void {
    for (const peer of s.peers) this.sendAppend(s, peer, 'replicate');
  }

  protected heartbeat(s: RaftServer<E, M>): void {
    for (const peer of s.peers) this.sendAppend(s, peer, 'heartbeat');
  }

  protected onAppendEntries(s: RaftServer<E, M>, from: NodeId, m: Extract<RaftRpc<E>, { t: 'ae' }>): void {
    const wasLeader = s.v.role === 'leader';
    const out = handleAppendEntries(s, m);
    this.heardFrom(s, from, wasLeader, out.fromLeader);
    if (out.truncated.length) this.overwrote(s, out.stored[0], out.truncated);
    for (const i of out.stored) this.stored(s, i);
    if (s.v.commitIndex > out.commitBefore) this.committed(s, out.commitBefore);
    // New entries reach the disk before the follower says it holds them (Raft's persistence rule).
    this.answer(s, from, m, out.reply, out.stored.length > 0);
  }

  /** After AppendEntries or InstallSnapshot: a leader that met a newer term stepped down; a current leader's message resets the timer. */
  private heardFrom(s: RaftServer<E, M>, from: NodeId, wasLeader: boolean, fromLeader: boolean): void {
    if (wasLeader && s.v.role !== 'leader') this.steppedDown(s, from);
    if (!fromLeader) return;
    s.x.lastHeardLeader = this.io.now();
    s.x.preVotes = null;
    this.resetElectionTimer(s);
  }

  /** Uncommitted entries from `index` on left `s`'s log (conflict truncation, or a snapshot installed over them). */
  private overwrote(s: RaftServer<E, M>, index: number, removed: E[]): void {
    this.overwritten.set(s.id, (this.overwritten.get(s.id) ?? 0) + removed.length);
    this.hooks.truncated?.(s, removed);
    this.io.note('entryOverwritten', s.id, { index, count: removed.length });
  }

  /** The follower's answer to `m`; where it wrote to its log (`persist`), only once that is on disk (modelled fsync). */
  private answer(s: RaftServer<E, M>, from: NodeId, m: { id: number; round: number; sentAt: number }, out: AppendReply, persist: boolean): void {
    const reply: RaftRpc<E> = { t: 'aer', ...out, id: m.id, round: m.round, sentAt: m.sentAt };
    if (this.fsyncMs > 0 && persist) this.io.setTimer(s.id, this.fsyncMs, 'fsync', { to: from, reply, upTo: lastIndex(s.p) } satisfies FsyncDone<E>);
    else this.io.send(s.id, from, 'ack', reply, 0);
  }

  protected onAppendReply(s: RaftServer<E, M>, from: NodeId, m: Extract<RaftRpc<E>, { t: 'aer' }>): void {
    const wasLeader = s.v.role === 'leader';
    const r = handleAppendReply(s, from, m);
    if (wasLeader && s.v.role !== 'leader') return this.steppedDown(s, from);
    if (s.v.role !== 'leader' || m.term !== s.p.currentTerm) return;
    const x = s.x;
    const inf = x.inflight.get(from);
    // An answer to it or to anything sent after it (a probe behind a snapshot on the same link).
    if (inf && m.id >= inf.id) x.inflight.delete(from);
    // Any answer in this term means the follower still recognises this leader.
    followerAnswered(x, from, m.round, m.sentAt);
    x.quorumActive.add(from);
    if (r === 'progress') this.advanceAndApply(s);
    if ((s.v.nextIndex.get(from) ?? 0) <= lastIndex(s.p)) this.sendAppend(s, from, 'replicate');
    this.serveReads(s);
  }

  protected onFsync(s: RaftServer<E, M>, d: FsyncDone<E>): void {
    s.x.durable = Math.max(s.x.durable, Math.min(d.upTo, lastIndex(s.p)));
    if ('to' in d) this.io.send(s.id, d.to, 'ack', d.reply, 0);
    else if (s.v.role === 'leader' && d.term === s.p.currentTerm) this.advanceAndApply(s);
  }

  protected advanceAndApply(s: RaftServer<E, M>): void {
    const before = s.v.commitIndex;
    // With fsync modelled the leader counts itself only up to what its disk holds.
    const after = this.fsyncMs > 0 ? advanceCommit(s, s.x.durable) : advanceCommit(s);
    if (after > before) this.committed(s, before);
  }

  /** commitIndex moved up from `before`: observer checks and metrics, then apply in order. */
  private committed(s: RaftServer<E, M>, before: number): void {
    const known = this.checker.committedLength;
    this.checker.committedUpTo(s.id, s.p, before, s.v.commitIndex, s.p.currentTerm);
    if (s.v.commitIndex > known) {
      for (let i = known + 1; i <= s.v.commitIndex; i++) {
        const e = entryAt(s.p, i);
        if (e) this.hooks.firstCommit?.(s, i, e);
      }
      this.io.note('commit', s.id, { index: s.v.commitIndex });
    }
    this.applyCommitted(s);
  }

  private applyCommitted(s: RaftServer<E, M>): void {
    while (s.v.lastApplied < s.v.commitIndex) {
      const i = ++s.v.lastApplied;
      const e = entryAt(s.p, i)!;
      const firstAnywhere = i > this.checker.appliedLength;
      this.checker.onApply(s.id, i, e);
      this.hooks.apply(s, i, e, firstAnywhere);
    }
    this.maybeSnapshot(s);
    this.serveReads(s);
  }

  /**
   * Log compaction (§7): once `snapshotEvery` entries were applied past the last snapshot, the state
   * machine is copied to stable storage, and the log keeps only the `snapshotEvery` entries before
   * the snapshot's end and what follows — a long run's log stays bounded, and a follower a little
   * behind still catches up from entries rather than a whole snapshot (hashicorp/raft's
   * TrailingLogs, etcd's catch-up entries).
   */
  private maybeSnapshot(s: RaftServer<E, M>): void {
    const every = this.cfg.snapshotEvery ?? 0;
    const clone = this.hooks.cloneMachine;
    const at = s.v.lastApplied;
    if (every <= 0 || !clone || at - (s.snap?.index ?? 0) < every) return;
    s.snap = { index: at, term: termAt(s.p, at)!, machine: clone(s.x.sm) };
    compactLog(s.p, at - every);
    this.io.note('snapshotTaken', s.id, { index: at });
  }

  /** A leader appends a new entry of its term, replicates it and commits what it can. */
  propose(s: RaftServer<E, M>, entry: Omit<E, 'uid'>): number {
    const index = leaderAppend(s, this.newEntry(entry));
    this.stored(s, index);
    // The leader writes to its disk in parallel with replicating (thesis §10.2.1); it counts itself once synced.
    if (this.fsyncMs > 0) this.io.setTimer(s.id, this.fsyncMs, 'fsync', { upTo: index, term: s.p.currentTerm } satisfies FsyncDone<E>);
    this.replicate(s);
    this.advanceAndApply(s);
    return index;
  }

  // ================================================================ reads (thesis §6.4)

  /** Queues a ReadIndex / lease read at a leader (`via`: the member that forwarded it) and serves what it can. */
  read(s: RaftServer<E, M>, worker: NodeId, readId: number, via?: NodeId): void {
    queueRead(s.x, worker, readId, via);
    this.serveReads(s);
  }

  /** Answers the ReadIndex / lease reads that may be answered now; starts a heartbeat round if they need one. */
  serveReads(s: RaftServer<E, M>): void {
    const r = serveReads(s, s.x, { lease: this.cfg.leaseReads, now: this.io.now(), minElectionTimeoutMs: this.minTimeout });
    for (const q of r.answer) this.hooks.answerRead(s, q);
    if (r.heartbeat) this.heartbeat(s);
  }
}
