import { describe, expect, it } from 'vitest';
import { builtin, builtins, clearRequestLimit, editBase, raftWithRequestLimit } from './testing/edits';
import { scenarioSchema } from '../scenario/schema';
import { validateScenario } from '../scenario/validate';
import { maxWorkers, minWorkers, withDataset } from './plainEdits';
import { withStrategyConfig, withWorkers } from './scenarioEdit';
import { partitionFromDraft } from './partition';

const base = editBase;

describe('scenario edits', () => {
  it('fewer workers prunes what named the removed ones', () => {
    const e = withWorkers(base, 2);
    expect(e.scenario.cluster.workers).toBe(2);
    // partition lost every node of its second group → dropped; crash w3 dropped; expectation on w3 dropped
    expect(e.scenario.timeline.map((t) => t.do)).toEqual(['heal']);
    expect(e.scenario.expect).toEqual([]);
    expect(e.pruned).toBe(3);
    expect(validateScenario(e.scenario).ok).toBe(true);
  });

  it('more workers keeps a partition\'s selectors and coordinators ("@leader" with w0, w1; c0 with w2)', () => {
    // raft-ps-majority grown to 16 workers lost "@leader" from its partition: w0, w1 were then cut
    // off alone, and the lesson's point (an isolated leader) was gone.
    const sc = scenarioSchema.parse({
      ...base,
      cluster: { workers: 4, servers: 5, coord: 3 },
      strategy: { kind: 'raft-ps' },
      timeline: [
        { at: 7000, do: 'partition', groups: [['w2', 'w3', 'c0'], ['@leader', 'w0', 'w1']] },
        { at: 9000, do: 'crash', node: 'c1' },
      ],
      expect: [],
    });
    const e = withWorkers(sc, 16);
    expect(e.pruned).toBe(0);
    expect(e.scenario.timeline).toEqual(sc.timeline);
    // Fewer workers drops only the missing workers, never the selector.
    const fewer = withWorkers(sc, 2);
    expect(fewer.scenario.timeline[0]).toMatchObject({ groups: [['c0'], ['@leader', 'w0', 'w1']] });
    expect(fewer.pruned).toBe(1);
  });

  it('any worker count of any built-in makes a run: node maps shrink, variants and the lesson that no longer fit go', () => {
    const refused: string[] = [];
    for (const { id, scenario: sc } of builtins()) {
      for (let n = minWorkers; n <= maxWorkers; n++) if (!validateScenario(withWorkers(sc, n).scenario).ok) refused.push(`${id} ×${n}`);
    }
    expect(refused).toEqual([]);
    // degrade-merge-fencing has six workers with a session each: four keep theirs, the variants and lesson stay.
    const degrade = withWorkers(builtin('degrade-merge-fencing'), 4);
    expect(Object.keys(degrade.scenario.coordination!.sessions)).toEqual(['w0', 'w1', 'w2', 'w3']);
    expect(degrade.pruned).toBeGreaterThanOrEqual(2);
    // Krum needs n > 2f + 2 gradients: with three workers that variant goes, and the lesson that shows it.
    const krum = withWorkers(builtin('secure-updates-byzantine'), 3);
    expect(krum.droppedVariants.length).toBeGreaterThan(0);
    expect(krum.droppedLesson).toBe(true);
    expect(krum.scenario.acts).toBeUndefined();
    // Kafka's readFrom keeps the workers that are left.
    const kafka = withWorkers(builtin('kafka-log-lag'), 2).scenario;
    if (kafka.strategy.kind !== 'kafka-ps') throw new Error('kafka');
    expect(Object.keys(kafka.strategy.readFrom ?? {}).every((w) => ['w0', 'w1'].includes(w))).toBe(true);
  });

  it('a knob the variants no longer fit: they go, not the change (coordination-fencing without the lock)', () => {
    const sc = builtin('coordination-fencing');
    if (sc.strategy.kind !== 'ps-async') throw new Error('coordination-fencing');
    const e = withStrategyConfig(sc, { ...sc.strategy, writeLock: 'none' });
    expect(e.droppedVariants.length).toBeGreaterThan(0);
    expect(validateScenario(e.scenario).ok).toBe(true);
  });

  it('a knob that turns off what measured a metric: its expectations go, named, not the change', () => {
    const sc = raftWithRequestLimit;
    const e = clearRequestLimit(sc);
    expect(e.droppedChecks).toEqual(['rejectedWrites']);
    expect(e.droppedCheckCount).toBe(2);
    expect(e.pruned).toBe(0);
    expect(e.scenario.expect.map((x) => x.metric)).toEqual(['leaders']);
    expect(validateScenario(e.scenario).ok).toBe(true);
    // Unchanged where the run still measures it.
    const raft = sc.strategy;
    if (raft.kind !== 'raft-ps') throw new Error('raft-ps');
    expect(withStrategyConfig(sc, { ...raft, maxRequestBytes: 8192 }).droppedCheckCount).toBe(0);
  });

  it('clamps the worker count to 2–16', () => {
    expect(withWorkers(base, 40).scenario.cluster.workers).toBe(16);
    expect(withWorkers(base, 1).scenario.cluster.workers).toBe(2);
  });

  it('changes the dataset only', () => {
    expect(withDataset(base, 'xor').model).toEqual({ ...base.model, dataset: 'xor' });
  });
});

describe('partition tool', () => {
  it('turns the draft into a two-group partition; unassigned nodes join A', () => {
    expect(partitionFromDraft({ w2: 'B', w3: 'B' }, ['w0', 'w1', 'w2', 'w3', 's0'])).toEqual({
      do: 'partition',
      groups: [['w0', 'w1', 's0'], ['w2', 'w3']],
    });
    expect(partitionFromDraft({}, ['w0', 'w1'])).toBeNull();
  });
});
