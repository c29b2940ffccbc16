import type { Op } from './ops';
import type { CheckMode, Witness } from './linearizabilityModel';

/**
 * Cheap pair patterns tried before the linearizability search (a fork, a stale read, a lost
 * update, a regression): each is a witness that no sequential order exists, and it is the
 * explanation a person can read. The search (./linearizability) decides the rest.
 */

export function findWitness(all: readonly Op[], mode: CheckMode = 'register'): Witness | null {
  const ok = all.filter((o) => o.status === 'ok' && o.complete !== null);
  const found: Witness[] = [];
  const fork = findFork(ok);
  if (fork) found.push(fork);
  const updates = ok.filter((o) => o.f === 'update');
  const regression = findStale(updates, updates, 'regression');
  if (regression) found.push(regression);
  if (mode === 'register') {
    const reads = ok.filter((o) => o.f === 'read');
    const stale = findStale(ok, reads, 'stale-read');
    if (stale) found.push(stale);
    const lost = findLost(updates, reads);
    if (lost) found.push(lost);
  }
  // The earliest witness (by the time its later operation completed) is the one to show.
  found.sort((x, y) => end(x) - end(y));
  return found[0] ?? null;
}

const end = (w: Witness) => (w.b ?? w.a).complete ?? Infinity;

/** Two operations that saw one version with two different parameter sets. */
function findFork(ok: readonly Op[]): Witness | null {
  const first = new Map<number, Op>();
  let best: Witness | null = null;
  for (const o of [...ok].sort((x, y) => x.complete! - y.complete!)) {
    if (o.version === undefined || o.hash === undefined) continue;
    const seen = first.get(o.version);
    if (!seen) first.set(o.version, o);
    else if (seen.hash !== o.hash) {
      best = { kind: 'fork', a: seen, b: o };
      break;
    }
  }
  return best;
}

/**
 * An operation b (of `later`) that returned or produced a version older than one an operation
 * a (of `earlier`) had completed with before b was invoked: versions never go back.
 */
function findStale(earlier: readonly Op[], later: readonly Op[], kind: 'stale-read' | 'regression'): Witness | null {
  const byEnd = earlier.filter((o) => o.version !== undefined).sort((x, y) => x.complete! - y.complete!);
  const byInvoke = later.filter((o) => o.version !== undefined).sort((x, y) => x.invoke - y.invoke);
  let i = 0;
  let max: Op | null = null;
  let best: Witness | null = null;
  for (const b of byInvoke) {
    while (i < byEnd.length && byEnd[i].complete! < b.invoke) {
      if (!max || byEnd[i].version! > max.version!) max = byEnd[i];
      i++;
    }
    if (max && max.version! > b.version! && (!best || b.complete! < best.b!.complete!)) best = { kind, a: max, b };
  }
  return best;
}

/**
 * A read of version v that began after more than v distinct updates had completed: an
 * acknowledged update is missing from what it read.
 */
function findLost(updates: readonly Op[], reads: readonly Op[]): Witness | null {
  const byEnd = [...updates].sort((x, y) => x.complete! - y.complete!);
  const byInvoke = reads.filter((o) => o.version !== undefined).sort((x, y) => x.invoke - y.invoke);
  const knownKeys = new Set<string>();
  let count = 0;
  let i = 0;
  let last: Op | null = null;
  for (const r of byInvoke) {
    while (i < byEnd.length && byEnd[i].complete! < r.invoke) {
      const u = byEnd[i++];
      // Collective participants (same version, same parameters) are one update.
      const key = u.version === undefined ? null : `${u.version}:${u.hash ?? u.id}`;
      if (key === null || !knownKeys.has(key)) {
        if (key !== null) knownKeys.add(key);
        count++;
        last = u;
      }
    }
    if (last && count > r.version!) return { kind: 'lost-update', a: last, b: r, count };
  }
  return null;
}
