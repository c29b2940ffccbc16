import { updatesBody, updatesOf, type WireCodec } from './wire';

/**
 * The messages of `ssp` (ssp.ts) between the workers and the server, and their wire codec (what
 * the security layer protects of them).
 */

export interface Update {
  clock: number;
  grad: Float32Array;
  basedOn: number;
}
export interface PushMsg {
  updates: Update[];
  /** The read this worker needs: minClock ≥ need (null: no read wanted). */
  need: number | null;
  /** The sender's incarnation (boot counter). */
  inc: number;
  /** A restarted worker's pull: the server answers with where its clock stands. */
  hello?: boolean;
}
export interface ParamsMsg {
  params: Float32Array;
  version: number;
  minClock: number;
  /** Clocks of this worker applied by the server (its updates 0 … acked−1). */
  acked: number;
  /** The incarnation whose hello this answers (absent: not an answer to a hello). */
  hello?: number;
}
export interface AckMsg {
  acked: number;
}

/** Pushes carry (clock, basedOn, gradient) per update; parameters carry (version, minClock, acked, parameters). */
export const sspWire: WireCodec = {
  read(kind, payload, from, to) {
    if (kind === 'gradient') return updatesBody(from, (payload as PushMsg).updates, (u) => u.clock);
    if (kind === 'params') {
      const m = payload as ParamsMsg;
      return { worker: to, step: m.version, labels: [m.minClock, m.acked], vectors: [m.params] };
    }
    return null;
  },
  write(kind, payload, body) {
    if (kind === 'gradient') return { ...(payload as PushMsg), updates: updatesOf(body).map((u) => ({ clock: u.label, basedOn: u.basedOn, grad: u.grad })) } satisfies PushMsg;
    return { ...(payload as ParamsMsg), version: body.step, minClock: body.labels[0] ?? 0, acked: body.labels[1] ?? 0, params: body.vectors[0] } satisfies ParamsMsg;
  },
};
