import { describe, expect, it } from 'vitest';
import { applyKnob, defaultStrategy, knobControls, strategyKindsFromSchema } from './knobs';
import { formatKnobText, parseLenient } from './knobText';
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
    expect(applyKnob(cur, 'rtoMs', 'abc')).toEqual({ ok: false, knob: 'rtoMs', problem: { problem: 'not-number' } });
    expect(applyKnob(cur, 'rtoMs', '')).toEqual({ ok: false, knob: 'rtoMs', problem: { problem: 'not-number' } });
    expect(applyKnob(cur, 'rtoMs', '-5')).toEqual({ ok: false, knob: 'rtoMs', problem: { problem: 'too-small', min: 0, inclusive: false, got: -5 } });
    expect(applyKnob(defaultStrategy('ps-async') as StrategyConfig, 'lrStaleness', 'sometimes')).toEqual({
      ok: false,
      knob: 'lrStaleness',
      problem: { problem: 'not-one-of', values: ['none', 'inverse'], got: 'sometimes' },
    });
    expect(applyKnob(cur, 'nope', '1')).toEqual({ ok: false, knob: 'nope', problem: { problem: 'unknown-knob', kind: 'allreduce' } });
  });
});

describe('knobs that are neither numbers nor enums', () => {
  it('show and accept "inf" and ranges such as 150–300', () => {
    expect(formatKnobText('inf')).toBe('inf');
    expect(formatKnobText([150, 300])).toBe('150–300');
    expect(formatKnobText(undefined)).toBe(''); // an unset optional knob (readFrom) read 'undefined'
    expect(parseLenient('inf')).toBe('inf');
    expect(parseLenient('∞')).toBe('inf');
    expect(parseLenient('150–300')).toEqual([150, 300]);
    expect(parseLenient('[200, 400]')).toEqual([200, 400]);
    expect(parseLenient('3')).toBe(3);
    expect(parseLenient('')).toBeUndefined();
  });

  it('SSP staleness takes "inf" and a number; a bad value names the knob', () => {
    const ssp = defaultStrategy('ssp')!;
    const inf = applyKnob(ssp, 'staleness', 'inf');
    expect(inf.ok && (inf.strategy as { staleness: unknown }).staleness).toBe('inf');
    const four = applyKnob(ssp, 'staleness', '4');
    expect(four.ok && (four.strategy as { staleness: unknown }).staleness).toBe(4);
    expect(applyKnob(ssp, 'staleness', 'soon')).toEqual({ ok: false, knob: 'staleness', problem: { problem: 'not-any-of', types: ['number'], values: ['inf'], got: 'soon' } });
    expect(applyKnob(ssp, 'staleness', '-1')).toEqual({ ok: false, knob: 'staleness', problem: { problem: 'too-small', min: 0, inclusive: true, got: -1 } });
  });

  it('Raft electionTimeoutMs takes a range', () => {
    const raft = defaultStrategy('raft-ps')!;
    const r = applyKnob(raft, 'electionTimeoutMs', '300–600');
    expect(r.ok && (r.strategy as { electionTimeoutMs: unknown }).electionTimeoutMs).toEqual([300, 600]);
  });
});
