import { describe, expect, it } from 'vitest';
import { applyKnob, defaultStrategy, knobControls, strategyKindsFromSchema } from './knobs';
import type { StrategyConfig } from '../scenario/schema';

describe('knob controls from the zod schema', () => {
  it('lists every strategy kind', () => {
    expect(strategyKindsFromSchema()).toEqual(expect.arrayContaining(['allreduce', 'ps-async']));
  });

  it('maps number → number, boolean → checkbox, enum → select, with defaults', () => {
    const ar = knobControls('allreduce');
    expect(ar.find((c) => c.key === 'rtoMs')).toMatchObject({ type: 'number', default: 200 });
    const scaling = ar.find((c) => c.key === 'lrLinearScaling');
    expect(scaling).toMatchObject({ type: 'boolean' });
    expect(typeof scaling?.default).toBe('boolean');
    const ps = knobControls('ps-async');
    expect(ps.find((c) => c.key === 'lrStaleness')).toMatchObject({ type: 'enum', default: 'none', options: ['none', 'inverse'] });
    expect(ps.some((c) => c.key === 'kind')).toBe(false);
    expect(knobControls('no-such')).toEqual([]);
  });

  it('applies a valid value and keeps the rest', () => {
    const cur = defaultStrategy('ps-async') as StrategyConfig;
    const r = applyKnob(cur, 'pushTimeoutMs', '450');
    expect(r).toEqual({ ok: true, strategy: { ...cur, pushTimeoutMs: 450 } });
    const ar = defaultStrategy('allreduce') as StrategyConfig & { lrLinearScaling: boolean };
    const b = applyKnob(ar, 'lrLinearScaling', !ar.lrLinearScaling);
    expect(b.ok && b.strategy).toMatchObject({ lrLinearScaling: !ar.lrLinearScaling });
  });

  it('rejects bad input naming the knob', () => {
    const cur = defaultStrategy('allreduce') as StrategyConfig;
    expect(applyKnob(cur, 'rtoMs', 'abc')).toEqual({ ok: false, knob: 'rtoMs', message: 'enter a number' });
    expect(applyKnob(cur, 'rtoMs', '')).toMatchObject({ ok: false, knob: 'rtoMs' });
    const neg = applyKnob(cur, 'rtoMs', '-5');
    expect(neg.ok).toBe(false);
    if (!neg.ok) expect(neg.knob).toBe('rtoMs');
    expect(applyKnob(defaultStrategy('ps-async') as StrategyConfig, 'lrStaleness', 'sometimes').ok).toBe(false);
    expect(applyKnob(cur, 'nope', '1')).toMatchObject({ ok: false, knob: 'nope' });
  });
});
