import type { NodeId } from '../../sim/types';
import type { Cmd, CmdResult } from './store';

/** Messages between a worker's client library and its server (both services speak these). */

export type ClientOp =
  | { t: 'open'; lease: number; ttlMs: number }
  | { t: 'lock'; lease: number; name: string }
  | { t: 'unlock'; lease: number; name: string; token?: number }
  /** Re-register, with a new server, the watch on its queued lock key (after a failover). Not a write. */
  | { t: 'watch'; lease: number; name: string; token: number }
  | { t: 'create'; key: string; value: string }
  | { t: 'get'; key: string };

export type ReadResult = { t: 'value'; key: string; value: string | null; version: number; modId: number };

export type Reply = CmdResult | ReadResult | { t: 'tooLarge'; bytes: number; limit: number };

export type ClientMsg =
  /** A request; the server answers with `res` carrying the same reqId once it has applied (or read) it. */
  | { c: 'req'; reqId: number; op: ClientOp }
  /** Keep-alive: a ZooKeeper ping, an etcd LeaseKeepAlive. The server touches the lease at the leader. */
  | { c: 'ping'; lease: number };

export type ServerMsg =
  | { c: 'res'; reqId: number; r: Reply }
  /**
   * Answer to a ping: `alive` is what this server's applied state says of the lease — `no` once it
   * has applied its end (the client then knows its session expired), `unknown` before it has
   * applied its start.
   */
  | { c: 'pong'; lease: number; alive: 'yes' | 'no' | 'unknown' }
  /** The client's lock key is now the oldest under the lock: it holds the lock (etcd watch / ZooKeeper watch fired). */
  | { c: 'granted'; name: string; lease: number; token: number };

/**
 * A command on its way to the leader, with the server that must answer the client once it applies
 * it (`via`) and the client's request id (the state machine also uses it to apply a retry once).
 */
export type Routed = Cmd & { via?: NodeId; reqId?: number };

/** Between servers, beside the replication protocol's own messages. */
export type PeerMsg =
  /** A follower hands a client's write to the leader (etcd proposal forwarding; ZooKeeper's REQUEST). */
  | { c: 'fwd'; cmd: Routed }
  /** A follower reports that a client pinged it (ZooKeeper's session touches; etcd's forwarded keep-alive). */
  | { c: 'touch'; lease: number };

export function bytesOfOp(op: ClientOp): number {
  // Keys and values travel as bytes; control fields are small and counted as 0, as elsewhere.
  if (op.t === 'create') return op.key.length + op.value.length;
  if (op.t === 'get') return op.key.length;
  return 0;
}
