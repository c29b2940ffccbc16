import type { NodeId } from '../../sim/types';
import type { CoordStore } from './store';
import type { EpochReply, NewEpoch, NewLeader, Proposal, ZabCore } from './zab';

/**
 * A ZooKeeper server as the driver (zookeeper.ts, zkBroadcast.ts) holds it: Zab's core state
 * (zab.ts) plus its data tree and timers, and the Zab messages servers exchange.
 */

/** What ZooKeeper servers send each other (Zab's phases, pings, FOLLOWERINFO, sync). */
export type ZabMsg =
  | ({ z: 'newEpoch' } & NewEpoch)
  | { z: 'ackEpoch'; r: EpochReply }
  | ({ z: 'newLeader' } & NewLeader)
  /** The follower holds the leader's history up to `upTo` (1-based length). */
  | { z: 'ackLd'; epoch: number; upTo: number }
  | ({ z: 'propose' } & Proposal)
  | { z: 'ack'; epoch: number; index: number }
  | { z: 'commit'; epoch: number; upTo: number }
  /** `last`: the leader's history length, so a follower that missed the latest proposals asks to resync. */
  | { z: 'ping'; epoch: number; committed: number; last: number }
  | { z: 'pingAck'; epoch: number }
  /** FOLLOWERINFO: a server asks the leader to sync it (it joined late, or missed proposals). */
  | { z: 'info'; acceptedEpoch: number }
  | { z: 'sync'; client: NodeId; reqId: number; key: string }
  | { z: 'syncDone'; client: NodeId; reqId: number; key: string };

/** Zab's state plus the driver's: the tree, failure detection, role timers, waiting sync()s. */
export interface ZServer extends ZabCore {
  x: {
    store: CoordStore;
    /** Follower: when it last heard from its leader. Leader: when it last heard from each follower. */
    lastHeard: number;
    heardFrom: Map<NodeId, number>;
    /** Changes on every role change: timers of an earlier role are void. */
    roleToken: number;
    electToken: number;
    /** Leader: sync() requests waiting for their proposals to commit. */
    syncs: Array<{ from: NodeId; client: NodeId; reqId: number; key: string; upTo: number }>;
  };
}

/** The message kind each Zab message is sent as. */
export const ZAB_KINDS: Record<ZabMsg['z'], string> = {
  newEpoch: 'vote',
  ackEpoch: 'vote',
  newLeader: 'append',
  ackLd: 'ack',
  propose: 'append',
  ack: 'ack',
  commit: 'append',
  ping: 'heartbeat',
  pingAck: 'ack',
  info: 'vote',
  sync: 'coord',
  syncDone: 'coord',
};
