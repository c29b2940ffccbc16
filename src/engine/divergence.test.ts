import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';
import { Simulation } from './simulation';

/**
 * What the divergence chart plots: the engine's samples of `divergence` (issue 6). Replicas that
 * hold states of the one authoritative lineage only lag — that is staleness — so every strong
 * strategy's chart reads exactly 0 without faults (no mid-round spikes), and it rises under a
 * partition where replicas fork (ps-async's cut-off workers, degrade's local SGD).
 */

async function divergenceSamples(over: Partial<ScenarioInput>): Promise<Array<{ t: number; v: number }>> {
  const sim = await Simulation.create(testScenario({ durationMs: 8000, ...over }), { trainer: new InstantTrainer() });
  await sim.runToEnd();
  const out: Array<{ t: number; v: number }> = [];
  for (const e of sim.history.events) if (e.type === 'metrics') out.push({ t: e.t, v: e.v.cluster.divergence ?? NaN });
  return out;
}

const strong: Array<[string, Partial<ScenarioInput>]> = [
  ['allreduce', { strategy: { kind: 'allreduce' } }],
  ['ps-sync', { strategy: { kind: 'ps-sync' }, cluster: { workers: 4, servers: 1 } }],
  ['raft-ps', { strategy: { kind: 'raft-ps' }, cluster: { workers: 4, servers: 3 } }],
  ['paxos-ps', { strategy: { kind: 'paxos-ps' }, cluster: { workers: 4, servers: 3 } }],
  ['2pc-ps', { strategy: { kind: '2pc-ps' }, cluster: { workers: 4, servers: 3 } }],
  ['ssp s=0', { strategy: { kind: 'ssp', staleness: 0 }, cluster: { workers: 4, servers: 1 } }],
];

describe('the divergence chart', () => {
  it.each(strong)('%s without faults reads 0 at every sample', async (_name, over) => {
    const s = await divergenceSamples(over);
    expect(s.length).toBeGreaterThan(30);
    expect(s.filter((x) => x.v !== 0)).toEqual([]);
  });

  const partition = { timeline: [{ at: 2000, do: 'partition' as const, groups: [['w0', 'w1', 's0'], ['w2', 'w3']] }, { at: 6000, do: 'heal' as const }] };

  it('ps-async rises under a partition (cut-off workers train on forks)', async () => {
    const s = await divergenceSamples({ strategy: { kind: 'ps-async' }, cluster: { workers: 4, servers: 1 }, ...partition });
    const before = Math.max(...s.filter((x) => x.t < 2000).map((x) => x.v));
    const during = Math.max(...s.filter((x) => x.t > 3000 && x.t < 6000).map((x) => x.v));
    expect(during).toBeGreaterThan(Math.max(5 * before, 1e-3));
  });

  it('degrade rises under a partition (local SGD on each side) and returns to 0 after the merge', async () => {
    const s = await divergenceSamples({ strategy: { kind: 'degrade' }, cluster: { workers: 4 }, durationMs: 10_000, timeline: [{ at: 2000, do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] }, { at: 6000, do: 'heal' }] });
    expect(s.filter((x) => x.t < 2000).every((x) => x.v === 0)).toBe(true);
    expect(Math.max(...s.filter((x) => x.t > 3000 && x.t < 6000).map((x) => x.v))).toBeGreaterThan(1e-3);
    expect(s[s.length - 1].v).toBe(0);
  });

  it('all-reduce under the same partition stays at 0 (everyone blocks at one version)', async () => {
    const s = await divergenceSamples({ strategy: { kind: 'allreduce' }, ...{ timeline: [{ at: 2000, do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] }, { at: 6000, do: 'heal' }] } });
    expect(s.every((x) => x.v === 0)).toBe(true);
  });
});
