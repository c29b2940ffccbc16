import type { HistoryEvent } from '../sim/types';

/**
 * Client operations on the replicated parameters, derived from the 'op' history events that
 * strategies record through `ctx.op` (Jepsen-style: invoke, then ok / fail / info).
 */

export interface Op {
  id: number;
  process: string;
  f: 'read' | 'update';
  /** Simulated ms of the invocation. */
  invoke: number;
  /** Simulated ms of the ok; null while pending (info, or never completed: crash, partition). */
  complete: number | null;
  /** 'info' = indeterminate (Jepsen): it may or may not have taken effect. */
  status: 'ok' | 'info' | 'fail';
  /** A read: the version read. An update: the version it produced, when the strategy knows it. */
  version?: number;
  /** Fingerprint of the parameters read or produced, when known. */
  hash?: string;
}

/** One line of the exported history (`npm run sim -- FILE --history OUT.jsonl`), Jepsen's shape. */
export interface HistoryLine {
  process: string;
  type: 'invoke' | 'ok' | 'fail' | 'info';
  f: 'read' | 'update';
  /** Read: { version, hash } read. Update: { version, hash } produced if known, else null. */
  value: { version?: number; hash?: string } | null;
  /** Simulated ms. */
  time: number;
  /** Pairs an invocation with its completion (a worker may have several operations open). */
  id: number;
}

type OpEvent = Extract<HistoryEvent, { type: 'op' }>;

export function historyLines(events: readonly HistoryEvent[]): HistoryLine[] {
  const out: HistoryLine[] = [];
  for (const e of events) {
    if (e.type !== 'op') continue;
    const value = valueOf(e);
    out.push({ process: e.process, type: e.op, f: e.f, value, time: e.t, id: e.opId });
  }
  return out;
}

function valueOf(e: OpEvent): HistoryLine['value'] {
  if (e.version === undefined && !e.v) return null;
  return { ...(e.version !== undefined ? { version: e.version } : {}), ...(e.v ? { hash: e.v.hash } : {}) };
}

/**
 * Pairs invocations with completions by op id (of the parameters, or of the metadata `key`). The first completion wins (a duplicated reply is
 * not a second operation); a completion without an invocation is taken as instantaneous.
 */
export function opsFromHistory(events: readonly HistoryEvent[], key?: string): Op[] {
  const byId = new Map<number, Op>();
  const done = new Set<number>();
  for (const e of events) {
    // The parameters (no key), or one metadata key of the coordination service.
    if (e.type !== 'op' || e.key !== key) continue;
    let op = byId.get(e.opId);
    if (!op) {
      op = { id: e.opId, process: e.process, f: e.f, invoke: e.t, complete: null, status: 'info' };
      byId.set(e.opId, op);
    }
    if (e.op === 'invoke' || done.has(e.opId)) continue;
    done.add(e.opId);
    op.status = e.op;
    if (e.op === 'ok') op.complete = e.t;
    if (e.version !== undefined) op.version = e.version;
    if (e.v) op.hash = e.v.hash;
  }
  return [...byId.values()];
}
