import { scenarioSchema, type Scenario, type ScenarioInput } from '../../scenario/schema';

/** A compact scenario for tests: defaults filled in by the real schema, overrides merged shallowly. */
export function testScenario(over: Partial<ScenarioInput> = {}): Scenario {
  return scenarioSchema.parse({
    schema: 1,
    id: 'test',
    seed: 7,
    durationMs: 6000,
    cluster: { workers: 4 },
    model: { dataset: 'circles', hidden: [8, 8], batchSize: 16, learningRate: 0.2, samples: 400 },
    compute: { stepMs: 200, jitter: 0.1 },
    network: { latencyMs: 5, jitterMs: 1, bandwidthMbps: 100 },
    strategy: { kind: 'allreduce' },
    ...over,
  });
}
