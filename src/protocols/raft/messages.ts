import type { NodeId } from '../../sim/types';
import type { AppendEntries, AppendReply, RequestVote, VoteReply } from './rules';

/**
 * Messages of raft-ps: Raft's RPCs between servers (ae/aer carry an id, the leader's heartbeat
 * round and the send time, for in-flight tracking, ReadIndex and leases), and the client protocol
 * between workers and servers.
 */
export type RaftMsg =
  | ({ t: 'rv' } & RequestVote)
  | ({ t: 'rvr' } & VoteReply)
  | ({ t: 'ae'; id: number; round: number; sentAt: number } & AppendEntries)
  | ({ t: 'aer'; id: number; round: number; sentAt: number } & AppendReply)
  | { t: 'update'; seq: number; grad: Float32Array; basedOn: number }
  | { t: 'read'; readId: number }
  | { t: 'redirect'; op: 'update' | 'read'; id: number; hint: NodeId | null }
  | { t: 'ack'; seq: number; version: number }
  | { t: 'params'; readId: number; params: Float32Array; version: number };

/** Messages a worker receives. */
export type ClientMsg = Extract<RaftMsg, { t: 'redirect' | 'ack' | 'params' }>;
