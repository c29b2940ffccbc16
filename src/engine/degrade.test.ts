import { describe, expect, it } from 'vitest';
import { buildCheckScenario, runSeed, strategyConfig } from '../check/runner';
import { validateScenario } from '../scenario/validate';
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
    await sim.advanceTo(11500);
    await atRoundBoundary(sim); // a snapshot mid-round shows the ring's in-flight lag, not divergence
    expect(sim.metric('degradedWorkers')).toBe(0);
    expect(sim.metric('divergence')).toBe(0);
  });
});

type Sim = Awaited<ReturnType<typeof make>>;
const notes = (sim: Sim, what: string) => sim.history.events.filter((e): e is Extract<typeof e, { type: 'note' }> => e.type === 'note' && e.what === what);
/** Versions the strategy gave the node from t on (the engine's empty replica at a restart excluded). */
const versionsAfter = (sim: Sim, node: string, t: number) => {
  const restarts = new Set(sim.history.events.filter((e) => e.type === 'restart' && e.node === node).map((e) => e.t));
  return sim.history.events
    .filter((e): e is Extract<typeof e, { type: 'version' }> => e.type === 'version' && e.node === node && e.t >= t && !(restarts.has(e.t) && e.version === 0 && e.synced === 0))
    .map((e) => e.version);
};
/** Steps until every worker holds the same version (the ring between two rounds). */
async function atRoundBoundary(sim: Sim): Promise<void> {
  for (let i = 0; i < 5000; i++) {
    if (new Set(sim.nodes().map((n) => n.version)).size === 1) return;
    await sim.stepEvent();
  }
}
/** Steps until `until` holds of a history event recorded by the step. */
async function stepUntil(sim: Sim, until: (e: Sim['history']['events'][number]) => boolean): Promise<void> {
  for (let i = 0; i < 200000 && !sim.done; i++) {
    const from = sim.history.events.length;
    await sim.stepEvent();
    if (sim.history.events.slice(from).some(until)) return;
  }
  throw new Error('condition never met');
}
/** After the heal: one epoch, every worker strong, the ring progressing. */
async function expectStrongAndProgressing(sim: Sim, end = 12000): Promise<void> {
  await sim.advanceTo(end);
  expect(sim.metric('degradedWorkers')).toBe(0);
  const facts = sim.liveNodeStates().map((n) => n.facts);
  expect(facts.every((f) => f?.kind === 'degrade-worker' && f.mode === 'strong')).toBe(true);
  expect(new Set(facts.map((f) => (f?.kind === 'degrade-worker' ? f.epoch : null))).size).toBe(1);
  const counted = sim.history.events.filter((e) => e.type === 'counted' && e.t > end - 1000);
  expect(new Set(counted.map((e) => (e.type === 'counted' ? e.node : ''))).size).toBe(6);
  expect(sim.metric('versionConflicts')).toBe(0);
  expect(sim.metric('violations')).toBe(0);
}

describe('degrade: liveness after the heal (randomized-checker regressions)', () => {
  it('a worker that crashed while degraded keeps its epoch and checkpoint across the restart and joins the merge', async () => {
    // Was: it restarted at epoch 0 with an empty replica; the coordinator fenced its contribution
    // (epoch 0 < the last merge's) on every resend, so the merge never completed (check seed 178).
    const sim = await make({}, { timeline: [...timeline, { at: 4000, do: 'crash', node: 'w4' }, { at: 7000, do: 'restart', node: 'w4' }] });
    await sim.advanceTo(7001);
    expect(versionsAfter(sim, 'w4', 7000)[0]).toBeGreaterThan(0); // its own checkpoint, not the initial parameters
    await expectStrongAndProgressing(sim);
    expect(notes(sim, 'fenced').filter((e) => e.what === 'fenced' && e.data.what === 'contribution')).toHaveLength(0);
    expect(notes(sim, 'merge')).toHaveLength(1);
  });

  it('a lost merged message is repaired: the worker resends its contribution and the coordinator answers with its last merge', async () => {
    // Was: the worker stayed "merging" for ever; each resend was fenced as stale (check seed 80).
    const sim = await make();
    await stepUntil(sim, (e) => e.type === 'send' && e.kind === 'contribution' && e.from === 'w5');
    sim.apply({ do: 'cut', from: 'w0', to: 'w5', oneWay: true }); // short enough that w5 still hears everyone
    await stepUntil(sim, (e) => e.type === 'note' && e.what === 'merge');
    await sim.advanceTo(sim.now() + 100);
    sim.apply({ do: 'restore', from: 'w0', to: 'w5', oneWay: true });
    expect(sim.history.events.some((e) => e.type === 'drop' && e.kind === 'merged' && e.to === 'w5')).toBe(true);
    await expectStrongAndProgressing(sim);
    expect(notes(sim, 'fenced').some((e) => e.node === 'w5' && e.what === 'fenced' && e.data.what === 'contribution')).toBe(true);
    expect(notes(sim, 'merge')).toHaveLength(1); // answered with the same merge, not merged twice
  });

  it('every worker restarted during the partition: the merge still has contributions (their checkpoints)', async () => {
    // Was: all contributions were empty and the merge threw "merge with no contribution" (check seed 260).
    const bounces = ['w0', 'w1', 'w2', 'w3', 'w4', 'w5'].flatMap((node, i) => [
      { at: 3000 + 500 * i, do: 'crash' as const, node },
      { at: 3200 + 500 * i, do: 'restart' as const, node },
    ]);
    const sim = await make({}, { timeline: [...timeline, ...bounces] });
    await expectStrongAndProgressing(sim);
    expect(notes(sim, 'merge')).toHaveLength(1);
  });

  it('a worker restarted in strong mode resumes from its ring checkpoint at the right absolute version (epoch base kept)', async () => {
    const sim = await make({}, { durationMs: 16000 });
    await stepUntil(sim, (e) => e.type === 'note' && e.what === 'merge');
    const merged = sim.nodes().find((n) => n.id === 'w0')!.version;
    // Crashed right after adopting (no ring round since): back at the merged version.
    await stepUntil(sim, (e) => e.type === 'note' && e.what === 'modeSwitch' && e.node === 'w3');
    sim.apply({ do: 'crash', node: 'w3' });
    await sim.advanceTo(sim.now() + 50);
    const t3 = sim.now();
    sim.apply({ do: 'restart', node: 'w3' });
    expect(versionsAfter(sim, 'w3', t3)[0]).toBe(merged);
    // Crashed after some rounds: back at its last round's version, not the ring's relative round.
    // (The ring may not recover within detectTimeoutMs; then a second merge heals it.)
    await sim.advanceTo(10000);
    const before = sim.nodes().find((n) => n.id === 'w2')!.version;
    sim.apply({ do: 'crash', node: 'w2' });
    await sim.advanceTo(10100);
    sim.apply({ do: 'restart', node: 'w2' });
    const restored = versionsAfter(sim, 'w2', 10100)[0];
    expect(restored).toBeGreaterThan(merged);
    expect(restored).toBeLessThanOrEqual(before);
    await expectStrongAndProgressing(sim, 16000);
  });

  it.each([19, 80, 178, 260, 352])('checker seed %i resumes progress after the heal with no violation', async (seed) => {
    const r = await runSeed({ kind: 'degrade', seed });
    expect(r.problems).toEqual([]);
  });

  it('checker seed 200081 with a ZooKeeper service: a Zab ACK lost to a partition no longer stalls every later commit (epoch grants, session closes)', async () => {
    const r = await runSeed({ kind: 'degrade', seed: 200081, coord: 'zookeeper' });
    // Before the fix: no worker progressed after the heal (every epoch request waited on index 6 forever).
    expect(r.problems).toEqual([]);
  });

  it.each([33182, 40280])('checker seed %i: a worker sent a merge the others have moved past contributes again instead of rejoining an empty ring', async (seed) => {
    const r = await runSeed({ kind: 'degrade', seed });
    expect(r.problems).toEqual([]); // both resumed 3.1 s after the heal (bound 3 s) before the fix
    const conf = strategyConfig('degrade');
    if (!conf.ok) throw new Error(conf.error);
    const v = validateScenario(buildCheckScenario({ kind: 'degrade', seed }, conf.cfg).scenario);
    if (!v.ok) throw new Error(v.errors.join('; '));
    const sim = await Simulation.create(v.scenario, { trainer: new InstantTrainer(16, 50), sampleEveryMs: 0 });
    await sim.runToEnd();
    const ev = sim.history.events;
    // From the facts: a worker whose contribution was fenced goes strong next in the newest epoch
    // any live worker holds, never in the old merge's ring that no one else is in.
    const now = new Map<string, number>();
    const fenced = new Set<string>();
    let checked = 0;
    for (const e of ev) {
      if (e.type === 'note' && e.what === 'fenced' && e.data.what === 'contribution' && e.node) fenced.add(e.node);
      if (e.type !== 'facts') continue;
      if (e.f?.kind !== 'degrade-worker') {
        now.delete(e.node);
        continue;
      }
      now.set(e.node, e.f.epoch);
      if (e.f.mode !== 'strong' || !fenced.delete(e.node)) continue;
      expect(e.f.epoch, `${e.node} at ${e.t}`).toBe(Math.max(...now.values()));
      checked++;
    }
    expect(checked).toBeGreaterThan(0); // the stale contribution happened
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
