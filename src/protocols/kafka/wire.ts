import { updatesBody, updatesOf, type WireCodec } from '../wire';
import type { Payload, Rec } from './types';

type Produce = Extract<Payload, { t: 'produce' }>;
type Params = Extract<Payload, { t: 'params' }>;

/**
 * What the security layer protects of kafka-ps: a producer's records (seq, basedOn, gradient each)
 * to the partition leader and a PS replica's parameters to a worker (offset, parameters). Broker
 * replication and consumer fetches are not covered.
 */
export const kafkaWire: WireCodec = {
  read(kind, payload, from, to) {
    const m = payload as Payload;
    if (kind === 'gradient' && m.t === 'produce') return updatesBody(from, m.records, (r) => r.seq);
    if (kind === 'params' && m.t === 'params') return { worker: to, step: m.offset, labels: [m.reqId], vectors: [m.params] };
    return null;
  },
  write(kind, payload, body) {
    if (kind === 'gradient') {
      const m = payload as Produce;
      // A forged record keeps the producer's identity fields (epoch, pid, worker) of the message it rides in.
      const records = updatesOf(body).map((u, i): Rec => ({ ...(m.records[i] ?? m.records[m.records.length - 1]), seq: u.label, basedOn: u.basedOn, grad: u.grad }));
      return { ...m, records } satisfies Produce;
    }
    return { ...(payload as Params), offset: body.step, reqId: body.labels[0] ?? 0, params: body.vectors[0] } satisfies Params;
  },
};
