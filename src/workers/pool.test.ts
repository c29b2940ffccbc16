import { beforeAll, describe, expect, it, vi } from 'vitest';
import { selectBackend } from '../train/backend';
import { LocalTrainer } from '../train/localTrainer';
import type { TrainerSpec } from '../train/types';
import { createHandler } from './handler';
import { WORKER_DEPTH, WorkerPool } from './pool';
import { COPY_MAX_ELEMENTS, type WorkerRequest, type WorkerResponse } from './protocol';

/**
 * An in-process stand-in for a module Worker: messages go through structuredClone with their
 * transfer lists (so detaching is real) and arrive asynchronously, as with postMessage.
 */
class FakeWorker {
  onmessage: ((e: MessageEvent<WorkerResponse>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  terminated = false;
  received: WorkerRequest[] = [];
  private readonly handle = createHandler(
    (msg, transfer) => {
      const copy = structuredClone(msg, { transfer });
      setTimeout(() => !this.terminated && this.onmessage?.({ data: copy } as MessageEvent<WorkerResponse>));
    },
    (err) => setTimeout(() => this.fail(err.message)),
  );

  constructor(private readonly opts: { failInit?: boolean } = {}) {}

  postMessage(msg: WorkerRequest, transfer: Transferable[]): void {
    const copy = structuredClone(msg, { transfer });
    this.received.push(copy);
    if (copy.kind === 'init' && this.opts.failInit) {
      setTimeout(() => this.fail('Uncaught SyntaxError: bad module'));
      return;
    }
    setTimeout(() => !this.terminated && void this.handle(copy));
  }

  fail(message: string): void {
    if (!this.terminated) this.onerror?.({ message, preventDefault: () => {} } as ErrorEvent);
  }

  terminate(): void {
    this.terminated = true;
  }
}

const spec: TrainerSpec = {
  model: { dataset: 'circles', hidden: [8, 8], batchSize: 16, learningRate: 0.1, samples: 200, noise: 0.1 },
  seed: 5,
  backend: 'cpu',
};

const batch = () => Uint32Array.from([0, 1, 2, 3, 4, 5, 6, 7]);

function poolOf(workers: FakeWorker[]): Promise<WorkerPool> {
  let i = 0;
  return WorkerPool.create(spec, { size: workers.length, workerFactory: () => workers[i++] as unknown as Worker });
}

beforeAll(async () => {
  await selectBackend('cpu');
});

describe('WorkerPool', () => {
  it('gives the same values as LocalTrainer, transfers params, spreads load', async () => {
    const fakes = [new FakeWorker(), new FakeWorker()];
    const pool = await poolOf(fakes);
    const local = await LocalTrainer.create(spec);
    expect(pool.paramCount).toBe(105);
    expect(pool.samples).toBe(200);
    expect(pool.initialParams()).toEqual(local.initialParams());
    expect(pool.backendFor('w0')).toBe('cpu');

    const p = pool.initialParams();
    const sent = p.slice();
    const got = await Promise.all(
      ['w0', 'w1', 'w2', 'w3'].map((node) => pool.gradient({ node, params: sent.slice(), batch: batch() })),
    );
    const want = await local.gradient({ node: 'w0', params: p.slice(), batch: batch() });
    for (const g of got) {
      expect(g.grad).toEqual(want.grad);
      expect(g.loss).toBe(want.loss);
    }
    // Both workers served: least-loaded dispatch, not node-to-thread binding.
    const counts = fakes.map((f) => f.received.filter((m) => m.kind === 'gradient').length);
    expect(counts).toEqual([2, 2]);
    // The caller's parameters are lent, not taken: a copy travels.
    const lent = p.slice();
    await pool.gradient({ node: 'w0', params: lent, batch: batch() });
    expect(lent).toEqual(p);

    expect(await pool.evaluate(p)).toEqual(await local.evaluate(p));
    expect(await pool.predictGrid(p, 10)).toEqual(await local.predictGrid(p, 10));
    expect(p.length).toBe(105);
    await pool.dispose();
    await local.dispose();
  });

  it.each([
    ['wasm', true],
    ['cpu', false],
  ] as const)('a %s worker hands a large model’s parameters back with the gradient: %s (cpu keeps views of them)', async (backend, back) => {
    const replies: Array<{ msg: WorkerResponse; transfer: Transferable[] }> = [];
    const handle = createHandler((msg, transfer) => replies.push({ msg, transfer }), (err) => {
      throw err;
    });
    const large: TrainerSpec = { ...spec, model: { ...spec.model, hidden: [64, 64] }, backend };
    await handle({ id: 1, kind: 'init', spec: large, worker: 0 });
    expect(replies[0].msg.ok).toBe(true);
    const params = (await LocalTrainer.create(large)).initialParams();
    expect(params.length).toBeGreaterThan(COPY_MAX_ELEMENTS);
    await handle({ id: 2, kind: 'gradient', node: 'w0', params, batch: batch() });
    const { msg, transfer } = replies[1];
    if (!msg.ok) throw new Error(msg.error);
    const result = msg.result as { grad: Float32Array; params?: Float32Array };
    expect(result.params === params).toBe(back);
    expect(transfer.includes(params.buffer)).toBe(back);
    expect(transfer.includes(result.grad.buffer)).toBe(true);
    expect(result.grad.length).toBe(params.length);
  });

  it('a small model’s arrays are copied, not transferred, both ways', async () => {
    const replies: Array<{ msg: WorkerResponse; transfer: Transferable[] }> = [];
    const handle = createHandler((msg, transfer) => replies.push({ msg, transfer }), (err) => {
      throw err;
    });
    await handle({ id: 1, kind: 'init', spec: { ...spec, backend: 'wasm' }, worker: 0 });
    const params = (await LocalTrainer.create(spec)).initialParams();
    await handle({ id: 2, kind: 'gradient', node: 'w0', params, batch: batch() });
    const { msg, transfer } = replies[1];
    if (!msg.ok) throw new Error(msg.error);
    expect(transfer).toEqual([]);
    expect((msg.result as { params?: Float32Array }).params).toBeUndefined();
    expect('at' in (msg.result as object)).toBe(false); // an untimed request's answer carries no times
    // The pool posts the caller's arrays with no transfer list: the clone leaves them whole.
    const fake = new FakeWorker();
    const pool = await poolOf([fake]);
    const p = pool.initialParams();
    const b = batch();
    await pool.gradient({ node: 'w0', params: p, batch: b });
    expect(p.length).toBe(105);
    expect(b.length).toBe(8);
    const sent = fake.received.find((m) => m.kind === 'gradient') as { params: Float32Array };
    expect(sent.params).not.toBe(p);
    expect(sent.params).toEqual(p);
    await pool.dispose();
  });

  it('a request that throws inside the worker rejects with its message; the worker lives on', async () => {
    const pool = await poolOf([new FakeWorker()]);
    pool.injectFault('w1');
    const params = pool.initialParams();
    await expect(pool.gradient({ node: 'w1', params: params.slice(), batch: batch() })).rejects.toThrow(
      /injected fault in worker 0 \(node w1\)/,
    );
    await expect(pool.gradient({ node: 'w1', params: params.slice(), batch: batch() })).resolves.toBeTruthy();
    expect(pool.workers()[0].alive).toBe(true);
    await pool.dispose();
  });

  it('a crashing worker rejects all its pending requests, naming it; others carry on', async () => {
    const fakes = [new FakeWorker(), new FakeWorker()];
    const pool = await poolOf(fakes);
    const params = pool.initialParams();
    pool.injectFault('w0', 'crash');
    const first = pool.gradient({ node: 'w0', params: params.slice(), batch: batch() });
    const second = pool.gradient({ node: 'w1', params: params.slice(), batch: batch() });
    const third = pool.gradient({ node: 'w2', params: params.slice(), batch: batch() }); // same worker as w0
    const results = await Promise.allSettled([first, second, third]);
    const crashed = fakes.findIndex((f) => f.terminated);
    expect(crashed).toBeGreaterThanOrEqual(0);
    expect(results[0].status).toBe('rejected');
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(
      new RegExp(`training worker ${crashed} \\(cpu\\) died: injected crash`),
    );
    expect(results.filter((r) => r.status === 'rejected').length).toBe(2);
    expect(pool.workers().filter((w) => w.alive).length).toBe(1);
    // Later requests go to the survivor.
    for (const node of ['w0', 'w1', 'w2']) {
      await expect(pool.gradient({ node, params: params.slice(), batch: batch() })).resolves.toBeTruthy();
    }
    // When none remain, requests reject.
    pool.injectFault('w0', 'crash');
    await expect(pool.gradient({ node: 'w0', params: params.slice(), batch: batch() })).rejects.toThrow(/died/);
    await expect(pool.gradient({ node: 'w0', params: params.slice(), batch: batch() })).rejects.toThrow(
      /no training worker left/,
    );
    await pool.dispose();
  });

  it('drops a worker that fails to start; fails to create when none start', async () => {
    const pool = await poolOf([new FakeWorker({ failInit: true }), new FakeWorker()]);
    expect(pool.workers().map((w) => w.alive)).toEqual([false, true]);
    expect(pool.backendFor('w9')).toBe('cpu');
    await pool.dispose();
    await expect(poolOf([new FakeWorker({ failInit: true })])).rejects.toThrow(
      /no training worker started: training worker 0 died: Uncaught SyntaxError: bad module/,
    );
  });
});

describe('WorkerPool scheduling', () => {
  it('serves queued gradient requests earliest-due first, WORKER_DEPTH in a worker’s hands at a time', async () => {
    const w = new FakeWorker();
    const pool = await poolOf([w]);
    const p = () => pool.initialParams();
    const done: string[] = [];
    const req = (node: string, priority: number) =>
      pool.gradient({ node, params: p(), batch: batch(), priority }).then(() => void done.push(node));
    // The first WORKER_DEPTH go to the idle worker at once, in the order asked; the rest wait and
    // leave in priority order.
    const first = Array.from({ length: WORKER_DEPTH }, (_, i) => `a${i}`);
    await Promise.all([...first.map((n, i) => req(n, 100 - i)), req('late', 30), req('soon', 5), req('mid', 20), req('mid2', 25)]);
    const order = [...first, 'soon', 'mid', 'mid2', 'late'];
    expect(done).toEqual(order);
    const sent = w.received.filter((m) => m.kind === 'gradient').map((m) => (m as { node: string }).node);
    expect(sent).toEqual(order);
    await pool.dispose();
  });

  it('records each gradient request’s timings when asked, in the order of its legs', async () => {
    const fakes: FakeWorker[] = [];
    const pool = await WorkerPool.create(spec, { size: 2, timings: true, workerFactory: () => fakes[fakes.push(new FakeWorker()) - 1] as unknown as Worker });
    await Promise.all(['w0', 'w1', 'w2'].map((node, i) => pool.gradient({ node, params: pool.initialParams(), batch: batch(), priority: i })));
    const ts = pool.takeTimings();
    expect(ts.length).toBe(3);
    for (const t of ts) {
      expect([0, 1]).toContain(t.worker);
      expect(t.sent).toBeLessThanOrEqual(t.taken);
      expect(t.taken).toBeLessThanOrEqual(t.replied);
      expect(t.replied).toBeLessThanOrEqual(t.answered);
    }
    expect(pool.takeTimings()).toEqual([]); // taken: the next call starts afresh
    const asked = fakes.flatMap((f) => f.received.filter((m) => m.kind === 'gradient'));
    expect(asked.every((m) => m.kind === 'gradient' && m.timed === true)).toBe(true);
    await pool.dispose();
    // Not asked: the workers are not asked for the times either.
    const plain = new FakeWorker();
    const quiet = await poolOf([plain]);
    await quiet.gradient({ node: 'w0', params: quiet.initialParams(), batch: batch() });
    expect(quiet.takeTimings()).toEqual([]);
    expect(plain.received.some((m) => m.kind === 'gradient' && 'timed' in m)).toBe(false);
    await quiet.dispose();
  });

  it('spreads queued requests over every live worker', async () => {
    const ws = [new FakeWorker(), new FakeWorker()];
    const pool = await poolOf(ws);
    await Promise.all(Array.from({ length: 8 }, (_, i) => pool.gradient({ node: `w${i}`, params: pool.initialParams(), batch: batch(), priority: i })));
    const counts = ws.map((w) => w.received.filter((m) => m.kind === 'gradient').length);
    expect(counts[0] + counts[1]).toBe(8);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(3);
    await pool.dispose();
  });
});

describe('WorkerPool backend choice', () => {
  it("'auto': one worker times every backend on the model, the others take its pick, and a second pool reuses it", async () => {
    const auto: TrainerSpec = { ...spec, model: { ...spec.model, hidden: [5, 7] }, backend: 'auto' };
    const fakes = [new FakeWorker(), new FakeWorker()];
    let i = 0;
    const pool = await WorkerPool.create(auto, { size: 2, workerFactory: () => fakes[i++] as unknown as Worker });
    const sel = pool.backendSelection();
    // In Node the candidates are wasm and cpu; both run, so both have a time.
    expect(sel?.measured?.map((m) => m.backend)).toEqual(['wasm', 'cpu']);
    for (const m of sel!.measured!) {
      expect(m.msPerStep).toBeGreaterThan(0);
      expect(m.steps).toBeGreaterThanOrEqual(3);
    }
    const fastest = sel!.measured!.reduce((a, b) => (b.msPerStep! < a.msPerStep! ? b : a));
    expect(sel!.backend).toBe(fastest.backend);
    const initBackends = (f: FakeWorker) => f.received.filter((m) => m.kind === 'init').map((m) => (m as { spec: TrainerSpec }).spec.backend);
    expect(initBackends(fakes[0])).toEqual(['auto']);
    expect(initBackends(fakes[1])).toEqual([sel!.backend]);
    expect(pool.workers().map((w) => w.backend)).toEqual([sel!.backend, sel!.backend]);
    await pool.dispose();

    const again = [new FakeWorker(), new FakeWorker()];
    let j = 0;
    const pool2 = await WorkerPool.create(auto, { size: 2, workerFactory: () => again[j++] as unknown as Worker });
    expect(again.map(initBackends)).toEqual([[sel!.backend], [sel!.backend]]);
    expect(pool2.backendSelection()).toEqual(sel);
    await pool2.dispose();
    await selectBackend('cpu');
  });

  it("'auto' in a later visit on the same device takes the remembered measurement: no worker times the backends", async () => {
    const stored = new Map<string, string>();
    vi.stubGlobal('localStorage', { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) });
    vi.stubGlobal('navigator', { userAgent: 'test', hardwareConcurrency: 2 });
    try {
      const auto: TrainerSpec = { ...spec, model: { ...spec.model, hidden: [3, 9] }, backend: 'auto' };
      const initBackends = (f: FakeWorker) => f.received.filter((m) => m.kind === 'init').map((m) => (m as { spec: TrainerSpec }).spec.backend);
      const first = [new FakeWorker(), new FakeWorker()];
      let i = 0;
      const pool = await WorkerPool.create(auto, { size: 2, workerFactory: () => first[i++] as unknown as Worker });
      const sel = pool.backendSelection();
      expect(initBackends(first[0])).toEqual(['auto']);
      await pool.dispose();

      vi.resetModules(); // a new page: the in-page memory is gone, localStorage is not
      const { WorkerPool: FreshPool } = await import('./pool');
      const later = [new FakeWorker(), new FakeWorker()];
      let j = 0;
      const pool2 = await FreshPool.create(auto, { size: 2, workerFactory: () => later[j++] as unknown as Worker });
      expect(later.map(initBackends)).toEqual([[sel!.backend], [sel!.backend]]);
      expect(pool2.backendSelection()).toEqual({ ...sel, measuredAt: expect.any(Number) });
      await pool2.dispose();
    } finally {
      vi.unstubAllGlobals();
      await selectBackend('cpu');
    }
  });
});
