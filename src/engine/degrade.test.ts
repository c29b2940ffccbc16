import { describe, expect, it } from 'vitest';
import { mergeReplicas, type Contribution } from '../protocols/degradeMerge';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

type Over = Parameters<typeof testScenario>[0];
type Knobs = { merge?: 'discard' | 'average' | 'replay'; fencing?: boolean; replayLr?: 'none' | 'inverse'; averageWeights?: 'size' | 'equal' };
const timeline = [
  { at: 2000, do: 'partition' as const, groups: [['w0', 'w1', 'w2', 'w3'], ['w4', 'w5']] },
  { at: 7000, do: 'heal' as const },
];
const make = (knobs: Knobs = {}, over: Over = {}) =>
  Simulation.create(testScenario({ cluster: { workers: 6 }, durationMs: 12000, compute: { stepMs: 150, jitter: 0.1 }, strategy: { kind: 'degrade', ...knobs }, timeline, ...over }), {
    trainer: new InstantTrainer(),
    sampleEveryMs: 0,
  });

describe('degrade: strong → eventual on partition → merged on heal', () => {
  it('switches both sides on a detected partition, trains on, merges on heal and is strong again', async () => {
    const sim = await make();
    await sim.advanceTo(1900);
    expect(sim.metric('degradedWorkers')).toBe(0);
    expect(sim.metric('divergence')).toBe(0);
    await sim.advanceTo(3500);
    expect(sim.metric('degradedWorkers')).toBe(6);
    const div = sim.metric('divergence')!;
    await sim.advanceTo(6900);
    expect(sim.metric('availability')).toBe(1); // PA: both sides train
    expect(sim.metric('divergence')!).toBeGreaterThan(div);
    const detected = sim.history.events.filter((e) => e.type === 'note' && e.what === 'partitionDetected');
    expect(detected.length).toBe(6);
    expect(detected.every((e) => e.t > 2000 + 300 && e.t < 2000 + 600 + 600)).toBe(true); // 600 ms after the last round, on a heartbeat tick
    await sim.advanceTo(12000);
    expect(sim.metric('degradedWorkers')).toBe(0);
    expect(sim.metric('divergence')).toBe(0);
    expect(sim.metric('versionConflicts')).toBe(0);
    const merges = sim.history.events.filter((e) => e.type === 'note' && e.what === 'merge');
    expect(merges.length).toBe(1);
    expect(merges[0].t).toBeGreaterThanOrEqual(7000 + 1000); // hysteresis
    expect(sim.metric('steps', 'w5')!).toBeGreaterThan(50);
  });

  it.each(['discard', 'average', 'replay'] as const)('merges with rule %s; only discard loses work', async (merge) => {
    const sim = await make({ merge });
    await sim.advanceTo(12000);
    expect(sim.metric('divergence')).toBe(0);
    if (merge === 'discard') expect(sim.metric('lostWork')!).toBeGreaterThan(40);
    else expect(sim.metric('lostWork')).toBe(0);
  });

  it('fencing rejects the minority’s stale checkpoint writes; without it they are accepted (split brain)', async () => {
    const fenced = await make({ fencing: true });
    const open = await make({ fencing: false });
    await fenced.advanceTo(6900);
    await open.advanceTo(6900);
    expect(fenced.metric('fencedWrites')!).toBeGreaterThanOrEqual(3);
    expect(fenced.metric('staleWritesAccepted')).toBe(0);
    expect(open.metric('staleWritesAccepted')!).toBeGreaterThanOrEqual(3);
    expect(open.history.events.some((e) => e.type === 'note' && e.what === 'staleWriteAccepted')).toBe(true);
  });

  it('a long stall without a partition is detected too, and healed by a merge (detection is a timeout)', async () => {
    const sim = await make({}, { timeline: [{ at: 2000, do: 'crash', node: 'w5' }, { at: 4000, do: 'restart', node: 'w5' }] });
    await sim.advanceTo(3500);
    expect(sim.metric('degradedWorkers')).toBe(5);
    await sim.advanceTo(12000);
    expect(sim.metric('degradedWorkers')).toBe(0);
    expect(sim.metric('divergence')).toBe(0);
  });
});

describe('merge rules (pure)', () => {
  const v = (...x: number[]) => Float32Array.from(x);
  const c = (worker: string, side: string, quorum: boolean, params: Float32Array, grads: Float32Array[] = []): Contribution => ({
    worker,
    side,
    quorum,
    params,
    version: 10 + grads.length,
    grads: grads.map((grad, k) => ({ grad, basedOn: 10 + k })),
    empty: false,
  });
  const cs = [c('w0', 'w0,w1,w2', true, v(3, 0), [v(1, 1)]), c('w1', 'w0,w1,w2', true, v(3, 0)), c('w2', 'w0,w1,w2', true, v(3, 0)), c('w3', 'w3', false, v(-1, 4), [v(2, 0), v(2, 0)])];
  const o = { learningRate: 0.5, averageWeights: 'size' as const, replayLr: 'none' as const, replayMaxStaleness: 100 };

  it('discard keeps the quorum side and counts the minority’s steps as lost', () => {
    const r = mergeReplicas(cs, { ...o, rule: 'discard' });
    expect([...r.params]).toEqual([3, 0]);
    expect(r.lostWork).toBe(2);
    expect(r.version).toBe(13);
  });

  it('average weights sides by size or equally', () => {
    expect([...mergeReplicas(cs, { ...o, rule: 'average' }).params]).toEqual([2, 1]);
    expect([...mergeReplicas(cs, { ...o, rule: 'average', averageWeights: 'equal' }).params]).toEqual([1, 2]);
  });

  it('replay applies the minority’s gradients, at lr/τ with "inverse", and drops those staler than the limit', () => {
    // quorum side is 1/3 step ahead on average → ahead = 0; τ = replayed − k = 0 then 1 (max(1, τ) = 1): plain lr both times.
    expect([...mergeReplicas(cs, { ...o, rule: 'replay' }).params]).toEqual([1, 0]);
    const ahead = [c('w0', 'q', true, v(0, 0), [v(0, 0), v(0, 0), v(0, 0), v(0, 0)]), c('w1', 'm', false, v(0, 0), [v(4, 0), v(4, 0)])];
    const scaled = mergeReplicas(ahead, { ...o, rule: 'replay', replayLr: 'inverse' });
    expect(scaled.params[0]).toBeCloseTo(-0.5 * (4 / 4) - 0.5 * (4 / 4)); // τ = 4 + 0 − 0 = 4, then 4 + 1 − 1 = 4
    const dropped = mergeReplicas(ahead, { ...o, rule: 'replay', replayMaxStaleness: 3 });
    expect(dropped.lostWork).toBe(1); // k = 0: τ = 4 > 3 dropped; k = 1: τ = 3 kept
    expect(dropped.params[0]).toBe(-2);
  });

  it('an even split with no majority keeps the side with the lowest worker id', () => {
    const even = [c('w0', 'a', false, v(1)), c('w1', 'b', false, v(5), [v(1)])];
    expect([...mergeReplicas(even, { ...o, rule: 'discard' }).params]).toEqual([1]);
  });
});
