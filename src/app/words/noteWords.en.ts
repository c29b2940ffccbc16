import type { CheckKind, NoteTable } from './noteWords';
import { kindName } from '../views/strings';
import { list, lockKey, mergeRuleName, mib, setOf, tokenText } from './text';

/**
 * The strategies' typed notes in English (bundled, the first load). Its type is noteWords.ts's
 * NoteTable, as every language's is: a note added to facts.ts does not compile until each says it.
 */

export const notesEn: NoteTable = {
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
  apply: (d, who) =>
    d.staleness < 0
      ? `${who} applies ${d.worker}'s update #${d.seq}, computed on parameters read before ${who}'s offset went back with the truncated log`
      : `${who} applies ${d.worker}'s update #${d.seq} (staleness ${d.staleness})`,
  checkpoint: (d, who) => `${who} checkpoints version ${d.version}`,
  pushTimeout: (d, who) => `${who}: no acknowledgement from the server (${d.unacked} pending) — training locally`,
  pullTimeout: (_d, who) => `${who}: no parameters from the server in time`,
  barrierBlocked: (d, who) => `${who} waits at the barrier of round ${d.round}`,
  lateGradient: (d, who) => `${who} drops ${d.worker}'s late gradient for round ${d.round}`,
  retransmit: (d, who) => `${who} retransmits (round ${d.round})`,
  sspBlocked: (d, who) => `${who} blocks at clock ${d.clock} until the slowest reaches ${d.need}`,
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
  partitionDetected: (d, who) => `${who} detects a network partition; its side ${setOf(d.side)}`,
  modeSwitch: (d, who) => (d.to === 'eventual' ? `${who} switches to eventual mode (epoch ${d.epoch})` : `${who} returns to strong mode (epoch ${d.epoch})`),
  merge: (d, who) => {
    const rule = mergeRuleName(d.rule, 'en');
    const lost = d.lostWork > 0 ? `, ${d.lostWork} local steps discarded` : '';
    const replayed = d.replayed > 0 ? `, ${d.replayed} gradients replayed` : '';
    return `${who} merges the sides (${rule}, epoch ${d.epoch}${lost}${replayed})`;
  },
  mergeAborted: (d, who) => `${who} aborts the merge of epoch ${d.epoch}: only ${list(d.reachable, 'en')} reachable`,
  fenced: (d, who) => {
    if ('token' in d) {
      const op = d.what === 'write' ? 'write' : 'read';
      return `${who} refuses ${d.from}'s ${op}: its fencing token ${tokenText(d.token)} is older than ${tokenText(d.newest)}, which it has already seen — ${d.from} lost the lock while it worked`;
    }
    const what = { ring: 'a ring message', contribution: 'a merge contribution', merged: 'a merged model', checkpoint: 'a checkpoint write' }[d.what];
    const from = d.from ? ` from ${d.from}` : '';
    return `${who} refuses ${what}${from} carrying epoch ${d.epoch} (current ${d.current})`;
  },
  staleWriteAccepted: (d, who) =>
    'token' in d
      ? `${who} accepts ${d.from}'s write made under fencing token ${tokenText(d.token)}, although it has already seen ${tokenText(d.newest)}: it does not check tokens, so two lock holders wrote`
      : `the store accepts ${who}'s checkpoint of epoch ${d.epoch} although it holds epoch ${d.storeEpoch}: split brain`,
  epochGranted: (d, who) =>
    d.ours
      ? `the coordination service grants epoch ${d.epoch} to ${who}'s side ${setOf(d.side)}`
      : `${who} asked for epoch ${d.epoch}, but the service had already granted it to ${setOf(d.side)}: ${who}'s side keeps its old epoch`,
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
  tamperAccepted: (d, who) => {
    const chk = checkName(d.check);
    return `${who} applied a ${kindName(d.kind, 'en')} message from ${d.from} that a man-in-the-middle altered (${attackName(d.attack)}); its check (${chk}) did not catch it`;
  },
  tamperRejected: (d, who) => `${who} refused a ${kindName(d.kind, 'en')} message from ${d.from} altered in transit (${attackName(d.attack)}): its ${checkName(d.check)} check failed`,
  replayAccepted: (d, who) => `${who} applied a replayed ${kindName(d.kind, 'en')} message from ${d.from} a second time`,
  replayRejected: (d, who) => `${who} refused a replayed ${kindName(d.kind, 'en')} message from ${d.from} (${checkName(d.check)})`,
  byzantineOutlierDropped: (d, who) => `round ${d.round}: the ${ruleName(d.rule)} aggregation left out ${who}'s gradient`,
  transient: (d, who) => `${who}: step ${d.step} is ${d.slowdown}× slower (a transient straggler)`,
  targetReached: (d, _who) => `target loss reached after ${d.steps} steps`,
  actionSkipped: (d, _who) => `action skipped: ${d.selector} matched no node`,
  actionIgnored: (d, who) =>
    d.reason === 'no-coordination-service'
      ? 'no coordination service runs here: there is no metadata to write'
      : d.reason === 'no-leader'
        ? 'the coordination service has no leader now: the metadata write is not taken'
        : `${who} has no election timer: the action means nothing here`,
  resumed: (d, who) =>
    `${who} resumes after a ${(d.pausedMs / 1000).toFixed(1)} s pause and handles the ${d.queued} ${d.queued === 1 ? 'event' : 'events'} that waited meanwhile`,
};

function checkName(c: CheckKind): string {
  return { none: 'no check', sha256: 'SHA-256', hmac: 'HMAC', tls: 'TLS', sequence: 'sequence number' }[c];
}

function attackName(a: string): string {
  const names: Record<string, string> = { flip: 'sign flip', scale: 'scaled', noise: 'noise', replay: 'replay' };
  return names[a] ?? a;
}

function ruleName(r: string): string {
  const names: Record<string, string> = { mean: 'mean', median: 'coordinate-wise median', 'trimmed-mean': 'trimmed-mean', krum: 'Krum', 'multi-krum': 'Multi-Krum' };
  return names[r] ?? r;
}
