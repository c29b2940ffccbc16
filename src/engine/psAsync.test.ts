import { describe, expect, it } from 'vitest';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

const asyncScenario = (over: Parameters<typeof testScenario>[0] = {}) =>
  testScenario({ cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-async' }, ...over });

const make = (over: Parameters<typeof testScenario>[0] = {}, trainer = new InstantTrainer()) =>
  Simulation.create(asyncScenario(over), { trainer, sampleEveryMs: 0 });

describe('asynchronous parameter server', () => {
  it.each([2, 4, 8])('with N=%i equal workers a gradient is about N−1 versions stale (TRUTHS)', async (n) => {
    const sim = await make({ cluster: { workers: n, servers: 1 }, durationMs: 10000, compute: { stepMs: 200, jitter: 0.1 } });
    await sim.advanceTo(10000);
    const taus = sim.history.events.filter((e) => e.type === 'note' && e.what === 'apply').map((e) => Number((e as { data?: Record<string, unknown> }).data!.staleness));
    const mean = taus.reduce((a, b) => a + b, 0) / taus.length;
    expect(mean).toBeGreaterThan(n - 1 - 0.5);
    expect(mean).toBeLessThan(n - 1 + 0.5);
  });

  it('under a partition both sides keep training; staleness and divergence grow, then fall after heal', async () => {
    const sim = await make({
      durationMs: 14000,
      timeline: [
        { at: 3000, do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] },
        { at: 9000, do: 'heal' },
      ],
    });
    await sim.advanceTo(2900);
    const before = { div: sim.metric('divergence')!, w2: sim.metric('steps', 'w2')! };
    expect(sim.metric('staleness')!).toBeLessThanOrEqual(4);
    await sim.advanceTo(8900);
    expect(sim.metric('availability')).toBe(1); // A kept
    expect(sim.metric('steps', 'w2')!).toBeGreaterThan(before.w2 + 20); // the cut-off side trained on
    expect(sim.metric('staleness', 'w2')!).toBeGreaterThan(30); // it no longer sees w0/w1's updates
    expect(sim.metric('staleness', 'w0')!).toBeLessThanOrEqual(4);
    expect(sim.metric('divergence')!).toBeGreaterThan(before.div);
    await sim.advanceTo(14000);
    expect(sim.metric('staleness')!).toBeLessThanOrEqual(6);
    expect(sim.metric('lostUpdates')).toBe(0);
  });

  it('applies every acknowledged update exactly once despite loss and duplication', async () => {
    const sim = await make({ durationMs: 8000, network: { latencyMs: 5, jitterMs: 2, bandwidthMbps: 100, loss: 0.1, duplicate: 0.2 } });
    await sim.advanceTo(8000);
    const applied = new Set<string>();
    for (const e of sim.history.events) {
      if (e.type !== 'note' || e.what !== 'apply') continue;
      const key = `${e.data!.worker}:${e.data!.seq}`;
      expect(applied.has(key)).toBe(false);
      applied.add(key);
    }
    expect(applied.size).toBeGreaterThan(100);
    expect(sim.metric('duplicateUpdates')).toBe(0);
    expect(sim.metric('lostUpdates')).toBe(0);
    expect(sim.metric('dropped')!).toBeGreaterThan(0);
  });

  it('a server crash loses the acknowledged updates after the last checkpoint, and says how many', async () => {
    const sim = await make({
      durationMs: 6000,
      strategy: { kind: 'ps-async', checkpointEveryMs: 2000 },
      timeline: [
        { at: 3500, do: 'crash', node: 's0' },
        { at: 4000, do: 'restart', node: 's0' },
      ],
    });
    await sim.advanceTo(3499);
    const v = sim.metric('version', 's0')!;
    await sim.advanceTo(3600);
    // Between the checkpoint at 2 s and the crash at 3.5 s, about 1.5 s × 20 updates/s were acknowledged.
    const lost = sim.metric('lostUpdates')!;
    expect(lost).toBeGreaterThan(20);
    expect(lost).toBeLessThan(40);
    expect(sim.metric('availability')).toBe(1); // workers train on locally meanwhile
    await sim.advanceTo(6000);
    expect(sim.metric('version', 's0')!).toBeGreaterThan(v - lost);
  });

  it('a crashed worker pulls parameters after restart and trains again', async () => {
    const sim = await make({ durationMs: 6000, timeline: [{ at: 1000, do: 'crash', node: 'w1' }, { at: 3000, do: 'restart', node: 'w1' }] });
    await sim.advanceTo(2900);
    const steps = sim.metric('steps', 'w1')!;
    expect(sim.nodes().find((n) => n.id === 'w1')!.up).toBe(false);
    await sim.advanceTo(6000);
    expect(sim.metric('steps', 'w1')!).toBeGreaterThan(steps + 10);
    expect(sim.metric('staleness', 'w1')!).toBeLessThanOrEqual(4);
  });

  it('a worker whose training code throws is marked failed; the others carry on', async () => {
    const sim = await make({ durationMs: 3000 }, new InstantTrainer(105, 400, new Set(['w2'])));
    await sim.advanceTo(3000);
    const w2 = sim.nodes().find((n) => n.id === 'w2')!;
    expect(w2.up).toBe(false);
    expect(w2.failed).toContain('injected fault in w2');
    expect(sim.failure).toBeNull();
    expect(sim.metric('steps', 'w0')!).toBeGreaterThan(10);
    expect(sim.metric('availability')).toBe(1); // over live workers
  });
});

describe('running to the end', () => {
  it('a time slice out of budget never stops inside an instant: all 41 events due at the end run', async () => {
    const sim = await make({
      durationMs: 1000,
      expect: Array.from({ length: 40 }, () => ({ at: 'end' as const, metric: 'lostUpdates' as const, op: '==' as const, value: 0 })),
    });
    await sim.advanceTo(999.999);
    await sim.advanceTo(1000, { wallBudgetMs: 0 }); // over budget after 16 events, but they share one instant
    expect(sim.now()).toBe(1000);
    expect(sim.done).toBe(true);
    expect(sim.expectations().every((e) => e.pass === true)).toBe(true);
  });
});
