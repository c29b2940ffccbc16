import type { Rng } from '../../sim/rng';
import type { Message, MessageKind, NodeId } from '../../sim/types';
import type { NodeFacts, NodeLog } from '../facts';
import type { NoteData, NoteName } from '../notes';
import type { CoordService } from './config';

/**
 * The coordination service as the rest of the product sees it. The service runs on the `coord`
 * nodes c0…; its client library runs inside each worker process (a worker's requests are messages
 * from that worker to its session's server). Strategies use it through `CoordClient`, one interface
 * for both services, and hear back through `Strategy.onCoord` — as an application hears from the
 * etcd clientv3 or a ZooKeeper handle.
 */

/** What a client hears back (the worker's application gets these through Strategy.onCoord). */
export type CoordEvent =
  /** The client holds the lock; `token` (etcd revision / ZooKeeper zxid of the grant) only grows. */
  | { t: 'lockAcquired'; lock: string; token: number }
  /** The client's lease or session is gone as far as it has learned: any lock it held is gone too. */
  | { t: 'sessionLost' }
  /** create-if-absent: the key was created by this request, with this revision/zxid. */
  | { t: 'created'; reqId: number; key: string; token: number }
  /** create-if-absent: the key already existed; its value. */
  | { t: 'exists'; reqId: number; key: string; value: string };

/** The client library's view (typed facts of a worker's session). */
export interface ClientFacts {
  /** The server its session/connection is on now. */
  server: NodeId;
  /** connecting: no session yet (or a new one after expiry); ok: live; lost: it learned its session expired. */
  session: 'none' | 'connecting' | 'ok';
  /** Lease (etcd) or session (ZooKeeper) id, 0 when none. */
  lease: number;
  /** Locks: waiting in the queue, or held with the token of the grant. */
  lock?: { name: string; state: 'waiting' | 'held'; token?: number };
}

export interface CoordClient {
  readonly service: CoordService;
  /** Ask for the named lock (a lease-bound key / an ephemeral sequential znode); granted as `lockAcquired`. */
  lock(worker: NodeId, name: string): void;
  /** Release it (delete the key / znode). Nothing is reported back. */
  unlock(worker: NodeId, name: string): void;
  /** Create `key` with `value` unless it exists (etcd Txn on createRevision = 0; ZooKeeper create): `created` or `exists`. */
  create(worker: NodeId, key: string, value: string, reqId: number): void;
  /** The worker's session, for its facts. */
  facts(worker: NodeId): ClientFacts | null;
}

/** What the engine gives the service (a StrategyContext's relevant part, plus the path back to the app). */
export interface CoordContext {
  readonly workers: readonly NodeId[];
  readonly coord: readonly NodeId[];
  now(): number;
  isUp(node: NodeId): boolean;
  send(from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, bytes: number): void;
  setTimer(node: NodeId, delayMs: number, tag: string, data?: unknown): void;
  note<K extends NoteName>(what: K, node: NodeId | undefined, data: NoteData[K]): void;
  touch(node: NodeId): void;
  rng(stream: string): Rng;
  violation(invariant: string, detail: string): void;
  /** A client operation on a metadata key, for the linearizability check. */
  op(process: NodeId, op: 'invoke' | 'ok' | 'fail' | 'info', f: 'read' | 'update', key: string, opId?: number, version?: number): number;
  /** Hands an event to the worker's application (the strategy). */
  toApp(worker: NodeId, ev: CoordEvent): void;
}

/** Timer tags of the client library on worker nodes start with this (the engine routes them here). */
export const CLIENT_TIMER = 'coord:';

export interface CoordServiceRuntime {
  readonly service: CoordService;
  readonly client: CoordClient;
  start(): void;
  /** A message to or from a coordination node. */
  onMessage(msg: Message): void;
  /** A timer of a coordination node, or a client timer (tag starting with CLIENT_TIMER) of a worker. */
  onTimer(node: NodeId, tag: string, data: unknown): void;
  onCrash(node: NodeId): void;
  onRestart(node: NodeId): void;
  /** putMeta: the leader writes the key (through a 0 ms timer on it, so a paused leader queues it); false: no leader. */
  putMeta(key: string, value: string): boolean;
  topology(): Array<[NodeId, NodeId]>;
  facts(node: NodeId): NodeFacts | null;
  logOf(node: NodeId): NodeLog | null;
  /** staleReads, leaders, term …; undefined for metrics it does not define. */
  metric(name: string, node?: NodeId): number | null | undefined;
  checkInvariants(): Array<{ invariant: string; detail: string }>;
  /** The server that believes it leads (highest term/epoch, up), or null. */
  leader(): NodeId | null;
  /** What the service promises, for the checkers: are its metadata reads linearizable in this configuration? */
  linearizableReads(): boolean;
}
