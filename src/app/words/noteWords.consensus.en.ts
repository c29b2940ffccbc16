import type { ConsensusNotes } from './noteWords';
import { lockKey, mib, setOf, tokenText } from './text';

/**
 * The consensus protocols' notes in English — Raft (raft-ps, etcd), Kafka, the coordination
 * service, two-phase commit, Multi-Paxos: a chunk of its own, loaded with a run that has one of
 * them (noteWords.ts `loadNoteWords`), so a parameter-server page does not carry their words.
 */

export const consensusNotesEn: ConsensusNotes = {
  electionStarted: (d, who, v) =>
    v === 'paxos'
      ? `${who} starts phase 1 with ballot ${d.term}`
      : v === 'zab'
        ? `${who} is looking for a leader and proposes epoch ${d.term}`
        : `${who} starts an election for term ${d.term}`,
  leaderElected: (d, who, v) =>
    v === 'paxos'
      ? `${who} leads with ballot ${d.term}: a majority promised`
      : v === 'zab'
        ? `${who} leads epoch ${d.term}: a majority of the ensemble follows it`
        : d.partition !== undefined
          ? d.clean === false
            ? `${who} leads topic partition ${d.partition} (epoch ${d.term}) — an unclean election`
            : `${who} leads topic partition ${d.partition} (epoch ${d.term})`
          : `${who} elected leader for term ${d.term}`,
  leaderStepDown: (d, who, v) =>
    v === 'paxos'
      ? d.from
        ? `${who} steps down (ballot ${d.term}): ${d.from}'s message showed a higher ballot`
        : `${who} steps down (ballot ${d.term})`
      : v === 'zab'
        ? `${who} stops leading (epoch ${d.term})`
        : d.from
          ? `${who} steps down: ${d.from}'s message carried term ${d.term}`
          : `${who} steps down (term ${d.term})`,
  commit: (d, who, v) =>
    v === 'paxos'
      ? `${who} learns slots up to ${d.index} chosen`
      : v === 'zab'
        ? `${who} commits transactions up to number ${d.index}`
        : `${who} commits up to index ${d.index}`,
  entryOverwritten: (d, who) => `${who}: ${d.count} uncommitted ${d.count === 1 ? 'entry' : 'entries'} from index ${d.index} overwritten`,
  snapshotTaken: (d, who) => `${who} snapshots its state machine at index ${d.index} and drops the log up to it`,
  snapshotInstalled: (d, who) => `${who} installs ${d.from}’s snapshot up to index ${d.index}: the entries it lacked were compacted`,
  updateAbandoned: (d, who) => `${who} abandons update #${d.seq}`,
  staleRead: (d, who) =>
    d.key !== undefined
      ? `${who} read ${d.key} at version ${d.version} from ${d.server}, but version ${d.newest} was committed before the read began: a stale read`
      : `${who} read version ${d.version} from ${d.server}, but ${d.newest} was already committed: a stale read`,
  timeoutIgnored: (_d, who) => `${who} leads: its election timer is not running`,
  // Negative only where a Kafka replica's offset went back under the gradient's read (a truncated log).
  brokerFenced: (_d, who) => `${who} fenced: the controller stopped hearing it`,
  isrShrink: (d, who) => `${who} leaves the ISR of topic partition ${d.partition}: ISR ${setOf(d.isr)}`,
  isrExpand: (d, who) => `${who} rejoins the ISR of topic partition ${d.partition}: ISR ${setOf(d.isr)}`,
  partitionOffline: (d, _who) => `topic partition ${d.partition} offline: no in-sync replica alive`,
  uncleanElection: (d, who) => `unclean election: ${who} leads topic partition ${d.partition} without the records from offset ${d.lostFrom} (HW was ${d.committed})`,
  notEnoughReplicas: (d, who) => `${who} refuses a write: ISR of topic partition ${d.partition} has ${d.isr}, fewer than min.insync.replicas`,
  truncate: (d, who) => `${who} truncates topic partition ${d.partition} from offset ${d.from} to ${d.to}`,
  offlinePartition: (d, who) => `${who}: topic partition ${d.partition} is offline`,
  produceError: (_d, who) => `${who}: a write failed and will be retried`,
  offsetOutOfRange: (d, who) => `${who}: applied offset ${d.applied} is past the log end ${d.leo} of topic partition ${d.partition}`,
  consumerCaughtUp: (_d, who) => `${who} caught up with the log`,
  paramsRead: (d, who) =>
    d.token !== undefined
      ? `${who} reads the parameters (version ${d.version}) under its lock, fencing token ${tokenText(d.token)}`
      : `${who} reads the parameters (version ${d.version})`,
  requestTooLarge: (d, who) => `${who} refuses ${d.from}'s request of ${mib(d.bytes)}: "request is too large" (limit ${mib(d.limit)})`,
  lockAcquired: (d, who) => `${who} takes the lock ${lockKey(d.lock)}, fencing token ${tokenText(d.token)}`,
  lockReleased: (d, who) => `${who} releases the lock ${lockKey(d.lock)} (token ${tokenText(d.token)})`,
  leaseExpired: (d, who, _v, coord) =>
    coord === 'zookeeper'
      ? `leader ${d.server} closes ${who}'s session: no heartbeat within its timeout, so its ephemeral nodes (a lock it held or queued for) are deleted`
      : `leader ${d.server} expires ${who}'s lease: no keep-alive within its TTL, so the keys attached to it (a lock it held or queued for) are deleted`,
  sessionLost: (_d, who, _v, coord) =>
    coord === 'zookeeper' ? `${who} learns that its session expired and opens a new one` : `${who} learns that its lease is gone and asks for a new one`,
  metaWritten: (d, who) => `${who} commits ${d.key} = "${d.value}" (version ${d.version})`,
  metaRead: (d, who) =>
    d.stale
      ? `${who} reads ${d.key} from ${d.server}: version ${d.version}, stale`
      : `${who} reads ${d.key} from ${d.server}: version ${d.version}`,
  coordFailover: (d, who) => `${who}: ${d.from} does not answer, so it moves its session to ${d.to}`,
  '2pc.prepareSent': (d, who) => `${who} sends PREPARE for transaction ${d.tx} to all ${d.participants} participants`,
  '2pc.inDoubt': (d, who) => `${who} is in doubt about transaction ${d.tx}: it voted yes and blocks until it learns the decision`,
  '2pc.decided': (d, who) => {
    const why = { 'all-yes': 'every vote was yes', 'vote-no': 'a vote was no', 'vote-timeout': 'a vote did not come in time', recovery: 'it had not decided before its crash (presumed abort)' }[d.reason];
    return d.decision === 'commit'
      ? `${who} decides to commit transaction ${d.tx}: ${why}`
      : `${who} decides to abort transaction ${d.tx}: ${why}`;
  },
  '2pc.resolved': (d, who) =>
    d.decision === 'commit'
      ? `${who} learns from ${d.from} that transaction ${d.tx} committed`
      : `${who} learns from ${d.from} that transaction ${d.tx} aborted`,
  'paxos.recovered': (d, who) =>
    `${who} (ballot ${d.ballot}) re-proposes ${d.recovered} ${d.recovered === 1 ? 'value' : 'values'} accepted before from slot ${d.from}${d.noops ? `, and fills ${d.noops} ${d.noops === 1 ? 'gap' : 'gaps'} with no-ops` : ''}`,
};
