import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../cli/nodeSha256';
import { History, type Sha256Factory } from '../sim/history';
import { nobleSha256 } from '../sim/nobleSha256';
import type { HistoryEvent } from '../sim/types';
import { HashService, type HashReply, type HashRequest } from './hashService';
import { hashClient, type HashPort } from './workerSha256';

/**
 * A stand-in for the hash worker: the same service behind a port whose messages are delivered
 * later, in order (as a worker's are), and whose transferred buffers are detached as a real
 * transfer does (a client that kept using one would then hash zeros).
 */
function fakeWorker(opts: { failToStart?: boolean } = {}): { port: HashPort; service: HashService; settle(): Promise<void> } {
  const service = new HashService(nobleSha256);
  const onMessage: Array<(e: MessageEvent<HashReply>) => void> = [];
  const onError: Array<(e: Event) => void> = [];
  let queue = Promise.resolve();
  const port: HashPort = {
    postMessage(m: HashRequest, transfer: Transferable[]) {
      const copy = structuredClone(m, { transfer });
      queue = queue.then(async () => {
        if (opts.failToStart) return;
        const reply = await service.handle(copy);
        if (reply) for (const l of onMessage) l({ data: reply } as MessageEvent<HashReply>);
      });
    },
    addEventListener(type: 'message' | 'error', l: ((e: MessageEvent<HashReply>) => void) | ((e: Event) => void)) {
      if (type === 'message') onMessage.push(l as (e: MessageEvent<HashReply>) => void);
      else onError.push(l as (e: Event) => void);
    },
  };
  if (opts.failToStart) queueMicrotask(() => onError.forEach((l) => l(new Event('error'))));
  return { port, service, settle: () => queue };
}

const event = (i: number, withValue: boolean): HistoryEvent =>
  (withValue
    ? { t: i, type: 'version', node: `w${i % 3}`, version: i, v: { loss: i / 7 } }
    : { t: i, type: 'send', from: `w${i % 3}`, to: 's0', kind: 'push', bytes: 100 + i }) as unknown as HistoryEvent;

async function digestsOf(sha: Sha256Factory, events: HistoryEvent[]): Promise<{ scheduleHash: string; eventLogHash: string }> {
  const h = new History(sha);
  for (const e of events) h.append(e);
  return h.digests();
}

/** The client's SHA-256 streams alone: the lines written here, only their bytes hashed there. */
const linesHere = (sha: Sha256Factory): Sha256Factory => () => sha();

describe('the page’s hash worker (workerSha256 + hashService)', () => {
  it.each([
    ['rows sent, lines written there', (s: Sha256Factory) => s],
    ['lines written here, bytes sent', linesHere],
  ])('gives the digests node:crypto gives, for any history, asked at any point (%s)', async (_, how) => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { maxLength: 6000 }), fc.nat(6000), async (values, cut) => {
        const events = values.map((v, i) => event(i, v));
        const { port } = fakeWorker();
        const sha = how(hashClient(port));
        const h = new History(sha);
        const at = Math.min(cut, events.length);
        for (const e of events.slice(0, at)) h.append(e);
        const early = h.digests(); // asked mid-run, before the rest is appended
        for (const e of events.slice(at)) h.append(e);
        expect(await early).toEqual(await digestsOf(nodeSha256, events.slice(0, at)));
        expect(await h.digests()).toEqual(await digestsOf(nodeSha256, events));
      }),
      { numRuns: 25 },
    );
  });

  it('keeps each history’s streams apart, and lets a dropped stream go', async () => {
    const { port, service, settle } = fakeWorker();
    const sha = hashClient(port);
    const a = new History(sha);
    const b = new History(linesHere(sha));
    for (let i = 0; i < 50; i++) a.append(event(i, i % 4 === 0));
    b.append(event(1, false));
    expect(await a.digests()).toEqual(await digestsOf(nodeSha256, Array.from({ length: 50 }, (_, i) => event(i, i % 4 === 0))));
    expect(await b.digests()).toEqual(await digestsOf(nodeSha256, [event(1, false)]));
    expect(service.size).toBe(3); // a rebuilder for a's rows, two streams (schedule, log) for b's lines
    port.postMessage({ op: 'drop', id: 1 }, []);
    await settle();
    expect(service.size).toBe(2);
  });

  it('answers a history whose rows cannot be read with why, and goes on serving the others', async () => {
    const { port } = fakeWorker();
    const sha = hashClient(port);
    const bad = sha.rows!();
    const rows = { names: [], sends: { first: 0, f64: new Float64Array(0), i32: new Int32Array(0) }, delivers: { first: 0, f64: new Float64Array(0), i32: new Int32Array(0) } };
    // A value at an offset the batch has no words for.
    bad.add({ where: Uint8Array.of(2), refs: Int32Array.of(12), messages: rows, values: { strings: [], shapes: [], pieces: [] }, objects: [] });
    await expect(Promise.resolve(bad.digests())).rejects.toThrow(/rows could not be read: compact values: no value at 12/);
    const good = new History(sha);
    good.append(event(1, true));
    expect(await good.digests()).toEqual(await digestsOf(nodeSha256, [event(1, true)]));
  });

  it('says why when the worker never starts, instead of leaving the digest pending', async () => {
    const { port } = fakeWorker({ failToStart: true });
    const h = new History(hashClient(port));
    h.append(event(0, false));
    await expect(h.digests()).rejects.toThrow('the hash worker failed to start');
    await expect(h.digests()).rejects.toThrow('the hash worker failed to start');
  });

  it('refuses a synchronous read where the digest comes from a worker', () => {
    const h = new History(hashClient(fakeWorker().port));
    h.append(event(0, false));
    expect(() => h.scheduleHash()).toThrow('digests()');
  });
});
