import { describe, expect, it } from 'vitest';
import { decodeScenarioHash } from '../scenario/hashCodec';
import { parseUrlParams } from '../scenario/url';
import type { UrlProblem } from '../scenario/urlProblems';
import { urlProblemText } from './urlProblemText';

/** One problem of each kind, as the parser, the lesson opener and the loader report them. */
const every: UrlProblem[] = [
  { problem: 'not-id', param: 'scenario', value: 'Bad Id' },
  { problem: 'not-flag', param: 'autoplay', value: 'yes' },
  { problem: 'not-choice', param: 'lang', value: 'fr', choices: ['en', 'zh'] },
  { problem: 'not-choice', param: 'backend', value: 'gpu', choices: ['auto', 'webgpu', 'webgl', 'wasm', 'cpu'] },
  { problem: 'not-speed', param: 'speed', value: 'fast' },
  { problem: 'speed-range', param: 'speed', value: '500', min: 0.1, max: 100 },
  { problem: 'not-time', param: 'at', value: 'soon' },
  { problem: 'not-step', param: 'step', value: '4', example: 'partition.3' },
  { problem: 'no-act', param: 'step', value: 'six.1', act: 'six', acts: ['one', 'two'] },
  { problem: 'no-step', param: 'step', value: 'one.3', act: 'one', step: '3', steps: ['N1', 'N2'] },
  { problem: 'unknown-builtin', param: 'scenario', value: 'nope', known: ['async-partition', 'raft-ps-majority'] },
  { problem: 'unknown-lesson', param: 'lesson', value: 'nope', known: ['cap-partition-choice', 'paxos-vs-2pc'] },
  { problem: 'unknown-variant', param: 'variant', value: 'nope', known: ['async'] },
  { problem: 'unknown-variant', param: 'variant', value: 'nope', known: [] },
  { problem: 'lesson-only', param: 'step', value: 'majority.n2', lesson: 'raft-ps-majority' },
  { problem: 'lesson-only', param: 'mode', value: 'guided' },
  { problem: 'unknown-param', param: 'sped', value: 'max', hint: 'speed' },
  { problem: 'scenario-setting', param: 'workers', value: '8', setting: 'workers', onPage: true },
  { problem: 'scenario-setting', param: 'seed', value: '7', setting: 'seed', onPage: false },
  { problem: 'hash-truncated' },
  { problem: 'hash-bad-char', char: '<', position: 1 },
  { problem: 'hash-not-utf8' },
  { problem: 'hash-damaged' },
];

describe('urlProblemText', () => {
  it('says each problem in English, naming the parameter and the value', () => {
    expect(every.map((p) => urlProblemText('en', p))).toEqual([
      'scenario: "Bad Id" is not a scenario id (lowercase letters, digits and "-")',
      'autoplay: "yes" is not 1 or 0',
      'lang: "fr" is not en or zh',
      'backend: "gpu" is not auto, webgpu, webgl, wasm, or cpu',
      'speed: "fast" is not a number or "max"',
      'speed: 500 is outside 0.1…100 (or use "max")',
      'at: "soon" is not a simulated time in ms (a number ≥ 0)',
      'step: "4" is not <act>.<n> (e.g. partition.3)',
      'step: no act "six" (acts: one, two)',
      'step: act "one" has steps 1–2 (N1, N2), not "3"',
      'scenario: no built-in scenario "nope" (built-ins: async-partition, raft-ps-majority)',
      'lesson: no lesson "nope" (lessons: cap-partition-choice, paxos-vs-2pc)',
      'variant: no variant "nope" (variants: async)',
      'variant: no variant "nope" (this scenario has no variants)',
      'step: applies to a lesson only; this one opens as a lesson with lesson=raft-ps-majority',
      'mode: applies to a lesson only; open one with lesson=<id>',
      'sped: the page has no such parameter — did you mean speed?',
      "workers: the address cannot set a scenario's workers; use the page's control for it, or a scenario file (Open…)",
      "seed: the address cannot set a scenario's seed; set it in a scenario file (Open…)",
      '#scenario: the encoded scenario is truncated',
      '#scenario: invalid character "<" at position 1',
      '#scenario: the decoded data is not UTF-8 text',
      '#scenario: the compressed scenario is damaged (was the link cut short?)',
    ]);
  });

  it('says each problem in Chinese, with the same parameter and value and no English sentence', () => {
    for (const p of every) {
      const zh = urlProblemText('zh', p);
      const en = urlProblemText('en', p);
      expect(zh).not.toBe(en);
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
      // The parameter's name and the refused value stay as written: they are what the reader fixes.
      if ('param' in p) expect(zh.startsWith(`${p.param}：`)).toBe(true);
      else expect(zh.startsWith('#scenario：')).toBe(true);
      // A parameter the page does not read is named; its value is not the mistake.
      const valueNamed = p.problem !== 'no-act' && p.problem !== 'no-step' && p.problem !== 'unknown-param' && p.problem !== 'scenario-setting' && p.problem !== 'lesson-only';
      if ('value' in p && valueNamed) expect(zh).toContain(p.value);
    }
    expect(urlProblemText('zh', every[2])).toBe('lang：“fr”无效，只能是 en或zh');
    expect(urlProblemText('zh', every[9])).toBe('step：“one”这一幕只有第 1–2 步（N1、N2），没有“3”');
  });

  it('words what the parser reports (the page shows these under "Problem with the page address")', () => {
    const p = parseUrlParams('?lang=constructor&scenario=__proto__', '');
    expect(p.problems.map((x) => urlProblemText('en', x))).toEqual([
      'scenario: "__proto__" is not a scenario id (lowercase letters, digits and "-")',
      'lang: "constructor" is not en or zh',
    ]);
    // A misspelt parameter and a scenario's setting are named; a messenger's own (`from`, `utm_source`) is left alone.
    const q = parseUrlParams('?scenario=raft-ps-majority&Speed=max&sped=2&Workers=8&learningrate=0.1&from=singlemessage&utm_source=x&fbclid=abc&role=teacher&room=K7QX2&key=k', '');
    expect(q.problems.map((x) => urlProblemText('en', x))).toEqual([
      'Speed: the page has no such parameter — did you mean speed?',
      'sped: the page has no such parameter — did you mean speed?',
      "Workers: the address cannot set a scenario's workers; use the page's control for it, or a scenario file (Open…)",
      "learningrate: the address cannot set a scenario's learningRate; set it in a scenario file (Open…)",
    ]);
    const d = decodeScenarioHash('%3Cscript%3E');
    expect(d.ok ? '' : urlProblemText('en', d.problem)).toBe('#scenario: invalid character "%" at position 1');
  });
});
