import { describe, expect, it } from 'vitest';
import { applyKnob, defaultStrategy, type KnobProblem } from './knobs';
import { knobProblemText } from './knobProblemText';
import { s } from './i18n/strings';

const every: KnobProblem[] = [
  { problem: 'unknown-knob', kind: 'allreduce' },
  { problem: 'not-number' },
  { problem: 'not-json' },
  { problem: 'not-integer', got: 2.5 },
  { problem: 'too-small', min: 0, inclusive: false, got: -5 },
  { problem: 'too-small', min: 0, inclusive: true, got: -1 },
  { problem: 'too-big', max: 64, inclusive: true, got: 100 },
  { problem: 'too-big', max: 1, inclusive: false, got: 1 },
  { problem: 'not-one-of', values: ['none', 'inverse'], got: 'sometimes' },
  { problem: 'not-any-of', types: ['number'], values: ['inf'], got: 'soon' },
];

describe('knobProblemText', () => {
  it('says why a knob refused a value, in English', () => {
    expect(every.map((p) => knobProblemText('en', p))).toEqual([
      'no such knob for strategy allreduce',
      'enter a number',
      'enter a number, "inf", a range such as 150–300, or a JSON value',
      'must be a whole number, got 2.5',
      'must be > 0, got -5',
      'must be ≥ 0, got -1',
      'must be ≤ 64, got 100',
      'must be < 1, got 1',
      'must be "none" or "inverse", got "sometimes"',
      'must be a number or "inf", got "soon"',
    ]);
  });

  it('and in Chinese, with the numbers and values as typed', () => {
    const zh = every.map((p) => knobProblemText('zh', p));
    for (const [i, t] of zh.entries()) {
      expect(t).toMatch(/[\u4e00-\u9fff]/);
      expect(t).not.toBe(knobProblemText('en', every[i]));
    }
    expect(zh[4]).toBe('必须大于 0，输入的是 -5');
    expect(zh[9]).toBe('只能是数字或"inf"，输入的是 "soon"');
  });

  it('an issue the form has no words of its own for is worded as a scenario file’s problem is, in either language', () => {
    const kafka = defaultStrategy('kafka-ps')!;
    const r = applyKnob(kafka, 'readFrom', '{"w0": "x9"}');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problem.problem).toBe('other');
    expect(knobProblemText('en', r.problem)).toBe('expected a PS replica id such as "s0", got "x9"');
    expect(knobProblemText('zh', r.problem)).toBe('应为参数服务器副本 ID，例如 "s0"，输入的是 "x9"');
  });

  it('a schema rule of a knob (an election timeout range backwards) reads in either language', () => {
    const r = applyKnob(defaultStrategy('raft-ps')!, 'electionTimeoutMs', '300–150');
    if (r.ok) throw new Error('300–150 was accepted');
    expect(knobProblemText('en', r.problem)).toBe('the minimum must not exceed the maximum, got 300–150');
    expect(knobProblemText('zh', r.problem)).toBe('最小值不能大于最大值，输入的是 300–\u2060150');
  });

  it('reads what applyKnob reports: a 中文 form says rtoMs -5 in Chinese', () => {
    const r = applyKnob(defaultStrategy('allreduce')!, 'rtoMs', '-5');
    expect(r.ok ? '' : s('zh', 'invalidKnob', { knob: r.knob, message: knobProblemText('zh', r.problem) })).toBe('参数 rtoMs：必须大于 0，输入的是 -5');
  });
});
