import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';
import { runSeed } from '../check/runner';

type Over = Parameters<typeof testScenario>[0];
type Staleness = number | 'inf';
const ssp = (staleness: Staleness, over: Over = {}) =>
  testScenario({ cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ssp', staleness }, compute: { stepMs: 100, jitter: 0.1, transient: { p: 0.15, slowdown: 6 } }, ...over });
const make = (staleness: Staleness, over: Over = {}) => Simulation.create(ssp(staleness, over), { trainer: new InstantTrainer(), sampleEveryMs: 0 });

/** Completed clocks of every worker after each step completion, from the history. */
function stepStarts(sim: Simulation) {
  return sim.history.events.filter((e) => e.type === 'stepStart' || e.type === 'stepDone') as Array<{ type: string; node: string; step: number; t: number }>;
}

describe('stale synchronous parallel (SSP)', () => {
  it('the clock gap never exceeds s (random seeds, bounds, stragglers, loss)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 5 }), fc.double({ min: 0, max: 0.3, noNaN: true }), fc.double({ min: 0, max: 0.1, noNaN: true }), async (seed, s, p, loss) => {
        const sim = await make(s, {
          seed,
          durationMs: 4000,
          compute: { stepMs: 100, jitter: 0.2, transient: { p, slowdown: 6 }, stragglers: [{ node: 'w1', slowdown: 2 }] },
          network: { latencyMs: 3, jitterMs: 1, bandwidthMbps: 100, loss },
        });
        await sim.advanceTo(4000);
        expect(sim.metric('violations')).toBe(0);
        expect(sim.metric('maxClockGap')!).toBeLessThanOrEqual(s);
        // Independent check from the history: a worker starting its k-th step (clock k−1) is at most s ahead of the slowest completed clock.
        const done = new Map<string, number>();
        for (const e of stepStarts(sim)) {
          if (e.type === 'stepDone') done.set(e.node, e.step);
          else {
            const slowest = Math.min(...['w0', 'w1', 'w2', 'w3'].map((w) => done.get(w) ?? 0));
            expect(e.step - 1 - slowest).toBeLessThanOrEqual(s);
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it('s = 0 has BSP’s round structure: no worker starts round k+1 before every worker finished round k', async () => {
    const sim = await make(0, { durationMs: 5000 });
    await sim.advanceTo(5000);
    const done = new Map<string, number>();
    for (const e of stepStarts(sim)) {
      if (e.type === 'stepDone') done.set(e.node, e.step);
      else expect(Math.min(...['w0', 'w1', 'w2', 'w3'].map((w) => done.get(w) ?? 0))).toBe(e.step - 1);
    }
    expect(sim.metric('versionConflicts')).toBe(0);
    expect(sim.cap.consistency).toBe('lockstep');
    // … and it progresses like the BSP parameter server on the same seed (within a round).
    const bsp = await Simulation.create(testScenario({ cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-sync' }, durationMs: 5000, compute: { stepMs: 100, jitter: 0.1, transient: { p: 0.15, slowdown: 6 } } }), { trainer: new InstantTrainer(), sampleEveryMs: 0 });
    await bsp.advanceTo(5000);
    expect(Math.abs(sim.metric('steps', 'w0')! - bsp.metric('steps', 'w0')!)).toBeLessThanOrEqual(1);
  });

  it('s = ∞ never blocks; waiting falls as s grows', async () => {
    const frac: number[] = [];
    for (const s of [0, 2, 'inf'] as const) {
      const sim = await make(s, { durationMs: 5000 });
      await sim.advanceTo(5000);
      frac.push(sim.metric('waitFraction')!);
      if (s === 'inf') expect(sim.history.events.some((e) => e.type === 'note' && e.what === 'sspBlocked')).toBe(false);
    }
    expect(frac[2]).toBe(0);
    expect(frac[0]).toBeGreaterThan(frac[1]);
    expect(frac[1]).toBeGreaterThan(frac[2]);
  });

  it('under a partition the others block once the bound is hit; s = ∞ trains on', async () => {
    const timeline = [{ at: 2000, do: 'partition' as const, groups: [['s0', 'w0', 'w1', 'w2'], ['w3']] }, { at: 5000, do: 'heal' as const }];
    const bounded = await make(3, { durationMs: 8000, compute: { stepMs: 100, jitter: 0.1 }, timeline });
    const asp = await make('inf', { durationMs: 8000, compute: { stepMs: 100, jitter: 0.1 }, timeline });
    await bounded.advanceTo(4900);
    await asp.advanceTo(4900);
    expect(bounded.metric('availability')).toBe(0);
    expect(asp.metric('availability')).toBe(1);
    await bounded.advanceTo(8000);
    expect(bounded.metric('availability')).toBe(1);
    expect(bounded.metric('violations')).toBe(0);
  });

  it('a crashed worker holds the others back (min clock includes it) and resumes from the server’s clock', async () => {
    const sim = await make(2, { durationMs: 8000, timeline: [{ at: 2000, do: 'crash', node: 'w1' }, { at: 4000, do: 'restart', node: 'w1' }, { at: 5000, do: 'crash', node: 's0' }, { at: 5300, do: 'restart', node: 's0' }] });
    await sim.advanceTo(3900);
    expect(sim.metric('availability')).toBe(0);
    await sim.advanceTo(8000);
    expect(sim.metric('availability')).toBe(1);
    expect(sim.metric('violations')).toBe(0);
    expect(sim.metric('lostUpdates')).toBe(0);
  });
});

describe('SSP restarts (regression: check seeds 20437, 20807, 30814)', () => {
  /** Count of the worker's clocks the server has applied by time t, from its `apply` notes. */
  const appliedBy = (sim: Simulation, w: string, t: number) => sim.history.events.filter((e) => e.type === 'note' && e.what === 'apply' && e.data.worker === w && e.t <= t).length;

  it('a restarted worker resumes at the server’s count of its clocks, not at a reply sent to its previous incarnation', async () => {
    // Replies to w1 take 250 ms, so several are in flight when it crashes and arrive after its restart.
    const sim = await make(1, {
      durationMs: 3000,
      compute: { stepMs: 100, jitter: 0.1 },
      timeline: [
        { at: 0, do: 'link', from: 's0', to: 'w1', latencyMs: 250 },
        { at: 1000, do: 'crash', node: 'w1' },
        { at: 1050, do: 'restart', node: 'w1' },
      ],
    });
    await sim.advanceTo(3000);
    const ev = sim.history.events;
    const stale = ev.filter((e) => e.type === 'deliver' && e.to === 'w1' && e.kind === 'params' && e.sentAt < 1000 && e.t > 1050);
    expect(stale.length).toBeGreaterThan(0); // the hazard happened
    const resumed = ev.find((e) => e.type === 'facts' && e.node === 'w1' && e.t > 1050 && e.f?.kind === 'ps-worker' && e.f.state !== 'pulling');
    if (resumed?.type !== 'facts' || resumed.f?.kind !== 'ps-worker') throw new Error('w1 never resumed');
    expect(resumed.t).toBeGreaterThan(Math.max(...stale.map((e) => e.t))); // it waited for its own answer
    expect(resumed.f.clock).toBe(appliedBy(sim, 'w1', resumed.t));
    expect(sim.metric('violations')).toBe(0);
  });

  it.each([20437, 20807, 30814])('check seed %i: no clock-bound violation, progress after the heal', async (seed) => {
    const r = await runSeed({ kind: 'ssp', seed });
    expect(r.problems).toEqual([]);
    expect(r.violations).toBe(0);
  });
});
