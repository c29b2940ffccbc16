import type { NodeId } from '../sim/types';

/**
 * What a strategy tells the rest of the product about its state: typed facts, never prose
 * (DESIGN rule 6). The engine records every change of a node's facts as a `facts` history event,
 * every change of a replicated log as a `log` event, and every protocol event as a typed `note`
 * (notes.ts), so each view — and each sentence the app writes, in any language — is a function
 * of (history, t). Nothing outside a strategy parses a strategy's text, because there is none.
 *
 * Facts hold small, schedule-level state only (no parameters, no losses): they are part of the
 * schedule hash. Keep them cheap to build and to compare; the engine asks for them after every
 * event that touched the node.
 */

/** A ring all-reduce participant (allreduce; degrade in strong mode). */
export interface RingFacts {
  /** The round (step) it works on; its replica holds version `round` once the round completes. */
  round: number;
  /** compute: a training step; rs: reduce-scatter; ag: all-gather. */
  phase: 'compute' | 'rs' | 'ag';
  /** Transfer step within the phase, 1-based (0 while computing); each phase has N − 1. */
  k: number;
  /** The ring predecessor whose chunk it waits for (null while computing). */
  waitingFor: NodeId | null;
}

export type NodeFacts =
  | ({ kind: 'ring-worker' } & RingFacts)
  | CoordServerFacts
  // ---------------------------------------------------------------- parameter servers
  | {
      kind: 'ps-server';
      /** Updates applied (ps-async, ssp) or rounds closed (ps-sync). */
      version: number;
      /** ps-sync: gradients received for the open round, and how many close it (N − backup). */
      received?: number;
      quorum?: number;
      /**
       * ssp: the slowest worker's clock as the server counts it (its applied clocks; crashed workers
       * included, as SSP waits for them), and the bound s (null = ∞).
       */
      minClock?: number;
      staleness?: number | null;
      /** ssp: the workers at minClock, the ones every blocked worker waits for. */
      slowest?: NodeId[];
    }
  | {
      kind: 'ps-worker';
      /**
       * training: computing or about to; waiting: for parameters or the barrier / SSP bound;
       * unreachable: the server does not answer (ps-async trains locally meanwhile);
       * pulling: restarted, fetching the parameters before it may compute.
       */
      state: 'training' | 'waiting' | 'unreachable' | 'pulling';
      /** What it waits for, when state is `waiting` (`lock`: its turn for the coordination service's lock). */
      waitFor?: 'params' | 'barrier' | 'bound' | 'lock';
      /** ps-async, ssp: its updates the server has not acknowledged yet. */
      unacked?: number;
      /** ps-sync: the round it computes or waits in; ssp: its clock. */
      round?: number;
      clock?: number;
      /** ssp: the slowest clock it must see before it may start its next clock (when blocked). */
      needClock?: number | null;
      /**
       * ssp: the slowest clock its last read carried. Blocked with the server already past
       * needClock means the answer is not reaching it (a cut link), not that someone is slow.
       */
      seenMinClock?: number;
      /**
       * ps-async with writeLock "lease": where it is in the recipe (lock → read → compute → write →
       * release), its lock as it believes it, and the write mode and fencing of the store.
       */
      phase?: 'lock' | 'read' | 'compute' | 'write';
      lock?: WorkerLockFacts;
    }
  // ---------------------------------------------------------------- Raft
  | {
      kind: 'raft-server';
      role: 'leader' | 'follower' | 'candidate';
      term: number;
      votedFor: NodeId | null;
      /** Who it believes leads `term` (null: unknown). */
      leader: NodeId | null;
      commitIndex: number;
      lastApplied: number;
      /** Version of its state machine (updates applied). */
      version: number;
      /** Candidate: votes it holds in `term` (itself included). */
      votes?: number;
      /** Log compaction (§7): the last index its snapshot holds (absent: no snapshot yet). */
      snapshot?: number;
      /** The last index compacted out of its log: it holds the entries after it (absent: none). */
      compacted?: number;
    }
  | {
      kind: 'raft-client';
      phase: 'idle' | 'computing' | 'updating' | 'reading';
      /** The server it sends requests to now (its guess of the leader). */
      asking: NodeId | null;
      /** Sequence number of its newest update. */
      seq: number;
      /** A manual client (clientMode "manual"): updates offered to every server and not yet acknowledged. */
      pending?: number;
    }
  // ---------------------------------------------------------------- Kafka
  | {
      kind: 'kafka-broker';
      /** One entry per topic partition this broker holds a replica of. */
      parts: Array<{
        /** Topic partition index (主题分区, not a network partition). */
        p: number;
        role: 'leader' | 'follower';
        /** Log end offset and high watermark. */
        leo: number;
        hw: number;
        /** Leader epoch of the partition (as this broker knows it). */
        epoch: number;
        /**
         * Leader: the in-sync replicas. A replica of an offline partition: the ISR the controller
         * keeps (its last members, which an unclean election would bypass).
         */
        isr?: NodeId[];
        /** Follower: the leader it fetches from (absent while it follows nobody, e.g. crashed). */
        leader?: NodeId;
        /** Its metadata says the partition has no leader (no live in-sync replica, unclean election off). */
        offline?: true;
      }>;
    }
  | {
      kind: 'kafka-consumer';
      /** Records applied (its version), summed over topic partitions. */
      offset: number;
      /** High watermark minus its applied offset, summed over topic partitions. */
      lag: number;
      caughtUp: boolean;
    }
  | {
      kind: 'kafka-producer';
      /** ack: waiting for acknowledgements; pull: for parameters from its PS replica; step: computing. */
      phase: 'ack' | 'pull' | 'step';
      /** The PS replica it reads parameters from, and the topic partition it writes to. */
      readsFrom: NodeId;
      partition: number;
      /** Records produced but not yet acknowledged. */
      unacked: number;
    }
  // ---------------------------------------------------------------- degrade
  | {
      kind: 'degrade-worker';
      mode: 'strong' | 'eventual' | 'merging';
      epoch: number;
      /** Eventual mode: the workers it can reach (its side), and whether that side is a majority. */
      side?: NodeId[];
      majoritySide?: boolean;
      /** Eventual mode: local steps not yet merged. */
      localSteps?: number;
      /** Strong mode: where it is in the ring. */
      ring?: RingFacts;
      /** Eventual mode: it hears every worker again and waits out healStableMs before contributing. */
      stable?: boolean;
      /** Merging: the worker it sent its contribution to (the lowest id it heard), awaiting the merge. */
      coordinator?: NodeId;
      /** Contributions it holds for the next merge, as coordinator (absent when none). */
      collected?: number;
      /**
       * The checkpoint store (outside the simulated network, reachable from every side): the newest
       * epoch it has accepted, and the worker whose checkpoint it holds as the latest (null: none
       * yet). Without fencing a stale side's write becomes the latest: storeWriter shows it.
       */
      storeEpoch: number;
      storeWriter: NodeId | null;
      /**
       * Where its epochs come from. `detector`: each side takes the next epoch from its own failure
       * detector (a majority of the workers it hears) — under one-way or non-transitive cuts two
       * sides can both take the same epoch, and fencing then accepts both. `service`: the
       * coordination service grants each epoch once (a create-if-absent on a majority-replicated
       * key), so at most one side holds it.
       */
      epochFrom?: 'detector' | 'service';
      /** With a service: an epoch request in flight (the side waits for the service's answer). */
      epochPending?: number;
    }
  // ---------------------------------------------------------------- two-phase commit (2pc-ps)
  | {
      kind: '2pc-server';
      /** This server also runs the coordinator (it is a participant as well). */
      coordinator: boolean;
      /** Participant: the transaction it voted yes on and awaits the decision of (null: none). */
      prepared: number | null;
      /**
       * Prepared, and the decision did not come within voteTimeoutMs: it asks the coordinator and
       * the other participants, and blocks — it can neither commit nor abort on its own.
       */
      blocked: boolean;
      /** Committed updates applied to its replica. */
      version: number;
      /** Coordinator only: the transaction collecting votes (null: none), its yes votes so far, of how many. */
      tx?: number | null;
      votes?: number;
      participants?: number;
      /** Coordinator only: worker updates waiting for their transaction. */
      queued?: number;
      /** Coordinator only: the newest decision in its stable log. */
      decided?: { tx: number; decision: 'commit' | 'abort' } | null;
    }
  | {
      kind: '2pc-client';
      /** updating: its transaction is with the coordinator; reading: it asks the coordinator for the parameters. */
      phase: 'idle' | 'computing' | 'updating' | 'reading';
      /** Sequence number of its newest update. */
      seq: number;
      /** Its updates whose transaction aborted so far. */
      aborted: number;
    }
  // ---------------------------------------------------------------- Multi-Paxos (paxos-ps)
  | {
      kind: 'paxos-server';
      /**
       * Proposer role: leader (phase 1 done for its ballot: it proposes every update), candidate
       * (running phase 1), follower (not proposing).
       */
      role: 'leader' | 'candidate' | 'follower';
      /** Acceptor: the highest ballot it has promised (stable storage). Ballot b belongs to server s(b mod n). */
      promised: number;
      /** The leader it last heard from with a ballot it accepts (null: unknown). */
      leader: NodeId | null;
      /** Learner: slots it knows chosen, contiguous from slot 1 (all applied, in order). */
      chosen: number;
      /** Acceptor: the highest slot it has accepted a value in (0: none). */
      accepted: number;
      /** Updates applied to its replica. */
      version: number;
      /** Candidate and leader: its own ballot; candidate: promises it holds (itself included) and how many it needs. */
      ballot?: number;
      promises?: number;
      need?: number;
    }
  | {
      kind: 'paxos-client';
      phase: 'idle' | 'computing' | 'updating' | 'reading';
      /** The server it sends requests to now (its guess of the leader). */
      asking: NodeId | null;
      /** Sequence number of its newest update. */
      seq: number;
      /** A manual client (clientMode "manual"): updates offered to every server and not yet acknowledged. */
      pending?: number;
    };

/**
 * A coordination-service server (cluster.coord nodes c0…; CURRICULUM §C.1), etcd-like or
 * ZooKeeper-like. Everything is the server's own view: its role, its term (Raft) or epoch (Zab),
 * what it has committed and applied, the leases/sessions in its applied state, and each lock's
 * queue there — the holder is the oldest key, and its creation revision/zxid is the fencing token.
 */
export interface CoordServerFacts {
  kind: 'coord-server';
  service: 'etcd' | 'zookeeper';
  /** Raft: leader/follower/candidate; Zab: leader/follower, or looking while it elects. */
  role: 'leader' | 'follower' | 'candidate' | 'looking';
  /** Raft term, or Zab epoch (currentEpoch). */
  term: number;
  /** Who it believes leads (null: unknown). */
  leader: NodeId | null;
  /** etcd: Raft commit index. ZooKeeper: the zxid of the last transaction it knows committed. */
  commit: number;
  /** etcd: the store's revision; ZooKeeper: the zxid of the last transaction it applied. */
  revision: number;
  /** Leases (etcd) or sessions (ZooKeeper) alive in its applied state, with their owners. */
  leases: Array<{ id: number; owner: NodeId }>;
  /** Locks with a queue in its applied state: holder (oldest key), its token, and who waits. */
  locks: Array<{ name: string; holder: NodeId; token: number; waiting: NodeId[] }>;
  /** Metadata keys (not under /locks/) in its applied state, with their versions: a lagging server shows an older one. */
  meta: Array<{ key: string; version: number }>;
}

/** What a worker's coordination client (and the application above it) knows of its lock. */
export interface WorkerLockFacts {
  /** none: not asked; waiting: queued behind another holder; held: granted (it believes so — a paused holder still does). */
  state: 'none' | 'waiting' | 'held';
  /** The fencing token of its grant. */
  token?: number;
  /** The server its session is on, and whether the session is open. */
  server: NodeId;
  session: 'none' | 'connecting' | 'ok';
}

export type FactsKind = NodeFacts['kind'];

/** One entry of a replicated log, as the servers panel draws it. */
export interface LogItem {
  /**
   * Raft term, or the Kafka leader epoch the record was written in; Paxos: the ballot the slot's
   * value was chosen in (the log is the learner's chosen slots); 2PC: the transaction id.
   */
  term: number;
  /**
   * update / noop / read: a state-machine command (Raft, Paxos); record: a Kafka record;
   * prepare / commit / abort: a 2PC participant's stable-log records (it voted yes; it learned the
   * decision).
   */
  kind: 'update' | 'noop' | 'read' | 'record' | 'prepare' | 'commit' | 'abort';
  worker?: NodeId;
  seq?: number;
}

/**
 * A node's replicated log, for the engine to follow. Entries must be immutable objects that are
 * replaced, never mutated: the engine compares them by identity from the tail to find what was
 * appended or truncated (Raft's log matching makes an identical entry imply an identical prefix).
 */
export interface NodeLog<E extends object = object> {
  /** Index of entries[0]: 1 for Raft, 0 for Kafka offsets. */
  base: number;
  entries: readonly E[];
  /** The view of one entry (called only for newly appended ones). */
  item(e: E): LogItem;
}
