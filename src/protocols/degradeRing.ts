import type { NodeId } from '../sim/types';
import type { WorkerState } from './degradeState';
import type { StrategyContext } from './strategy';

/**
 * `degrade`'s strong mode runs the ring all-reduce strategy unchanged (an AllreduceStrategy) through
 * the translating context built here: its messages and timers carry the worker's current epoch
 * (so a ring of an older epoch is fenced off), its versions are offset by the version the ring
 * started from (`base`).
 */

/** A ring message or timer, tagged with the epoch it belongs to. */
export interface Wrapped {
  epoch: number;
  inner: unknown;
}

/** The message kinds the ring sends (everything else is degrade's own). */
export const RING_KINDS = new Set(['chunk', 'nack', 'state-req', 'state']);

/** The context the ring sees: epoch-tagged messages and timers, versions relative to `base`. */
export function ringContext(c: StrategyContext, st: (id: NodeId) => WorkerState): StrategyContext {
  return {
    ...c,
    workers: c.workers,
    servers: c.servers,
    paramCount: c.paramCount,
    learningRate: c.learningRate,
    stepMs: c.stepMs,
    send: (from, to, kind, payload, bytes) => c.send(from, to, kind, { epoch: st(from).epoch, inner: payload } satisfies Wrapped, bytes),
    setTimer: (node, ms, tag, data) => c.setTimer(node, ms, `ring:${tag}`, { epoch: st(node).epoch, inner: data } satisfies Wrapped),
    startStep: (w, key) => c.startStep(w, st(w).base + (key ?? 0)),
    replica: (w) => {
      const r = c.replica(w);
      const base = st(w).base;
      return { params: r.params, version: r.version - base, synced: r.synced - base };
    },
    setReplica: (w, params, version, synced) => {
      const s = st(w);
      s.lastProgress = c.now();
      // The ring sets a replica only after a round, a state transfer or a restart from its
      // checkpoint: each time its checkpoint holds exactly these parameters (mirrored here).
      s.ckpt = { params: params.slice(), version: version + s.base, fromRing: true };
      c.setReplica(w, params, version + s.base, synced + s.base);
    },
  };
}
