import type { CheckKind, CoreNotes } from './noteWords';
import { kindName } from '../views/strings';
import { list, mergeRuleName, setOf, tokenText } from './text';

/**
 * The strategies' typed notes in English, bundled in the first load: those of the parameter
 * servers, degrade, security and the engine. The consensus protocols' are in
 * noteWords.consensus.en.ts, loaded with a run that needs them. With it this makes noteWords.ts's
 * NoteTable, as every language's table is: a note added to facts.ts does not compile until each says it.
 */

export const notesEn: CoreNotes = {
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
