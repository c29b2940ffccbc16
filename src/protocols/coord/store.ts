import type { NodeId } from '../../sim/types';

/**
 * The coordination service's replicated state machine: what every server applies, in log order,
 * from committed commands (an etcd member's MVCC store and lessor; a ZooKeeper server's data tree
 * and session table). Pure data and pure transitions: no clock, no network — the services decide
 * *when* a command is committed, this decides what it does.
 *
 * Two flavours, one model:
 * - etcd: a flat key space with one global `revision` that every change increments; a lock is a
 *   key `/locks/<name>/<lease>` bound to the client's lease (concurrency.Mutex; a lease that asks
 *   again while its key still exists gets that key back); its create revision orders the waiters
 *   and is the fencing token.
 * - ZooKeeper: znodes; every transaction carries the zxid the leader gave it; a lock is an
 *   ephemeral sequential child `/locks/<name>/lock-0000000007` of the client's session; its
 *   creation zxid (czxid) orders the waiters and is the fencing token.
 * In both, the lock holder is the oldest key under the lock's prefix, and a lease (session) that
 * ends deletes every key bound to it — which is how a lock outlives nobody, and also how a paused
 * holder loses it without knowing.
 */

export type StoreFlavour = 'etcd' | 'zookeeper';

export type Cmd =
  /** etcd LeaseGrant / ZooKeeper createSession. */
  | { op: 'open'; client: NodeId; lease: number; ttlMs: number }
  /** etcd LeaseRevoke / ZooKeeper closeSession: the leader found the lease expired. */
  | { op: 'close'; lease: number }
  /** Join the lock's queue: a key bound to the lease (etcd Txn createRevision = 0 → put; ZooKeeper create ephemeral|sequential). */
  | { op: 'lock'; client: NodeId; reqId: number; lease: number; name: string }
  /**
   * Leave it: delete this lease's key under the lock — only the one created with `token` (a Txn on
   * its create revision), so a late or retried unlock never deletes the key of a later acquisition.
   */
  | { op: 'unlock'; client: NodeId; reqId: number; lease: number; name: string; token?: number }
  /** Create a key unless it exists (etcd Txn; ZooKeeper create). */
  | { op: 'create'; client: NodeId; reqId: number; key: string; value: string }
  /** Write a key (putMeta through the leader). */
  | { op: 'put'; key: string; value: string; opId: number };

export type CmdResult =
  | { t: 'opened' }
  | { t: 'closed' }
  /** In the queue; `token` is its key's creation id (revision / zxid). */
  | { t: 'queued'; key: string; token: number }
  | { t: 'unlocked' }
  | { t: 'created'; token: number }
  | { t: 'exists'; value: string }
  | { t: 'put'; version: number }
  /** The lease or session is unknown (expired): ZooKeeper's SESSIONEXPIRED, etcd's "lease not found". */
  | { t: 'noLease' };

export interface KeyRec {
  readonly value: string;
  /** Revision (etcd) or zxid (ZooKeeper) of its creation: the fencing token of a lock key. */
  readonly createId: number;
  readonly modId: number;
  /** Writes since creation (etcd's version; ZooKeeper's dataVersion + 1). */
  readonly version: number;
  /** The lease/session it is bound to (ephemeral), or null. */
  readonly lease: number | null;
}

export interface LeaseRec {
  readonly client: NodeId;
  readonly ttlMs: number;
  readonly keys: ReadonlySet<string>;
}

export interface LockEntry {
  key: string;
  token: number;
  lease: number;
  client: NodeId;
}

export const LOCK_PREFIX = '/locks/';

export class CoordStore {
  readonly keys = new Map<string, KeyRec>();
  readonly leases = new Map<number, LeaseRec>();
  /** Leases this store has seen end (a server can then tell a client "expired", not merely "unknown"). */
  readonly closed = new Set<number>();
  /** etcd: the current revision. ZooKeeper: the zxid of the last applied transaction. */
  rev = 0;
  /** Transactions applied (the store's position in the log). */
  applied = 0;
  /** ZooKeeper: the sequence counter of each parent (cversion), for sequential names. */
  private readonly seq = new Map<string, number>();
  /** (client, request) → its result: a retried request is answered, not applied twice (Raft §8; ZooKeeper's session ordering). */
  private readonly done = new Map<string, CmdResult>();

  constructor(readonly flavour: StoreFlavour) {}

  /**
   * Applies one committed command; `zxid` is the transaction's id (ZooKeeper; etcd assigns
   * revisions itself). Returns its result and the keys it deleted.
   */
  apply(cmd: Cmd, zxid = 0): { result: CmdResult; deleted: string[] } {
    this.applied++;
    if (this.flavour === 'zookeeper') this.rev = Math.max(this.rev, zxid);
    const r = cmd as Cmd & { reqId?: number };
    const key = 'client' in cmd && r.reqId !== undefined ? `${cmd.client}#${r.reqId}` : null;
    const prior = key ? this.done.get(key) : undefined;
    if (prior) return { result: prior, deleted: [] };
    const out = this.applyNew(cmd);
    if (key) this.done.set(key, out.result);
    return out;
  }

  /** The id the next change gets: etcd's next revision, or the transaction's zxid. */
  private nextId(): number {
    return this.flavour === 'etcd' ? ++this.rev : this.rev;
  }

  private applyNew(cmd: Cmd): { result: CmdResult; deleted: string[] } {
    switch (cmd.op) {
      case 'open':
        if (!this.leases.has(cmd.lease) && !this.closed.has(cmd.lease)) this.leases.set(cmd.lease, { client: cmd.client, ttlMs: cmd.ttlMs, keys: new Set() });
        return { result: { t: 'opened' }, deleted: [] };
      case 'close': {
        const lease = this.leases.get(cmd.lease);
        this.closed.add(cmd.lease);
        if (!lease) return { result: { t: 'closed' }, deleted: [] };
        this.leases.delete(cmd.lease);
        const deleted = [...lease.keys].sort();
        // etcd deletes a revoked lease's keys in one transaction (one revision); ZooKeeper's closeSession likewise.
        if (deleted.length) this.nextId();
        for (const k of deleted) this.keys.delete(k);
        return { result: { t: 'closed' }, deleted };
      }
      case 'lock': {
        const lease = this.leases.get(cmd.lease);
        if (!lease) return { result: { t: 'noLease' }, deleted: [] };
        // One key per lease and lock (ZooKeeper's recipe finds its own node again after a retry).
        const existing = this.lockKeysOf(cmd.name, cmd.lease)[0];
        if (existing) return { result: { t: 'queued', key: existing, token: this.keys.get(existing)!.createId }, deleted: [] };
        const key = this.lockKeyName(cmd.name, cmd.lease);
        const id = this.nextId();
        this.keys.set(key, { value: cmd.client, createId: id, modId: id, version: 1, lease: cmd.lease });
        this.leases.set(cmd.lease, { ...lease, keys: new Set([...lease.keys, key]) });
        return { result: { t: 'queued', key, token: id }, deleted: [] };
      }
      case 'unlock': {
        const keys = this.lockKeysOf(cmd.name, cmd.lease).filter((k) => cmd.token === undefined || this.keys.get(k)!.createId === cmd.token);
        if (keys.length === 0) return { result: { t: 'unlocked' }, deleted: [] };
        this.nextId();
        for (const k of keys) this.deleteKey(k);
        return { result: { t: 'unlocked' }, deleted: keys };
      }
      case 'create': {
        const rec = this.keys.get(cmd.key);
        if (rec) return { result: { t: 'exists', value: rec.value }, deleted: [] };
        const id = this.nextId();
        this.keys.set(cmd.key, { value: cmd.value, createId: id, modId: id, version: 1, lease: null });
        return { result: { t: 'created', token: id }, deleted: [] };
      }
      case 'put': {
        const rec = this.keys.get(cmd.key);
        const id = this.nextId();
        const version = (rec?.version ?? 0) + 1;
        this.keys.set(cmd.key, { value: cmd.value, createId: rec?.createId ?? id, modId: id, version, lease: rec?.lease ?? null });
        return { result: { t: 'put', version }, deleted: [] };
      }
    }
  }

  private deleteKey(key: string): void {
    const rec = this.keys.get(key);
    if (!rec) return;
    this.keys.delete(key);
    if (rec.lease !== null) {
      const lease = this.leases.get(rec.lease);
      if (lease) this.leases.set(rec.lease, { ...lease, keys: new Set([...lease.keys].filter((k) => k !== key)) });
    }
  }

  /** etcd: `/locks/<name>/<lease>`. ZooKeeper: the next sequential child `/locks/<name>/lock-0000000007`. */
  private lockKeyName(name: string, lease: number): string {
    const parent = `${LOCK_PREFIX}${name}/`;
    if (this.flavour === 'etcd') return `${parent}${lease.toString(16)}`;
    const n = this.seq.get(parent) ?? 0;
    this.seq.set(parent, n + 1);
    return `${parent}lock-${String(n).padStart(10, '0')}`;
  }

  /** This lease's keys under the lock (one per acquisition not yet released). */
  lockKeysOf(name: string, lease: number): string[] {
    const l = this.leases.get(lease);
    if (!l) return [];
    const parent = `${LOCK_PREFIX}${name}/`;
    return [...l.keys].filter((k) => k.startsWith(parent)).sort();
  }

  /** The lock's queue, oldest first: the first entry holds the lock. */
  lockQueue(name: string): LockEntry[] {
    const parent = `${LOCK_PREFIX}${name}/`;
    const out: LockEntry[] = [];
    for (const [key, rec] of this.keys) {
      if (!key.startsWith(parent) || rec.lease === null) continue;
      out.push({ key, token: rec.createId, lease: rec.lease, client: this.leases.get(rec.lease)?.client ?? rec.value });
    }
    return out.sort((a, b) => a.token - b.token);
  }

  /** Names of the locks that have keys. */
  lockNames(): string[] {
    const names = new Set<string>();
    for (const k of this.keys.keys()) if (k.startsWith(LOCK_PREFIX)) names.add(k.slice(LOCK_PREFIX.length, k.lastIndexOf('/')));
    return [...names].sort();
  }
}
