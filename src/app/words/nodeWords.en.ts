import type { NodeFacts } from '../../protocols/facts';
import type { CoordFacts, LockFacts, NodeSentences, Part, PsWorkerFacts, WordsContext } from './nodeWords';
import { list, lockKey, majority, mergeRuleName, setOf, tokenText } from './text';

/**
 * A node's typed facts in English (bundled, the first load). nodeWords.ts builds the
 * language's NodeTable from these sentences (the last line: a NodeSentences, so a kind of node
 * facts added to facts.ts does not compile until each language says it).
 */

/** Appended to a 2PC client's line: how many of its updates were aborted so far. */
const abortedSoFar = (n: number): string => ` · ${n} of its updates aborted so far`;

/** A paused process handles nothing (CURRICULUM §C.2 `pause`). `at`: seconds. */
const paused = (at: string): string => `paused since ${at} s (a GC pause): it handles nothing, and what reaches it waits in its queue`;

const termWord: Record<'term' | 'epoch' | 'ballot', string> = { term: 'term', epoch: 'epoch', ballot: 'ballot' };

/** The lock of ps-async's recipe (psAsyncRmw.ts) as the service stores it. */
const LOCK_KEY = lockKey('params');

/** A coordination-service server: role, what it committed and applied, leases or sessions, locks, metadata. */
function coordServerLines(f: CoordFacts): string[] {
  const zk = f.service === 'zookeeper';
  const out: string[] = [];
  const name = zk ? 'ZooKeeper' : 'etcd';
  if (zk) {
    if (f.role === 'leader') out.push(`${name} leader of epoch ${f.term} (Zab)`);
    else if (f.role === 'candidate') out.push(`${name}: elected for epoch ${f.term}, synchronising its followers before it serves`);
    else if (f.role === 'looking') out.push(`${name}: looking for a leader (epoch ${f.term})`);
    else out.push(f.leader ? `${name} follower in epoch ${f.term}; leader ${f.leader}` : `${name} follower in epoch ${f.term}; leader unknown`);
    out.push(`committed up to zxid ${tokenText(f.commit)}; applied up to ${tokenText(f.revision)}; answers reads from its own copy`);
  } else {
    if (f.role === 'leader') out.push(`${name} leader in term ${f.term} (Raft)`);
    else if (f.role === 'candidate' || f.role === 'looking') out.push(`${name} candidate in term ${f.term}`);
    else out.push(f.leader ? `${name} follower in term ${f.term}; leader ${f.leader}` : `${name} follower in term ${f.term}; leader unknown`);
    out.push(`commit index ${f.commit}; store at revision ${f.revision}`);
  }
  const owners = f.leases.map((l) => l.owner);
  out.push(
    owners.length === 0
      ? zk
        ? 'no open session'
        : 'no live lease'
      : zk
        ? `sessions of ${list(owners, 'en')}`
        : `leases of ${list(owners, 'en')}`,
  );
  for (const l of f.locks) {
    const key = l.name.startsWith('/') ? l.name : `/locks/${l.name}`;
    const queue = l.waiting.length ? `; queued: ${list(l.waiting, 'en')}` : '';
    out.push(
      zk
        ? `lock ${key}: ${l.holder} holds it (oldest ephemeral sequential node; fencing token zxid ${tokenText(l.token)})${queue}`
        : `lock ${key}: ${l.holder} holds it (oldest key under a lease; fencing token = its create revision ${l.token})${queue}`,
    );
  }
  if (f.meta.length) out.push(`metadata: ${f.meta.map((m) => `${m.key} v${m.version}`).join(', ')}`);
  return out;
}

/**
 * A ps-async worker in the lock recipe (writeLock "lease"): where it is in lock → read → compute →
 * write → release, and its lock as it believes it. A paused holder still believes it holds the lock.
 */
function lockWorkerLines(f: PsWorkerFacts, lock: LockFacts, paused: boolean, ctx: WordsContext): string[] {
  const tok = lock.token !== undefined ? tokenText(lock.token) : '?';
  const set = ctx.cfg.kind === 'ps-async' && ctx.cfg.writeMode === 'set';
  const out: string[] = [];
  if (f.phase === 'lock' || lock.state !== 'held') {
    out.push(lock.state === 'waiting' ? `waiting for the lock ${LOCK_KEY}: queued behind its holder` : `asking for the lock ${LOCK_KEY}`);
  } else {
    const step =
      f.phase === 'read'
        ? 'reading the parameters'
        : f.phase === 'write'
          ? set
            ? 'writing the whole parameter vector back'
            : 'writing its gradient'
          : 'computing its update on what it read';
    out.push(
      paused
        ? `believes it holds the lock (fencing token ${tok}) while ${step} — paused, it cannot know whether its lease has expired`
        : `holds the lock (fencing token ${tok}): ${step}`,
    );
  }
  const lease = ctx.coord === 'zookeeper' ? 'session' : 'lease';
  out.push(
    lock.session === 'ok'
      ? `${lease} on ${lock.server}, kept alive by its heartbeats`
      : lock.session === 'connecting'
        ? `opening a ${lease} on ${lock.server}`
        : `no ${lease} yet`,
  );
  return out;
}

function paxosServerLines(f: Extract<NodeFacts, { kind: 'paxos-server' }>): string[] {
  const out: string[] = [];
  if (f.role === 'leader') out.push(`leader (distinguished proposer) with ballot ${f.ballot ?? f.promised}: phase 1 done, it proposes every update`);
  else if (f.role === 'candidate') out.push(`candidate with ballot ${f.ballot ?? '?'}: ${f.promises ?? 1} of the ${f.need ?? '?'} promises it needs (phase 1)`);
  else out.push(f.leader ? `follower; leader ${f.leader}` : 'follower; leader unknown');
  out.push(`acceptor: promised ballot ${f.promised}, accepted values up to slot ${f.accepted}`);
  out.push(`learner: ${f.chosen} slots known chosen, applied (version ${f.version})`);
  return out;
}

function twoPcServerLines(f: Extract<NodeFacts, { kind: '2pc-server' }>): string[] {
  const out: string[] = [];
  if (f.coordinator) {
    out.push(
      f.tx !== null && f.tx !== undefined
        ? `coordinator: transaction ${f.tx} collecting votes, ${f.votes ?? 0} of ${f.participants ?? '?'} yes (every participant must vote yes)`
        : 'coordinator: no transaction open',
    );
    if (f.queued) out.push(`${f.queued} update${f.queued === 1 ? '' : 's'} queued for the next transactions`);
    if (f.decided) out.push(f.decided.decision === 'commit' ? `last decision in its log: transaction ${f.decided.tx} committed` : `last decision in its log: transaction ${f.decided.tx} aborted`);
  }
  if (f.prepared !== null)
    out.push(
      f.blocked
        ? `participant: voted yes on transaction ${f.prepared} and is in doubt — it can neither commit nor abort on its own, so it blocks and asks the others`
        : `participant: voted yes on transaction ${f.prepared}, waiting for the decision`,
    );
  else out.push(`participant: no transaction prepared (version ${f.version})`);
  return out;
}

/** A client of a replicated state machine (Paxos, 2PC): what it waits for. */
function rsmClientLine(phase: 'idle' | 'computing' | 'updating' | 'reading', seq: number, asking: string | null): string {
  const to = asking ? ` (asking ${asking})` : '';
  switch (phase) {
    case 'idle':
      return 'idle';
    case 'computing':
      return 'computing a gradient';
    case 'updating':
      return `waiting for its update #${seq} to be applied${to}`;
    case 'reading':
      return `reading the parameters${to}`;
  }
}

function ringLine(f: { round: number; phase: 'compute' | 'rs' | 'ag'; k: number; waitingFor: string | null }, ctx: WordsContext): string {
  if (f.phase === 'compute') return `computing its gradient for round ${f.round}`;
  const steps = Math.max(1, ctx.workers - 1);
  const from = f.waitingFor ?? '?';
  if (f.phase === 'rs') return `round ${f.round}, reduce-scatter ${f.k}/${steps}: waiting for a chunk from ${from}`;
  return `round ${f.round}, all-gather ${f.k}/${steps}: waiting for a chunk from ${from}`;
}

function psServerLines(f: Extract<NodeFacts, { kind: 'ps-server' }>): string[] {
  const out = [`parameters at version ${f.version}`];
  if (f.quorum !== undefined) {
    out.push(`round ${f.version + 1}: ${f.received ?? 0} of the ${f.quorum} gradients that close it`);
  }
  if (f.minClock !== undefined) {
    const s = f.staleness === null || f.staleness === undefined ? '∞' : String(f.staleness);
    const who = f.slowest && f.slowest.length > 0 ? ` (${f.slowest.join(', ')})` : '';
    out.push(`slowest clock ${f.minClock}${who}; bound s = ${s}`);
  }
  return out;
}

function psWorkerLine(f: Extract<NodeFacts, { kind: 'ps-worker' }>): string {
  const unacked = f.unacked ?? 0;
  const clock = f.clock !== undefined ? `clock ${f.clock}: ` : '';
  switch (f.state) {
    case 'pulling':
      return 'restarted: pulling the parameters before it may compute';
    case 'unreachable':
      return `server unreachable: training on its local copy, ${unacked} ${unacked === 1 ? 'update' : 'updates'} not acknowledged`;
    case 'waiting':
      if (f.waitFor === 'barrier') return `waiting at the barrier for round ${f.round ?? '?'} to close`;
      if (f.waitFor === 'bound') {
        const need = f.needClock ?? '?';
        const seen = f.seenMinClock !== undefined ? `; its last read saw slowest clock ${f.seenMinClock}` : '';
        return clock + `blocked until the slowest worker reaches clock ${need} (the staleness bound)` + seen;
      }
      return clock + 'waiting for parameters from the server';
    case 'training': {
      if (f.round !== undefined) return `computing round ${f.round}`;
      const pending = unacked > 0 ? `, ${unacked} ${unacked === 1 ? 'update' : 'updates'} awaiting acknowledgement` : '';
      return clock + 'computing' + pending;
    }
  }
}

function raftServerLines(f: Extract<NodeFacts, { kind: 'raft-server' }>, ctx: WordsContext): string[] {
  const out: string[] = [];
  if (f.role === 'leader') out.push(`leader in term ${f.term}`);
  else if (f.role === 'candidate') out.push(`candidate in term ${f.term}: ${f.votes ?? 1} of the ${majority(ctx.servers)} votes it needs`);
  else out.push(f.leader ? `follower in term ${f.term}; leader ${f.leader}` : `follower in term ${f.term}; leader unknown`);
  out.push(f.votedFor ? `voted for ${f.votedFor} in term ${f.term}` : `has not voted in term ${f.term}`);
  out.push(`commit index ${f.commitIndex}; applied ${f.lastApplied} ${f.lastApplied === 1 ? 'entry' : 'entries'} (version ${f.version})`);
  if (f.snapshot) out.push(f.compacted ? `snapshot up to index ${f.snapshot}; its log starts at index ${f.compacted + 1} (earlier boxes faded)` : `snapshot up to index ${f.snapshot}`);
  return out;
}

function raftClientLine(f: Extract<NodeFacts, { kind: 'raft-client' }>, ctx: WordsContext): string {
  const asking = f.asking ?? '?';
  switch (f.phase) {
    case 'idle':
      return 'idle';
    case 'computing':
      return 'computing a gradient';
    case 'updating':
      // A manual client offers each update to every server and may wait for several.
      if (f.pending !== undefined) return `waiting for ${f.pending === 1 ? 'an update' : `${f.pending} updates`} to commit (newest #${f.seq}, offered to every server)`;
      return `waiting for its update #${f.seq} to commit (asking ${asking})`;
    case 'reading': {
      const mode = ctx.cfg.kind === 'raft-ps' ? ctx.cfg.readMode : 'readIndex';
      return `reading the parameters (readMode ${mode}, asking ${asking})`;
    }
  }
}

function partLine(p: Part): string {
  const head = `topic partition ${p.p}`;
  const offsets = `LEO ${p.leo} · HW ${p.hw}`;
  if (p.offline) return `${head}: offline — no in-sync replica is alive (ISR ${setOf(p.isr ?? [])}) · ${offsets}`;
  if (p.role === 'leader') return `${head}: leader, epoch ${p.epoch}, ISR ${setOf(p.isr ?? [])} · ${offsets}`;
  if (p.leader) return `${head}: follower of ${p.leader}, epoch ${p.epoch} · ${offsets}`;
  return `${head}: follower (no leader known), epoch ${p.epoch} · ${offsets}`;
}

function consumerLine(f: Extract<NodeFacts, { kind: 'kafka-consumer' }>): string {
  // Caught up is the consumer's own view, from its last fetch: cut off since, it still believes it
  // while the log moves on (lag > 0), and says so.
  const state = !f.caughtUp ? 'replaying the log' : f.lag > 0 ? 'caught up as of its last fetch' : 'caught up';
  return `applied offset ${f.offset}, consumer lag ${f.lag} (${state})`;
}

function producerLine(f: Extract<NodeFacts, { kind: 'kafka-producer' }>): string {
  const part = `writes to topic partition ${f.partition}, reads from ${f.readsFrom}`;
  if (f.phase === 'ack') return `waiting for acknowledgements (${f.unacked} unacknowledged) · ${part}`;
  if (f.phase === 'pull') return `pulling parameters from ${f.readsFrom} · ${part}`;
  return `computing a gradient · ${part}`;
}

function degradeLines(f: Extract<NodeFacts, { kind: 'degrade-worker' }>, ctx: WordsContext): string[] {
  const out: string[] = [];
  if (f.mode === 'strong') {
    out.push(`strong mode, epoch ${f.epoch}`);
    if (f.ring) out.push(ringLine(f.ring, ctx));
  } else {
    const side = f.side ? setOf(f.side) : '?';
    const steps = f.localSteps ?? 0;
    if (f.mode === 'eventual') {
      const notMerged = `${steps} local ${steps === 1 ? 'step' : 'steps'} not merged yet`;
      if (f.epochFrom === 'service') {
        // With a service, the side is authoritative once the service granted it an epoch (majoritySide), whatever its size.
        out.push(
          f.majoritySide
            ? `eventual mode, epoch ${f.epoch} (granted by the service): local SGD on side ${side}, ${notMerged}`
            : `eventual mode, epoch ${f.epoch} (no newer epoch granted): local SGD on side ${side}, provisional, ${notMerged}`,
        );
      } else {
        const which = f.majoritySide ? 'majority' : 'minority';
        out.push(`eventual mode, epoch ${f.epoch}: local SGD on the ${which} side ${side}, ${notMerged}`);
      }
      if (f.stable) out.push('hears every worker again: waiting out healStableMs before it contributes to the merge');
    } else {
      const rule = mergeRuleName(ctx.cfg.kind === 'degrade' ? ctx.cfg.merge : 'average', 'en');
      const to = f.coordinator ? ` to ${f.coordinator}` : '';
      out.push(`merging (rule: ${rule}), epoch ${f.epoch}: ${steps} local ${steps === 1 ? 'step' : 'steps'} sent${to} for the merge`);
    }
  }
  if (f.epochPending !== undefined)
    out.push(`asked the coordination service for epoch ${f.epochPending}; until it answers, this side's work is provisional`);
  if (f.epochFrom && f.mode !== 'strong')
    out.push(
      f.epochFrom === 'service'
        ? 'epochs come from the coordination service, which grants each one once, to one side'
        : "epochs come from each side's own failure detector: no single authority grants them",
    );
  if (f.collected) out.push(`merge coordinator: holds ${f.collected} ${f.collected === 1 ? 'contribution' : 'contributions'}`);
  out.push(
    f.storeWriter
      ? `checkpoint store: epoch ${f.storeEpoch}, latest checkpoint written by ${f.storeWriter}`
      : `checkpoint store: epoch ${f.storeEpoch}, no checkpoint yet`,
  );
  return out;
}

/** Explicit, not `import * as`: a namespace object split the page's string catalog into a chunk of its own (+0.8 KiB gzip). */
export const sentencesEn: NodeSentences = { ringLine, psServerLines, psWorkerLine, lockWorkerLines, coordServerLines, raftServerLines, raftClientLine, partLine, consumerLine, producerLine, degradeLines, paxosServerLines, twoPcServerLines, rsmClientLine, abortedSoFar, paused, termWord };
