import type { NodeId } from '../../sim/types';
import type { AppendEntries, AppendReply, InstallSnapshot, RequestVote, VoteReply } from './rules';
import type { LogEntry, RaftEntry } from './state';

/**
 * Raft's RPCs between the servers of a group, over entries of type E (group.ts): RequestVote,
 * Pre-Vote (the same fields, thesis §9.6), AppendEntries and InstallSnapshot (§7). ae/aer carry an id, the leader's
 * heartbeat round and the send time, for in-flight tracking, ReadIndex and leases.
 */
export type RaftRpc<E extends RaftEntry> =
  | ({ t: 'rv' } & RequestVote)
  | ({ t: 'rvr' } & VoteReply)
  | ({ t: 'pv' } & RequestVote)
  | ({ t: 'pvr' } & VoteReply)
  | ({ t: 'ae'; id: number; round: number; sentAt: number } & AppendEntries<E>)
  | ({ t: 'aer'; id: number; round: number; sentAt: number } & AppendReply)
  /** InstallSnapshot (§7): `data` is the leader's snapshot, the owner's state machine (immutable); answered with an aer. */
  | ({ t: 'is'; id: number; round: number; sentAt: number; data: unknown } & InstallSnapshot);

const RPC_TAGS: ReadonlySet<string> = new Set(['rv', 'rvr', 'pv', 'pvr', 'ae', 'aer', 'is']);

/** Whether a payload is one of the group's RPCs (the owner handles everything else). */
export function isRaftRpc<E extends RaftEntry>(payload: unknown): payload is RaftRpc<E> {
  return typeof payload === 'object' && payload !== null && RPC_TAGS.has((payload as { t?: unknown }).t as string);
}

/** Requests a raft-ps worker sends a server. */
export type ClientRequest = { t: 'update'; seq: number; grad: Float32Array; basedOn: number } | { t: 'read'; readId: number };

/** Messages a raft-ps worker receives. */
export type ClientMsg =
  | { t: 'redirect'; op: 'update' | 'read'; id: number; hint: NodeId | null }
  | { t: 'ack'; seq: number; version: number }
  | { t: 'params'; readId: number; params: Float32Array; version: number }
  /** etcd's "request is too large": the update exceeded maxRequestBytes and was not proposed. */
  | { t: 'tooLarge'; seq: number; bytes: number; limit: number };

/** Every message of raft-ps: the servers' RPCs and the client protocol between workers and servers. */
export type RaftMsg = RaftRpc<LogEntry> | ClientRequest | ClientMsg;
