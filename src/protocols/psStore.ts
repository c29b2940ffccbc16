import type { NodeId } from '../sim/types';
import { axpy } from '../sim/vectors';

/**
 * A parameter server's store for writes made under a lock (ps-async writeLock "lease") and for
 * whole-vector writes (writeMode "set"), with the bookkeeping that shows what they cost:
 *
 * - Lineage: every accepted write is a node whose parent is the state it was computed from — the
 *   state the writer read (a set replaces everything written since), or the current state (an add
 *   composes). An acknowledged update is lost when its node is not an ancestor of the current
 *   state (CURRICULUM §C.5: "absent from the final lineage"); a restore from a checkpoint loses the
 *   same way.
 * - Fencing (Kleppmann's fencing tokens; Chubby's sequencers; Jepsen's advice for etcd locks):
 *   every read and write under a lock carries its grant's token. The store remembers the newest
 *   token it has seen; with fencing it refuses anything older. Checking reads too matters: a holder
 *   that read with token 7 has fenced out token 6, whose owner may be paused between its own read
 *   and write. Without fencing the store accepts the older token and counts it (staleWritesAccepted).
 */

export interface WriteIn {
  worker: NodeId;
  seq: number;
  /** Set: the new parameters. Add: the gradient, applied with `lr`. */
  set?: Float32Array;
  grad?: Float32Array;
  lr?: number;
  /** The lineage node the writer read (set mode). */
  basedOnNode: number;
  /** The lock grant's token (undefined: no lock). */
  token?: number;
  /** Keys of the updates this write carries (a set write after local steps carries several). */
  updates: string[];
}

export type WriteOutcome = { t: 'applied'; version: number } | { t: 'duplicate'; version: number } | { t: 'fenced'; newest: number };

interface LineageNode {
  parent: number;
  updates: readonly string[];
}

export interface StoreState {
  params: Float32Array;
  version: number;
  /** The lineage node of the current parameters. */
  head: number;
  /** Highest seq applied per worker (retries and duplicates are applied once). */
  applied: Map<NodeId, number>;
  /** Newest lock token seen (-1: none). */
  newestToken: number;
}

export class ParamStore {
  s: StoreState;
  private readonly nodes: LineageNode[] = [{ parent: -1, updates: [] }];
  /** Acknowledged updates → the lineage node that holds them (observer). */
  private readonly ackedAt = new Map<string, number>();
  private lostCache: { head: number; acked: number; lost: number } | null = null;
  // Observer counters (metrics): refused writes (fencedWrites) and refused reads.
  fenced = 0;
  fencedReads = 0;
  staleAccepted = 0;
  lastFencedToken: number | null = null;
  /**
   * Observer: accepted set writes computed from a state other than the current one (they replace
   * what was written since their read) — except from states a restore threw away. With fencing this
   * must stay 0: it is the invariant fencing exists for.
   */
  overwrites = 0;
  /** Lineage ids [from, to) a restore from a checkpoint discarded. */
  private readonly restoredAway: Array<[number, number]> = [];
  /** Lineage length when each snapshot was taken (by the snapshot's head). */
  private snapNodes = 1;

  constructor(
    initial: Float32Array,
    private readonly fencing: boolean,
  ) {
    this.s = { params: initial, version: 0, head: 0, applied: new Map(), newestToken: -1 };
  }

  /** A read under a lock: with fencing, refused when the token is older than one seen. */
  read(token: number | undefined): { ok: true } | { ok: false; newest: number } {
    if (token === undefined) return { ok: true };
    if (token < this.s.newestToken && this.fencing) return this.fence(token, 'read');
    this.s.newestToken = Math.max(this.s.newestToken, token);
    return { ok: true };
  }

  private fence(token: number, what: 'read' | 'write'): { ok: false; newest: number } {
    if (what === 'write') this.fenced++;
    else this.fencedReads++;
    this.lastFencedToken = token;
    return { ok: false, newest: this.s.newestToken };
  }

  write(w: WriteIn): WriteOutcome & { stale?: boolean } {
    const last = this.s.applied.get(w.worker) ?? 0;
    if (w.seq <= last) return { t: 'duplicate', version: this.s.version };
    let stale = false;
    if (w.token !== undefined) {
      if (w.token < this.s.newestToken) {
        if (this.fencing) return { t: 'fenced', newest: this.fence(w.token, 'write').newest };
        stale = true;
        this.staleAccepted++;
      }
      this.s.newestToken = Math.max(this.s.newestToken, w.token);
    }
    let parent = this.s.head;
    if (w.set) {
      this.s.params = w.set.slice();
      // A whole-vector write is computed from what the writer read: it replaces what came since.
      if (w.basedOnNode < this.nodes.length) parent = w.basedOnNode;
      if (parent !== this.s.head && !this.restoredAway.some(([a, b]) => parent >= a && parent < b)) this.overwrites++;
    } else if (w.grad) {
      axpy(this.s.params, -(w.lr ?? 0), w.grad);
    }
    this.nodes.push({ parent, updates: w.updates });
    this.s.head = this.nodes.length - 1;
    this.s.version++;
    this.s.applied.set(w.worker, w.seq);
    return stale ? { t: 'applied', version: this.s.version, stale } : { t: 'applied', version: this.s.version };
  }

  /** Observer: these updates were acknowledged to their writer (they are on node `head` now). */
  acknowledged(updates: readonly string[]): void {
    for (const u of updates) if (!this.ackedAt.has(u)) this.ackedAt.set(u, this.nodeOf(u));
  }

  private nodeOf(update: string): number {
    for (let i = this.nodes.length - 1; i >= 0; i--) if (this.nodes[i].updates.includes(update)) return i;
    return -1;
  }

  /** Acknowledged updates whose node is not an ancestor of the current state. */
  lost(): number {
    const head = this.s.head;
    if (this.lostCache && this.lostCache.head === head && this.lostCache.acked === this.ackedAt.size) return this.lostCache.lost;
    const onLineage = new Set<number>();
    for (let n = head; n >= 0; n = this.nodes[n].parent) onLineage.add(n);
    let lost = 0;
    for (const node of this.ackedAt.values()) if (!onLineage.has(node)) lost++;
    this.lostCache = { head, acked: this.ackedAt.size, lost };
    return lost;
  }

  snapshot(): StoreState {
    this.snapNodes = this.nodes.length;
    return { params: this.s.params.slice(), version: this.s.version, head: this.s.head, applied: new Map(this.s.applied), newestToken: this.s.newestToken };
  }

  /**
   * Back to a checkpoint after a crash. The newest token is kept: a fencing store must write it
   * durably before it answers (like Raft's currentTerm), or a restart would re-admit old holders.
   */
  restore(snap: StoreState): void {
    const newest = Math.max(this.s.newestToken, snap.newestToken);
    this.restoredAway.push([this.snapNodes, this.nodes.length]);
    this.s = { params: snap.params.slice(), version: snap.version, head: snap.head, applied: new Map(snap.applied), newestToken: newest };
  }
}
