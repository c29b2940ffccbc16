import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strategies } from '../protocols';
import { strategySchema } from '../scenario/schema';
import { LocalTrainer } from '../train/localTrainer';
import { Simulation } from './simulation';
import { testScenario } from './testing/scenarios';

/**
 * Fashion-MNIST (784 → 128 → 10, 101 770 parameters) trains under every registered strategy:
 * a short run's cluster loss falls well below its start (ln 10 ≈ 2.30 for a uniform guess).
 * Real tfjs on the wasm backend, the browser's pick for this model, which keeps the whole file to
 * a few seconds; one trainer (one data load) serves every run.
 */
const model = { dataset: 'fashion-mnist' as const, hidden: [128], batchSize: 16, learningRate: 0.03, samples: 1000 };
let trainer: LocalTrainer;

beforeAll(async () => {
  trainer = await LocalTrainer.create({ model: { ...model, noise: 0 }, seed: 3, backend: 'wasm' });
});
afterAll(async () => {
  await trainer.dispose();
});

function clusterLosses(sim: Simulation): number[] {
  const out: number[] = [];
  for (const e of sim.history.events) {
    if (e.type !== 'metrics') continue;
    const loss = (e as { v: { cluster: Record<string, number | null> } }).v.cluster.loss;
    if (loss !== null && loss !== undefined) out.push(loss);
  }
  return out;
}

describe('Fashion-MNIST under every strategy', () => {
  it('the model is the ~100 k-parameter MLP and the trainer holds the subset', () => {
    expect(trainer.paramCount).toBe(784 * 128 + 128 + 128 * 10 + 10);
    expect(trainer.samples).toBe(1000);
    expect(trainer.backend).toBe('wasm');
  });

  it.each(strategies.map((s) => s.kind))('%s: the cluster loss falls', async (kind) => {
    const info = strategies.find((s) => s.kind === kind)!;
    const need = { ...info.needs, ...info.suggested };
    const sc = testScenario({
      seed: 3,
      durationMs: 2500,
      cluster: { workers: 2, servers: need.servers ?? 0, brokers: need.brokers ?? 0 },
      model,
      compute: { stepMs: 100, jitter: 0.1 },
      network: { latencyMs: 2, jitterMs: 0.5, bandwidthMbps: 1000 },
      strategy: strategySchema.parse({ kind }),
    });
    const sim = await Simulation.create(sc, { trainer });
    await sim.runToEnd();
    const losses = clusterLosses(sim);
    expect(losses.length).toBeGreaterThan(5);
    const first = losses[0];
    const last = losses[losses.length - 1];
    expect(first, 'an untrained model is near ln 10').toBeGreaterThan(2);
    expect(last, `${kind}: loss ${losses.map((l) => l.toFixed(2)).join(' ')}`).toBeLessThan(first - 0.6);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('Fashion-MNIST replica tiles', () => {
  it('each snapshot keeps its evaluation: per-class accuracy and sample predictions of exactly those parameters', async () => {
    const sc = testScenario({
      seed: 3,
      durationMs: 1500,
      cluster: { workers: 2, servers: 1, brokers: 0 },
      model,
      compute: { stepMs: 100, jitter: 0.1 },
      network: { latencyMs: 2, jitterMs: 0.5, bandwidthMbps: 1000 },
      strategy: strategySchema.parse({ kind: 'ps-async' }),
    });
    const sim = await Simulation.create(sc, { trainer });
    await sim.runToEnd();
    for (const t of [300, 900, sim.now()]) {
      const e = sim.evaluationAt('w0', t)!;
      expect(e.perClass).toHaveLength(10);
      expect(e.samples!.length).toBeGreaterThan(0);
      // The tile and the caption show one sample: the evaluation is that of the snapshot's parameters.
      const again = await trainer.evaluate(sim.paramsAt('w0', t)!);
      expect(e.loss).toBeCloseTo(again.loss, 5);
      expect(e.perClass).toEqual(again.perClass);
    }
    // Later samples differ from early ones (the model trains between them).
    expect(sim.evaluationAt('w0', sim.now())!.loss).toBeLessThan(sim.evaluationAt('w0', 300)!.loss);
    expect(sim.evaluationAt('w0', -1)).toBeNull();
  });
});
