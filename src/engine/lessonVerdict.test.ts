import { describe, expect, it } from 'vitest';
import { validateScenario } from '../scenario/validate';
import type { Scenario } from '../scenario/schema';
import type { MetricSample } from '../sim/types';
import { SampleList } from './index/metricSamples';
import { compareWith, hasShape, lessonVerdict, type LessonRun } from './lessonVerdict';
import { InstantTrainer } from './testing/instantTrainer';
import { Simulation } from './simulation';

/** A run whose metric `m` (cluster) and `m[w0]` take the given values at the given times. */
function run(points: Array<[number, number | null]>, durationMs = 1000): LessonRun {
  const samples = points.map(([t, v]) => ({ t, value: { cluster: { version: v, steps: v === null ? null : v * 10 }, nodes: { w0: { version: v === null ? null : v + 1 } } } as MetricSample }));
  return { samples: new SampleList(samples), durationMs };
}

function scenario(over: Record<string, unknown>): Scenario {
  const v = validateScenario({ schema: 1, id: 't', seed: 1, durationMs: 1000, cluster: { workers: 2, servers: 1 }, strategy: { kind: 'ps-async' }, variants: [{ id: 'a', patch: {} }, { id: 'b', patch: {} }], ...over });
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return v.scenario;
}

describe('comparison expectations (CURRICULUM §C.7)', () => {
  it('actual op factor × other + offset; null (never reached) is +∞ on either side', () => {
    expect(compareWith(15, '>', 10, 1.4)).toBe(true);
    expect(compareWith(14, '>', 10, 1.4)).toBe(false);
    expect(compareWith(31, '>', 10, 1, 20)).toBe(true);
    expect(compareWith(30, '>', 10, 1, 20)).toBe(false);
    expect(compareWith(5, '<', null)).toBe(true); // reached beats never reached
    expect(compareWith(null, '>', 5)).toBe(true);
    expect(compareWith(null, '<', 5)).toBe(false);
    expect(compareWith(null, '<=', null)).toBe(true);
    expect(compareWith(null, '<', null)).toBe(false);
  });

  it('than (another run at the same time), thanAt (the same run at another time), per run and per node', () => {
    const s = scenario({
      base: { id: 'one' },
      expect: [
        { at: 500, metric: 'version', op: '>', than: 'a', factor: 2, variant: 'b' },
        { at: 900, metric: 'version', op: '>=', thanAt: 500, offset: 3 },
        { at: 900, metric: 'version', node: 'w0', op: '==', thanAt: 500, offset: 4, variant: '*' },
        { at: 500, metric: 'steps', op: '<', than: 'one', variant: 'a' },
      ],
    });
    const runs = new Map<string, LessonRun>([
      ['one', run([[0, 0], [500, 2], [900, 5]])],
      ['a', run([[0, 0], [500, 3], [900, 7]])],
      ['b', run([[0, 0], [500, 7], [900, 9]])],
    ]);
    const v = lessonVerdict(s, runs);
    const b = v.comparisons.get('b')!;
    expect(b.map((c) => [c.actual, c.other, c.pass])).toEqual([
      [7, 3, true], // 7 > 2 × 3
      [10, 8, false], // w0: 10 == 8 + 4 does not hold
    ]);
    expect(v.comparisons.get('one')!.map((c) => [c.metric, c.actual, c.other, c.pass])).toEqual([
      ['version', 5, 2, true],
      ['version', 6, 3, false],
    ]);
    expect(v.comparisons.get('a')!.map((c) => [c.metric, c.actual, c.other, c.pass])).toEqual([
      ['version', 8, 4, true],
      ['steps', 30, 20, false],
    ]);
    expect(v.pass).toBe(false);
  });

  it('a comparison is pending (null) until both runs have reached their times', () => {
    const s = scenario({ expect: [{ at: 900, metric: 'version', op: '>', than: 'a', variant: 'b' }] });
    const v = lessonVerdict(s, new Map([['base', run([[0, 0]])], ['a', run([[0, 0], [500, 1]])], ['b', run([[0, 0], [900, 4]])]]));
    expect(v.comparisons.get('b')![0]).toMatchObject({ pass: null, actual: null, other: null });
    expect(v.pass).toBe(false);
  });
});

describe('shape expectations', () => {
  it('u: the minimum strictly inside, below both ends by more than the tolerance', () => {
    expect(hasShape([9, 5, 7], 'u')).toBe(true);
    expect(hasShape([9, 5, null], 'u')).toBe(true); // never reached = +∞
    expect(hasShape([5, 5, 7], 'u')).toBe(false);
    expect(hasShape([4, 5, 7], 'u')).toBe(false);
    expect(hasShape([9, 8.5, 9], 'u', 1)).toBe(false);
    expect(hasShape([null, null, null], 'u')).toBe(false);
  });

  it('increasing / decreasing, strictly without tolerance', () => {
    expect(hasShape([1, 2, 3], 'increasing')).toBe(true);
    expect(hasShape([1, 2, 2], 'increasing')).toBe(false);
    expect(hasShape([1, 2, 1.9], 'increasing', 0.2)).toBe(true);
    expect(hasShape([3, 2, 1], 'decreasing')).toBe(true);
    expect(hasShape([1, 2, null], 'increasing')).toBe(true);
    expect(hasShape([null, 2, 1], 'decreasing')).toBe(true);
  });

  it('reads each listed run at its time, in the listed order', () => {
    const s = scenario({ shapes: [{ metric: 'version', at: 500, variants: ['a', 'base', 'b'], shape: 'u' }] });
    const v = lessonVerdict(s, new Map([['base', run([[500, 1]])], ['a', run([[500, 3]])], ['b', run([[500, 2]])]]));
    expect(v.shapes[0]).toMatchObject({ values: [3, 1, 2], pass: true });
  });
});

describe('the engine samples every time a lesson reads', () => {
  it('a variant run is sampled at the times of the base’s comparisons, so its value is exact there', async () => {
    const s = scenario({ durationMs: 3000, expect: [{ at: 1234, metric: 'steps', op: '>', than: 'a', factor: 0.5, variant: 'b' }, { at: 2345, metric: 'steps', op: '>', thanAt: 1111 }] });
    const { resolveVariant } = await import('../scenario/validate');
    const r = resolveVariant(s, 'a');
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.scenario.sampleAt).toEqual([1111, 1234, 2345]);
    for (const sc of [s, r.scenario]) {
      const sim = await Simulation.create(sc, { trainer: new InstantTrainer(105), sampleEveryMs: 0 });
      await sim.runToEnd();
      expect([...sim.index().metrics].map((m) => m.t)).toEqual([1111, 1234, 2345, 3000]);
    }
  });
});
