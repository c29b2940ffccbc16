import { builtinIds, loadBuiltin } from '../../cli/builtins';
import { scenarioSchema, type Scenario } from '../../scenario/schema';
import { withStrategyConfig, type Edit } from '../scenarioEdit';

/** The form edits' tests (scenarioEdit, strategySwitch): a small ring with a partition and a crash. */
export const editBase: Scenario = scenarioSchema.parse({
  schema: 1,
  id: 't',
  seed: 7,
  durationMs: 20000,
  cluster: { workers: 4 },
  strategy: { kind: 'allreduce' },
  timeline: [
    { at: 5000, do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] },
    { at: 6000, do: 'crash', node: 'w3' },
    { at: 12000, do: 'heal' },
  ],
  expect: [{ at: 'end', metric: 'steps', node: 'w3', op: '>', value: 1 }],
});

/** Every built-in, validated (a built-in that does not validate fails the test that asked for it). */
export function builtins(): Array<{ id: string; scenario: Scenario }> {
  return builtinIds().map((id) => ({ id, scenario: builtin(id) }));
}

export function builtin(id: string): Scenario {
  const v = loadBuiltin(id);
  if (!v.ok) throw new Error(`${id}: ${v.errors.join('; ')}`);
  return v.scenario;
}

/** Raft with a request size limit, checked on what the limit refuses (rejectedWrites) and on its leader. */
export const raftWithRequestLimit: Scenario = scenarioSchema.parse({
  ...editBase,
  cluster: { workers: 4, servers: 3 },
  strategy: { kind: 'raft-ps', maxRequestBytes: 4096 },
  timeline: [],
  expect: [
    { at: 'end', metric: 'rejectedWrites', op: '>=', value: 0 },
    { at: 'end', metric: 'rejectedWrites', op: '<=', value: 9 },
    { at: 'end', metric: 'leaders', op: '==', value: 1 },
  ],
});

/** The knob edit that clears the limit: nothing measures rejectedWrites any more. */
export function clearRequestLimit(sc: Scenario): Edit {
  if (sc.strategy.kind !== 'raft-ps') throw new Error('raft-ps');
  const { maxRequestBytes: _limit, ...unlimited } = sc.strategy;
  return withStrategyConfig(sc, unlimited);
}
