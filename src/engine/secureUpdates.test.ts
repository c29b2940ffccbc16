import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveVariant, validateScenario } from '../scenario/validate';
import type { MetricName } from '../scenario/schema';
import { LocalTrainer } from '../train/localTrainer';
import { Simulation } from './simulation';

/**
 * The shapes of L13 (CURRICULUM §L13, TRUTHS "A SHA-256 hash…" and shape 6) on seeds the lesson
 * was never calibrated on: the lesson's own scenario and variants, five fresh seeds.
 *  1. SHA-256 lets flipped updates through; HMAC rejects every one.
 *  2. HMAC without (worker, step) accepts replays; with them it rejects them.
 *  3. One sign-flipping worker of seven ruins a mean and not a median or Krum.
 */
const FRESH_SEEDS = [20261, 20262, 20263, 20264, 20265];
const lesson = JSON.parse(readFileSync(new URL('../../public/scenarios/secure-updates-byzantine.json', import.meta.url), 'utf8'));

/** The lesson's runs used here (the base is sha256), each only as long as its probes need. */
const until = { sha256: 8900, hmac: 14900, 'hmac-step': 24900, median: 24900, krum: 24900 } as const;
type Variant = keyof typeof until;

const probes: Array<[number, MetricName]> = [
  [8900, 'tamperedAccepted'],
  [8900, 'tamperedRejected'],
  [14900, 'duplicateUpdates'],
  [14900, 'replayRejected'],
  [24900, 'accuracy'],
];

async function measure(variant: Variant, seed: number): Promise<Record<string, number | null>> {
  const expect = probes.filter(([at]) => at <= until[variant]).map(([at, metric]) => ({ at, metric, op: '>=', value: 0, variant: '*' }));
  const base = validateScenario({ ...lesson, seed, expect });
  if (!base.ok) throw new Error(base.errors.join('\n'));
  const v = variant === 'sha256' ? base : resolveVariant(base.scenario, variant);
  if (!v.ok) throw new Error(v.errors.join('\n'));
  const trainer = await LocalTrainer.create({ model: v.scenario.model, seed, backend: 'cpu' });
  const sim = await Simulation.create(v.scenario, { trainer, sampleEveryMs: 0 });
  const s = await sim.runToEnd({ untilMs: until[variant] });
  await trainer.dispose();
  return Object.fromEntries(s.expectations.map((e) => [`${e.metric}@${e.at}`, e.actual]));
}

describe('L13 shapes hold on fresh seeds', () => {
  it.each(FRESH_SEEDS)(
    'seed %i',
    async (seed) => {
      const m = {} as Record<Variant, Record<string, number | null>>;
      for (const k of Object.keys(until) as Variant[]) m[k] = await measure(k, seed);
      // 1. A recomputed digest passes; a keyed tag cannot be forged.
      expect(m.sha256['tamperedAccepted@8900']).toBeGreaterThan(0);
      expect(m.sha256['tamperedRejected@8900']).toBe(0);
      expect(m.hmac['tamperedAccepted@8900']).toBe(0);
      expect(m.hmac['tamperedRejected@8900']).toBeGreaterThan(0);
      // 2. Replays: valid tags over the values alone; refused once (worker, step) and a sequence number are inside.
      expect(m.hmac['duplicateUpdates@14900']).toBeGreaterThan(0);
      expect(m.hmac['replayRejected@14900']).toBe(0);
      expect(m['hmac-step']['duplicateUpdates@14900']).toBe(0);
      expect(m['hmac-step']['replayRejected@14900']).toBeGreaterThanOrEqual(20);
      // 3. One sign-flipping worker of seven: the mean breaks, the robust rules hold.
      const mean = m['hmac-step']['accuracy@24900']!;
      expect(mean).toBeLessThan(0.7);
      for (const robust of ['median', 'krum'] as const) {
        expect(m[robust]['accuracy@24900'], robust).toBeGreaterThan(0.85);
        expect(m[robust]['accuracy@24900']! - mean, robust).toBeGreaterThan(0.2);
      }
    },
    180_000,
  );
});
