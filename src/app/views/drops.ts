import type { DropMark, MessageSpan, RunIndex } from '../../engine/index/runIndex';
import { lastAtOrBefore } from '../../engine/index/series';

/** Drops in (t − windowMs, t], newest first (the topology flashes a ✕ where each was lost). */
export function dropsNear(ix: RunIndex, t: number, windowMs: number): DropMark[] {
  const hi = lastAtOrBefore(ix.drops, t, (d) => d.t);
  const out: DropMark[] = [];
  for (let i = hi; i >= 0 && ix.drops[i].t > t - windowMs; i--) out.push(ix.drops[i]);
  return out;
}

/** A message's span by id, found from its send time (messages are ordered by send time). */
export function messageById(ix: RunIndex, id: number, sentAt: number): MessageSpan | undefined {
  const ms = ix.messages;
  for (let i = ms.firstSentAtOrAfter(sentAt); i < ms.length && ms.sentAt(i) === sentAt; i++) {
    if (ms.id(i) === id) return ms.get(i);
  }
  return undefined;
}
