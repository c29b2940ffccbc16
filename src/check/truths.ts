import type { HistoryEvent, NodeId } from '../sim/types';

/**
 * What a strategy must show about availability, read from the history alone (TRUTHS: "Paxos
 * needs every participant to agree" is wrong — a majority is enough; needing everyone is 2PC):
 *
 * - 2pc-ps: with a participant down, nothing commits. A transaction whose PREPARE went out while a
 *   server was down, and that stayed down until the decision, must not commit: that server never
 *   voted.
 * - paxos-ps: while a majority lives, it keeps choosing. Whenever a majority of the servers has
 *   been up (not crashed, not paused), and the network whole (no partition, cut or lossy / slow
 *   link), for `windowMs`, some update has been chosen in that time.
 *
 * Strategies without a row return no problems.
 */

/** Long enough for an election (2 × the largest timeout) and a few round trips. */
export const MAJORITY_WINDOW_MS = 1500;

export function truthProblems(kind: string, events: readonly HistoryEvent[], servers: readonly NodeId[]): string[] {
  if (kind === '2pc-ps') return twoPcTruth(events);
  if (kind === 'paxos-ps') return majorityTruth(events, servers);
  return [];
}

function twoPcTruth(events: readonly HistoryEvent[]): string[] {
  const downSince = new Map<NodeId, number>();
  const prepared = new Map<number, number>();
  const out: string[] = [];
  for (const e of events) {
    if (e.type === 'crash' && e.node[0] === 's') downSince.set(e.node, e.t);
    else if (e.type === 'restart') downSince.delete(e.node);
    else if (e.type === 'note' && e.what === '2pc.prepareSent') prepared.set(e.data.tx, e.t);
    else if (e.type === 'note' && e.what === '2pc.decided' && e.data.decision === 'commit') {
      const sent = prepared.get(e.data.tx) ?? -Infinity;
      for (const [node, since] of downSince) {
        if (since <= sent) out.push(`tx ${e.data.tx} committed at ${e.t} ms although ${node} was down from ${since} ms, before its PREPARE (${sent} ms)`);
      }
    }
  }
  return out;
}

/** A link setting that can stop or stall messages (loss, or a latency far above the base). */
function hinders(a: Extract<HistoryEvent, { type: 'action' }>['action']): boolean | null {
  if (a.do !== 'link') return null;
  if ((a.loss ?? 0) > 0 || (a.latencyMs ?? 0) > 50) return true;
  return a.loss !== undefined || a.latencyMs !== undefined ? false : null;
}

function majorityTruth(events: readonly HistoryEvent[], servers: readonly NodeId[]): string[] {
  const need = Math.floor(servers.length / 2) + 1;
  const down = new Set<NodeId>();
  // A paused process (a GC pause) handles nothing until it resumes: not up for this rule. Its
  // resume is no event of its own, so it is due at the time the pause names.
  const pausedUntil = new Map<NodeId, number>();
  const cuts = new Set<string>();
  const slow = new Set<string>();
  let partitioned = false;
  // While healthy: the time since which a choice is awaited (the start of the stretch, or the last choice).
  let awaiting: number | null = 0;
  const out: string[] = [];
  const healthy = () => servers.filter((n) => !down.has(n) && !pausedUntil.has(n)).length >= need && !partitioned && cuts.size === 0 && slow.size === 0;
  const stalled = (t: number) => {
    if (awaiting === null || t - awaiting < MAJORITY_WINDOW_MS) return;
    out.push(`a majority of servers was up and the network whole from ${awaiting} to ${t} ms, and nothing was chosen`);
    awaiting = t; // report each stall once
  };
  /** The pauses over by `t`, in the order they end: a stretch may start at one's end. */
  const resume = (t: number) => {
    for (const [n, until] of [...pausedUntil].sort((a, b) => a[1] - b[1])) {
      if (until > t) break;
      const was = healthy();
      pausedUntil.delete(n);
      if (!was && healthy()) awaiting = until;
      stalled(until);
    }
  };
  for (const e of events) {
    resume(e.t);
    stalled(e.t);
    if (e.type === 'note' && e.what === 'apply') {
      if (awaiting !== null) awaiting = e.t;
      continue;
    }
    const was = healthy();
    if (e.type === 'crash') {
      down.add(e.node);
      pausedUntil.delete(e.node); // a crash ends the pause: the restart comes back running
    } else if (e.type === 'restart') down.delete(e.node);
    else if (e.type === 'action') {
      const a = e.action;
      if (a.do === 'pause') pausedUntil.set(a.node, Math.max(pausedUntil.get(a.node) ?? 0, e.t + a.ms));
      else if (a.do === 'partition') partitioned = true;
      else if (a.do === 'heal') {
        partitioned = false;
        cuts.clear();
      } else if (a.do === 'cut' || a.do === 'restore') {
        const links = a.oneWay ? [`${a.from}>${a.to}`] : [`${a.from}>${a.to}`, `${a.to}>${a.from}`];
        for (const l of links) {
          if (a.do === 'cut') cuts.add(l);
          else cuts.delete(l);
        }
      } else if (a.do === 'link') {
        const h = hinders(a);
        if (h === true) slow.add(`${a.from}>${a.to}`);
        else if (h === false) slow.delete(`${a.from}>${a.to}`);
      }
    } else continue;
    const now = healthy();
    if (was && !now) awaiting = null;
    if (!was && now) awaiting = e.t;
  }
  if (events.length) {
    resume(events[events.length - 1].t);
    stalled(events[events.length - 1].t);
  }
  return out;
}
