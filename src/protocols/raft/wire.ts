import type { WireCodec } from '../wire';
import type { RaftMsg } from './messages';

type Update = Extract<RaftMsg, { t: 'update' }>;
type Params = Extract<RaftMsg, { t: 'params' }>;

/**
 * What the security layer protects of raft-ps: a client's update (seq, basedOn, gradient) to the
 * leader and the parameters a server answers a read with (version, parameters). Raft's own
 * messages between servers are not covered (the replicated log is the servers' business).
 */
export const raftWire: WireCodec = {
  read(kind, payload, from, to) {
    const m = payload as RaftMsg;
    if (kind === 'gradient' && m.t === 'update') return { worker: from, step: m.seq, labels: [m.basedOn], vectors: [m.grad] };
    if (kind === 'params' && m.t === 'params') return { worker: to, step: m.version, labels: [m.readId], vectors: [m.params] };
    return null;
  },
  write(kind, payload, body) {
    if (kind === 'gradient') return { ...(payload as Update), seq: body.step, basedOn: body.labels[0] ?? 0, grad: body.vectors[0] } satisfies Update;
    return { ...(payload as Params), version: body.step, readId: body.labels[0] ?? 0, params: body.vectors[0] } satisfies Params;
  },
};
