import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../engine/api';
import { formatNumber, formatSummary, formatVariant, table, verdict } from './format';

const summary: RunSummary = {
  scenario: 'allreduce-partition',
  seed: 11,
  strategy: 'allreduce',
  simTimeMs: 20000,
  events: 12345,
  params: 105,
  scheduleHash: 'abc123',
  eventLogHash: 'def456',
  metrics: { divergence: 0, steps: 240, loss: 0.212345, availability: 1 },
  nodes: [
    { id: 'w0', role: 'worker', up: true, version: 60, steps: 60, loss: 0.2, accuracy: 0.93 },
    { id: 'w1', role: 'worker', up: false, version: 7, steps: 7 },
  ],
  expectations: [
    { at: 5900, metric: 'availability', op: '==', value: 1, actual: 1, pass: true },
    { at: 'end', metric: 'steps', node: 'w2', op: '>', value: 10, actual: null, pass: false },
  ],
  pass: false,
};

describe('formatNumber', () => {
  it('keeps integers, rounds the rest, marks missing values', () => {
    expect(formatNumber(240)).toBe('240');
    expect(formatNumber(0.212345)).toBe('0.2123');
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber(undefined)).toBe('—');
    expect(formatNumber(Infinity)).toBe('∞');
  });
});

describe('table', () => {
  it('pads columns and right-aligns the chosen ones', () => {
    expect(table([['a', '1'], ['bbb', '22']], [1])).toBe('a     1\nbbb  22');
  });
});

describe('formatSummary', () => {
  const text = formatSummary(summary);

  it('shows the run header', () => {
    for (const s of ['allreduce-partition', 'seed', '11', 'allreduce', '20000 ms', '12345', 'abc123', 'def456']) expect(text).toContain(s);
  });

  it('shows a metrics table and a per-node table', () => {
    expect(text).toMatch(/^divergence\s+0$/m);
    expect(text).toMatch(/^loss\s+0\.2123$/m);
    expect(text).toMatch(/^w0\s+worker\s+up\s+60\s+60\s+0\.2\s+0\.93$/m);
    expect(text).toMatch(/^w1\s+worker\s+down\s+7\s+7\s+—\s+—$/m);
  });

  it('shows each expectation with PASS/FAIL and the verdict', () => {
    expect(text).toMatch(/^PASS\s+availability == 1 at 5\.9 s\s+actual 1$/m);
    expect(text).toMatch(/^FAIL\s+steps\[w2\] > 10 at end\s+actual —$/m);
    expect(text).toMatch(/result: FAIL \(1\/2 expectations hold\)$/);
  });

  it('no expectations is a pass', () => {
    expect(formatSummary({ ...summary, expectations: [], pass: true })).toMatch(/result: PASS \(no expectations\)$/);
  });
});

describe('runs stopped early (--until)', () => {
  const early: RunSummary = {
    ...summary,
    simTimeMs: 8000,
    expectations: [
      { at: 5900, metric: 'availability', op: '==', value: 1, actual: 1, pass: true },
      { at: 12900, metric: 'availability', op: '==', value: 0, actual: null, pass: false },
      { at: 'end', metric: 'steps', node: 'w2', op: '>', value: 10, actual: null, pass: false },
    ],
    pass: false,
  };

  it('expectations after the stop are SKIP, not FAIL, and do not fail the verdict', () => {
    expect(verdict(early, 20000)).toBe(true);
    const text = formatSummary(early, 20000);
    expect(text).toMatch(/^SKIP\s+availability == 0 at 12\.9 s\s+not reached \(run stopped at 8000 ms\)$/m);
    expect(text).toMatch(/^SKIP\s+steps\[w2\] > 10 at end/m);
    expect(text).toMatch(/result: PASS \(1\/1 expectations hold; 2 not reached\)$/);
  });

  it("a variant's line says what was not reached too: '0/0 hold' alone read as a pass that checked something", () => {
    const v = { id: 'etcd-params', scheduleHash: '', eventLogHash: '', metrics: {}, expectations: early.expectations.slice(1), pass: true };
    expect(formatVariant(v, 20000, 8000)).toMatch(/result: PASS \(0\/0 expectations hold; 2 not reached\)$/);
  });

  it('a reached failure still fails', () => {
    const bad = { ...early, expectations: [{ ...early.expectations[0], actual: 0, pass: false }, ...early.expectations.slice(1)] };
    expect(verdict(bad, 20000)).toBe(false);
    expect(formatSummary(bad, 20000)).toMatch(/result: FAIL \(0\/1 expectations hold; 2 not reached\)$/);
  });

  it('without --until the verdict is the engine\'s', () => {
    expect(verdict(summary, summary.simTimeMs)).toBe(summary.pass);
  });
});
