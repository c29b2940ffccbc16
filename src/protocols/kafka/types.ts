import type { NodeId } from '../../sim/types';
import type { ReplicaLog } from './replicaLog';
import type { FollowerFetchState } from './rules';

/** Kafka defaults for what the knobs do not expose. */
export const FETCH_WAIT_MS = 500; // replica.fetch.wait.max.ms / fetch.max.wait.ms
export const FETCH_RETRY_MS = 1000; // a fetch unanswered this long is sent again
export const RETRY_BACKOFF_MS = 100; // retry.backoff.ms
export const PULL_TIMEOUT_MS = 1000; // a worker's read of its PS replica
export const MAX_FETCH_BYTES = 1048576; // replica.fetch.max.bytes / max.partition.fetch.bytes

/** A record: one worker's gradient. Immutable once a leader appended it (replicas share the object). */
export interface Rec {
  /** Leader epoch it was appended in (-1 while it sits in the producer's batch). */
  epoch: number;
  /** Idempotent producer id and sequence number. */
  pid: string;
  seq: number;
  worker: NodeId;
  grad: Float32Array;
  basedOn: number;
}
export const keyOf = (r: { pid: string; seq: number }): string => `${r.pid}#${r.seq}`;

/** What a broker knows as the leader of a partition (volatile). */
export interface LeaderState {
  epoch: number;
  /** Its LEO when it became leader: a follower rejoins the ISR only past it. */
  epochStart: number;
  followers: Map<NodeId, FollowerFetchState>;
  /** Fetches waiting for data (long poll). */
  parked: Array<{ from: NodeId; reqId: number; consumer: boolean; offset: number }>;
  /** acks=all requests waiting for the HW. */
  pending: Array<{ from: NodeId; reqId: number; lastOffset: number }>;
}

/** What a broker knows as a follower of a partition (volatile). */
export interface FollowState {
  leader: NodeId;
  epoch: number;
  reqId: number;
}

export interface Broker {
  /** Its replica of every partition (empty for partitions it does not hold); kept across crashes. */
  parts: ReplicaLog[];
  leading: Map<number, LeaderState>;
  following: Map<number, FollowState>;
  /** Partitions its last metadata says have no leader (volatile, like leading and following). */
  offline: Set<number>;
}

/** The controller's metadata of one partition. */
export interface PartMeta {
  replicas: NodeId[];
  leader: NodeId | null;
  lastLeader: NodeId;
  epoch: number;
  isr: NodeId[];
  /** Highest HW any leader announced since the last unclean election (committed records). */
  committed: number;
}

export interface Request {
  reqId: number;
  p: number;
  records: Rec[];
  opIds: number[];
  sentTo: NodeId | null;
  attempt: number;
}

export interface Producer {
  pid: string;
  nextSeq: number;
  accum: Rec[];
  accumOps: number[];
  lingerArmed: boolean;
  inflight: Map<number, Request>;
  nextReq: number;
  /** 'ack': waiting for acknowledgements; 'pull': waiting for parameters; 'step': computing. */
  phase: 'ack' | 'pull' | 'step';
  pullId: number;
  pullOp: number;
}

export interface Consumer {
  params: Float32Array;
  pos: number[];
  fetching: Array<{ reqId: number; sentAt: number } | null>;
  nextReq: number;
  caughtUp: boolean;
}

export type Payload =
  | { t: 'produce'; p: number; reqId: number; attempt: number; records: Rec[] }
  | { t: 'produce-resp'; p: number; reqId: number; attempt: number; error?: string }
  | { t: 'fetch'; p: number; reqId: number; epoch: number; offset: number; lastEpoch: number }
  | { t: 'fetch-resp'; p: number; reqId: number; offset: number; records: Rec[]; hw: number; diverging?: { epoch: number; endOffset: number } }
  | { t: 'cfetch'; p: number; reqId: number; offset: number }
  | { t: 'cfetch-resp'; p: number; reqId: number; offset: number; records: Rec[]; hw: number; error?: 'OffsetOutOfRange' | 'NotLeader'; leo?: number }
  | { t: 'pull'; reqId: number }
  | { t: 'params'; reqId: number; params: Float32Array; offset: number };

export type PayloadOf<T extends Payload['t']> = Extract<Payload, { t: T }>;
