import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Expectation } from '../../scenario/schema';
import { compareMetrics } from './compare';

const lesson = (expect: Partial<Expectation>[], baseId = 'bsp') => ({ base: { id: baseId, title: { en: 'b', zh: 'b' } }, expect: expect as Expectation[] });

describe('compareMetrics: the columns of a three-variant act’s comparison', () => {
  it('takes the checks on the shown variants, measurements before invariants, in the lesson’s order', () => {
    const l = lesson([
      { variant: 'bsp', metric: 'delayedRounds', op: '==', value: 0.337 },
      { variant: 'ring', metric: 'syncMs', op: '<', value: 9 }, // not shown
      { variant: 'bsp', metric: 'versionConflicts', op: '==', value: 0 }, // an invariant
      { variant: 'asp', metric: 'steps', op: '>', than: 'bsp', factor: 1.5 },
      { variant: '*', metric: 'violations', op: '==', value: 0 },
      { metric: 'meanGradStaleness', op: '==', value: 0 }, // the base's, an invariant
    ]);
    expect(compareMetrics(l, ['bsp', 'asp'], [])).toEqual(['delayedRounds', 'steps', 'versionConflicts', 'violations']);
    // A focused metric the checks do not name comes last; with too many, the focused ones stay.
    expect(compareMetrics(l, ['asp'], ['loss'])).toEqual(['steps', 'violations', 'loss']);
    expect(compareMetrics(l, ['bsp', 'asp'], ['loss'])).toEqual(['delayedRounds', 'steps', 'versionConflicts', 'loss']);
  });

  it('on the PACELC lesson’s first act: delayed rounds, rounds, steps and staleness', () => {
    const pacelc = JSON.parse(readFileSync('public/scenarios/pacelc-barrier-stragglers.json', 'utf8')) as Parameters<typeof compareMetrics>[0] & { acts: { show: string[] }[] };
    expect(compareMetrics(pacelc, pacelc.acts[0].show, [])).toEqual(['delayedRounds', 'version', 'steps', 'meanGradStaleness']);
  });
});
