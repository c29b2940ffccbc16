import { describe, expect, it } from 'vitest';
import { expectationText, formatMetric, formatSeconds, stripLayout, worthACell } from './format';
import { metricNames, type MetricName } from '../scenario/schema';
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


describe('stripLayout', () => {
  const definedFor = (names: MetricName[]) => (m: MetricName) => names.includes(m);

  it('spine strategies: core metrics, traffic and violations, nothing hidden', () => {
    const { visible, hidden } = stripLayout('allreduce', definedFor([]), metricNames);
    expect(visible).toEqual(['divergence', 'versionConflicts', 'staleness', 'availability', 'steps', 'loss', 'accuracy', 'lostUpdates', 'bytes', 'messages', 'dropped', 'violations']);
    expect(hidden).toEqual([]);
  });

  it('raft: the strategy metrics replace traffic; at most 12 cells; traffic stays as hidden hooks', () => {
    const { visible, hidden } = stripLayout('raft-ps', definedFor(['leaders', 'term', 'commitIndex', 'maxCommitGapMs', 'staleReads', 'logLength']), metricNames);
    expect(visible.length).toBeLessThanOrEqual(12);
    expect(visible).toEqual(expect.arrayContaining(['leaders', 'term', 'commitIndex', 'maxCommitGapMs', 'violations', 'availability']));
    expect(visible[visible.length - 1]).toBe('violations');
    expect(hidden).toEqual(expect.arrayContaining(['bytes', 'messages', 'dropped', 'accuracy', 'staleReads']));
    expect(visible).not.toContain('logLength');
  });

  it('kafka and degrade show their own metrics, only those defined', () => {
    expect(stripLayout('kafka-ps', definedFor(['consumerLag', 'isrSize', 'rejectedWrites']), metricNames).visible).toEqual(expect.arrayContaining(['consumerLag', 'isrSize', 'rejectedWrites']));
    const d = stripLayout('degrade', definedFor(['degradedWorkers', 'lostWork', 'fencedWrites']), metricNames).visible;
    expect(d).toEqual(expect.arrayContaining(['degradedWorkers', 'lostWork', 'fencedWrites']));
    expect(d).not.toContain('consumerLag');
  });

  it('security counters get a cell only on a protected run or once non-zero; traffic shows otherwise', () => {
    // A ring run defines these (all 0 but the round's bytes): the traffic counters had lost their cells.
    const ring: Partial<Record<MetricName, number>> = { tamperedAccepted: 0, tamperedRejected: 0, replayRejected: 0, sentPerRound: 610620, syncMs: 40 };
    const layout = (values: Partial<Record<MetricName, number>>, secured: boolean) => stripLayout('allreduce', (m) => worthACell(m, values[m] ?? null, secured), metricNames).visible;
    expect(layout(ring, false)).not.toContain('tamperedAccepted');
    expect(layout(ring, false)).toEqual(expect.arrayContaining(['sentPerRound', 'syncMs']));
    expect(layout({ tamperedAccepted: 0, tamperedRejected: 0, replayRejected: 0 }, false)).toEqual(expect.arrayContaining(['bytes', 'messages', 'dropped']));
    expect(layout(ring, true)).toEqual(expect.arrayContaining(['tamperedAccepted', 'tamperedRejected', 'replayRejected']));
    expect(layout({ ...ring, tamperedAccepted: 1 }, false)).toContain('tamperedAccepted');
  });
});
