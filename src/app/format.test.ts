import { describe, expect, it } from 'vitest';
import { expectationText, formatMetric, formatSeconds } from './format';
import { keysOf, s } from './i18n/strings';

describe('format', () => {
  it('shows simulated time in seconds with one decimal', () => {
    expect(formatSeconds(12400)).toBe('12.4 s');
    expect(formatSeconds(0)).toBe('0.0 s');
  });

  it('keeps metric values plain numbers (tests read them)', () => {
    expect(formatMetric('availability', 0)).toBe('0');
    expect(formatMetric('availability', 1)).toBe('1');
    expect(formatMetric('availability', 0.75)).toBe('0.75');
    expect(formatMetric('bytes', 12345.6)).toBe('12346');
    expect(formatMetric('accuracy', 0.9321)).toBe('0.932');
    expect(formatMetric('divergence', 0)).toBe('0');
    expect(formatMetric('divergence', 0.012345)).toBe('0.012');
    expect(formatMetric('staleness', 7)).toBe('7');
    expect(formatMetric('loss', null)).toBe('—');
    expect(Number(formatMetric('steps', 240))).toBe(240);
  });

  it('writes expectations as "t=12.9 s availability == 0 — actual 0 ✓"', () => {
    const base = { time: 12900, metric: 'availability', op: '==', value: 0 };
    expect(expectationText({ ...base, actual: 0, pass: true }, 'en')).toBe('t=12.9 s availability == 0 — actual 0 ✓');
    expect(expectationText({ ...base, actual: 0.5, pass: false }, 'en')).toBe('t=12.9 s availability == 0 — actual 0.5 ✗');
    expect(expectationText({ ...base, actual: null, pass: null }, 'en')).toBe('t=12.9 s availability == 0 — pending');
    expect(expectationText({ ...base, node: 'w2', metric: 'staleness', op: '>', value: 10, actual: 70, pass: true }, 'zh')).toBe(
      't=12.9 s staleness[w2] > 10 — 实际 70 ✓',
    );
  });
});

describe('strings', () => {
  it('has the same keys in both languages, none empty', () => {
    expect(keysOf('zh').sort()).toEqual(keysOf('en').sort());
    for (const lang of ['en', 'zh'] as const) for (const k of keysOf(lang)) expect(s(lang, k as never)).not.toBe('');
  });

  it('fills placeholders', () => {
    expect(s('en', 'workerFailed', { node: 'w2', cause: 'out of memory' })).toBe('Node w2 failed: out of memory. The other nodes keep running.');
    expect(s('zh', 'invalidKnob', { knob: 'rtoMs', message: 'x' })).toBe('参数 rtoMs：x');
  });
});
