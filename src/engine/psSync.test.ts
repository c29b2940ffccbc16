import { describe, expect, it } from 'vitest';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

type Over = Parameters<typeof testScenario>[0];
const bsp = (over: Over = {}) => testScenario({ cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-sync' }, ...over });
const make = (over: Over = {}) => Simulation.create(bsp(over), { trainer: new InstantTrainer(), sampleEveryMs: 0 });

describe('synchronous parameter server (BSP)', () => {
  it('keeps replicas identical at every version and applies each round once', async () => {
    const sim = await make({ durationMs: 6000, network: { latencyMs: 5, jitterMs: 2, bandwidthMbps: 100, loss: 0.05, duplicate: 0.1 } });
    await sim.advanceTo(6000);
    expect(sim.metric('violations')).toBe(0);
    expect(sim.metric('versionConflicts')).toBe(0);
    expect(sim.metric('version', 's0')!).toBeGreaterThan(10);
    const rounds = sim.history.events.filter((e) => e.type === 'note' && e.what === 'apply').map((e) => `${(e as { data?: Record<string, unknown> }).data!.worker}:${(e as { data?: Record<string, unknown> }).data!.seq}`);
    expect(new Set(rounds).size).toBe(rounds.length);
  });

  it('blocks everyone under a partition (C over A) and resumes after heal', async () => {
    const sim = await make({ durationMs: 12000, timeline: [{ at: 3000, do: 'partition', groups: [['w0', 'w1', 's0'], ['w2', 'w3']] }, { at: 8000, do: 'heal' }] });
    await sim.advanceTo(3000);
    const v = sim.metric('version', 's0')!;
    await sim.advanceTo(7900);
    expect(sim.metric('version', 's0')!).toBeLessThanOrEqual(v + 1);
    expect(sim.metric('availability')).toBe(0);
    await sim.advanceTo(12000);
    expect(sim.metric('version', 's0')!).toBeGreaterThan(v + 10);
    expect(sim.metric('availability')).toBe(1);
    expect(sim.metric('violations')).toBe(0);
  });

  it('backup workers drop the slowest gradient and speed rounds up under a persistent straggler', async () => {
    const stragglers = [{ node: 'w3', slowdown: 4 }];
    const plain = await make({ compute: { stepMs: 200, jitter: 0.1, stragglers } });
    const backup = await make({ compute: { stepMs: 200, jitter: 0.1, stragglers }, strategy: { kind: 'ps-sync', backupWorkers: 1 } });
    await plain.advanceTo(6000);
    await backup.advanceTo(6000);
    const vp = plain.metric('version', 's0')!;
    const vb = backup.metric('version', 's0')!;
    expect(vp).toBeLessThanOrEqual(8); // ≈ 6000 / 800 ms
    expect(vb).toBeGreaterThan(2.5 * vp);
    expect(backup.metric('versionConflicts')).toBe(0);
    const late = backup.history.events.filter((e) => e.type === 'note' && e.what === 'lateGradient').length;
    expect(late).toBeGreaterThan(0);
  });

  it('delayedRounds ≈ 1 − (1 − p)^N over many rounds (TRUTHS)', async () => {
    for (const [n, p] of [
      [8, 0.05],
      [4, 0.1],
    ] as const) {
      const sim = await make({ durationMs: 120000, cluster: { workers: n, servers: 1 }, compute: { stepMs: 100, jitter: 0.05, transient: { p, slowdown: 5 } } });
      await sim.advanceTo(120000);
      const expected = 1 - (1 - p) ** n;
      const rounds = sim.metric('version', 's0')!;
      expect(rounds).toBeGreaterThan(300);
      // binomial standard error over ~rounds draws, 4σ
      const tol = 4 * Math.sqrt((expected * (1 - expected)) / rounds);
      expect(Math.abs(sim.metric('delayedRounds')! - expected)).toBeLessThan(tol);
    }
  });

  it('transient stragglers leave schedules of scenarios without them unchanged', async () => {
    const a = await make();
    const b = await make({ compute: { stepMs: 200, jitter: 0.1, transient: { p: 0, slowdown: 5 } } });
    await a.advanceTo(3000);
    await b.advanceTo(3000);
    expect(b.scheduleHash()).toBe(a.scheduleHash());
  });

  it('a crashed worker stalls the barrier; after restart it pulls the current parameters', async () => {
    const sim = await make({ durationMs: 8000, timeline: [{ at: 2000, do: 'crash', node: 'w2' }, { at: 4000, do: 'restart', node: 'w2' }] });
    await sim.advanceTo(2000);
    const v = sim.metric('version', 's0')!;
    await sim.advanceTo(3900);
    expect(sim.metric('version', 's0')!).toBeLessThanOrEqual(v + 1);
    await sim.advanceTo(8000);
    expect(sim.metric('version', 's0')!).toBeGreaterThan(v + 10);
    expect(sim.metric('staleness', 'w2')!).toBeLessThanOrEqual(1);
    expect(sim.metric('violations')).toBe(0);
  });

  it('a server crash loses only the round in progress', async () => {
    const sim = await make({ durationMs: 8000, timeline: [{ at: 3000, do: 'crash', node: 's0' }, { at: 3500, do: 'restart', node: 's0' }] });
    await sim.advanceTo(2999);
    const v = sim.metric('version', 's0')!;
    await sim.advanceTo(8000);
    expect(sim.metric('version', 's0')!).toBeGreaterThan(v + 10);
    expect(sim.metric('lostUpdates')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
  });
});
