import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../scenario/validate';
import { parseScenarioText } from '../scenario/loader';
import { problemLine, type ProblemFact, type ScenarioProblem } from '../scenario/problems';
import { problemLines, scenarioProblemText } from './scenarioProblemText';
import { ensureLang } from './i18n/catalog';

/**
 * A scenario file's problems reach the reader as facts (scenario/problems.ts) that the app words:
 * in English the very line the checker (and the CLI) prints, in Chinese a sentence that keeps the
 * field's path and the value as the file wrote them.
 */

const base = { schema: 1, id: 'test', seed: 7, durationMs: 20000, cluster: { workers: 4 }, strategy: { kind: 'allreduce' } };

/** Files that break each rule the checker words as a fact. */
const bad: unknown[] = [
  { ...base, id: undefined },
  { ...base, cluster: { workers: 2.5 } },
  { ...base, seed: 'x' },
  { ...base, durationMS: 1 },
  { ...base, strategy: { kind: 'nope' } },
  { ...base, timeline: [{ at: 1, do: 'explode' }, { at: 1 }] },
  { ...base, expect: [{ at: 'soon', metric: 'loss', op: '<', value: 1 }] },
  { ...base, model: { dataset: 'mnist' } },
  { ...base, timeline: [{ at: 1, do: 'partition', groups: [] }] },
  { ...base, durationMs: -1, cluster: { workers: 100 } },
  { ...base, id: 'Bad_Id', compute: { stragglers: [{ node: 'x1', slowdown: 2 }] } },
  { ...base, schema: 2 },
  { ...base, timeline: [{ at: 999999, do: 'heal' }, { at: 100, do: 'crash', node: 'w9' }] },
  { ...base, strategy: { kind: 'raft-ps' }, cluster: { workers: 2, servers: 1 } },
  { ...base, timeline: [{ at: 100, do: 'crash', node: 'w3' }], variants: [{ id: 'small', patch: { cluster: { workers: 2 } } }] },
  { ...base, timeline: Array.from({ length: 30 }, () => ({ at: 1, do: 'crash', node: 'w9' })) },
  { ...base, timeline: [{ at: 1, do: 'cut', from: 'w0', to: 'w0' }] },
  { ...base, variants: [{ id: 'a', patch: {} }, { id: 'a', patch: {} }, { id: 'base', patch: {} }, { id: 'b', patch: { seed: 2 } }] },
  { ...base, expect: [{ variant: 'nope', at: 'end', metric: 'loss', op: '<', value: 1 }] },
  { ...base, model: { dataset: 'fashion-mnist', samples: 5001 } },
  { ...base, security: { integrity: 'sha256' }, timeline: [{ at: 1, do: 'tamper', from: 'w0', to: 'w1', attack: 'flip' }] },
  { ...base, cluster: { workers: 2, servers: 1, coord: 3 }, strategy: { kind: 'ps-async', writeLock: 'lease' }, timeline: [{ at: 1, do: 'tamper', from: 'w0', to: 'c0', attack: 'flip' }] },
  { ...base, cluster: { workers: 2, servers: 1 }, strategy: { kind: 'ps-async', writeLock: 'lease' } },
  { ...base, cluster: { workers: 2, servers: 1 }, strategy: { kind: 'ps-async', fencing: true } },
  { ...base, timeline: [{ do: 'heal' }, { at: 1, on: { event: 'leaderElected' }, do: 'heal' }, { on: { event: 'leaderElectd' }, do: 'heal' }, { at: 1, do: 'partition', groups: [['w0', 'w0'], ['w1']] }] },
  // Protocols' own rules: Kafka's replicas and a name it does not have, the coordination service's reads and sessions, Krum's n.
  { ...base, cluster: { workers: 2, servers: 1, brokers: 1 }, strategy: { kind: 'kafka-ps', 'replication.factor': 3, readFrom: { w5: 's0' } } },
  { ...base, cluster: { workers: 2, servers: 1, brokers: 1 }, strategy: { kind: 'kafka-ps', 'max.message.delay.ms': 5 } },
  { ...base, cluster: { workers: 2, servers: 1, coord: 3 }, strategy: { kind: 'ps-async' }, coordination: { service: 'etcd', reads: 'local', sessions: { w1: 'c7' } } },
  { ...base, cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-sync', aggregation: 'krum', f: 1, backupWorkers: 1 } },
  brokenLesson(),
  // The schemas' own rules (refines): a text's language tag, an expectation's value and comparison fields, an election timeout range, a try without "do".
  { ...base, title: { en: 'x', zh: 'y', English: 'y' }, expect: [{ at: 'end', metric: 'loss', op: '<' }, { at: 'end', metric: 'loss', op: '<', value: 1, thanAt: 100 }, { at: 'end', metric: 'loss', op: '<', value: 1, factor: 2 }] },
  { ...base, cluster: { workers: 2, servers: 3 }, strategy: { kind: 'raft-ps', electionTimeoutMs: [300, 150] } },
  tryWithoutDo(),
];

/** L1 with a try step whose action has no "do" (a schema rule: the lesson's other rules are not reached). */
function tryWithoutDo(): unknown {
  const l = JSON.parse(readFileSync('public/scenarios/cap-partition-choice.json', 'utf8')) as { acts: Array<{ steps: Array<{ try?: { action: unknown } }> }> };
  l.acts.flatMap((a) => a.steps).find((x) => x.try)!.try!.action = { node: 'w0' };
  return l;
}

/** L1 (a two-variant lesson) with a script that breaks each of the lesson's rules. */
function brokenLesson(): unknown {
  const l = JSON.parse(readFileSync('public/scenarios/cap-partition-choice.json', 'utf8')) as {
    acts: Array<{ id: string; show: string[]; steps: Array<{ id: string; when: unknown; text: { en: string; zh: string }; predict?: { answer: number }; try?: { action: unknown } }> }>;
  };
  const [act] = l.acts;
  const steps = act.steps;
  steps[0].when = { event: 'leaderElectd' };
  steps[1].when = { afterStep: 'zz', delayMs: 0 };
  steps[2].when = { at: 1e9 };
  steps[2].id = steps[1].id;
  steps[4].when = { metric: 'relDivergenc', op: '>', value: 0.1 };
  steps[5].text = { en: 'see {{nope:loss@end}} and {{ring loss}}', zh: '见 {{ring:loss[w9]@end}}' };
  const predicted = steps.find((x) => x.predict)!;
  predicted.predict!.answer = 9;
  const tried = l.acts.flatMap((a) => a.steps).find((x) => x.try)!;
  tried.try!.action = { do: 'partition', groups: [['w0', 'w9'], ['w2', 'w3']] };
  l.acts.push({ ...act, show: ['ring', 'nope'], steps: [{ ...steps[0], id: 'extra', when: { at: 0 } }] });
  return l;
}

function problemsOf(input: unknown): { errors: string[]; problems: ScenarioProblem[] } {
  const r = validateScenario(input);
  if (r.ok || !r.problems) throw new Error(`expected typed problems for ${JSON.stringify(input)}`);
  return { errors: r.errors, problems: r.problems };
}

const checked = bad.map(problemsOf);
const at = (path: PropertyKey[], fact: ProblemFact): ScenarioProblem => ({ path, root: 'scenario', fact });
/** Facts no current schema produces from a file, built by hand so their wording is pinned too. */
const byHand: ScenarioProblem[] = [
  at(['x'], { kind: 'invalidValue', got: { t: 'object' } }),
  at(['x'], { kind: 'invalidKey', inner: { kind: 'tooShort', min: '1' } }),
  at(['x'], { kind: 'invalidKey', inner: null }),
  at(['x'], { kind: 'notMultipleOf', divisor: '5', got: { t: 'number', v: 7 } }),
  at(['x'], { kind: 'tooLong', max: '40' }),
  at(['x'], { kind: 'tooManyItems', max: '1', got: 3 }),
  at(['x'], { kind: 'wrongType', expected: 'array', got: { t: 'number', v: Infinity } }),
  { ...at(['cluster', 'workers'], { kind: 'tooBig', max: '64', inclusive: true, got: { t: 'number', v: 99 } }), file: 'lesson.json' },
  at(['timeline', 0, 'node'], { kind: 'unknownNode', id: 'w0', known: [] }),
  at(['shapes', 0, 'variants'], { kind: 'shapeListedTwice' }),
  { more: 4 },
  at(['timeline', 0], { kind: 'other', text: 'a rule worded only where it is checked' }),
  at([], { kind: 'notAnId', id: 'Bad Id' }),
  at([], { kind: 'noBuiltin', id: 'nope' }),
  at([], { kind: 'httpStatus', id: 'nope', status: 500 }),
  at([], { kind: 'unreachable', id: 'nope', cause: 'Failed to fetch' }),
  { path: [], root: 'scenarios/index.json', fact: { kind: 'notAnIndex' } },
];

function kindOf(p: ScenarioProblem): string {
  return 'more' in p ? 'more' : 'json' in p ? 'json' : p.fact.kind;
}

describe('scenarioProblemText', () => {
  it('in English, is the line the checker prints, for every problem', () => {
    for (const { errors, problems } of checked) expect(problems.map((p) => scenarioProblemText('en', p))).toEqual(errors);
    for (const p of byHand) expect(scenarioProblemText('en', p)).toBe(problemLine(p));
  });

  it('covers every kind of fact', () => {
    const seen = new Set([...checked.flatMap((c) => c.problems), ...byHand].map(kindOf));
    const all = ['missing', 'notInteger', 'wrongType', 'unknownFields', 'unknownOption', 'noBranch', 'invalidValue', 'notOneOf', 'tooFewItems', 'tooManyItems', 'tooShort', 'tooLong', 'tooSmall', 'tooBig', 'badFormat', 'invalidKey', 'notMultipleOf', 'schemaVersion', 'afterEnd', 'unknownNode', 'strategyNeeds', 'duplicateId', 'namesBase', 'fixedField', 'noVariant', 'fashionImages', 'noWire', 'coordLink', 'leaseNeedsCoord', 'fencingNeedsLease', 'atOrOn', 'atAndOn', 'unknownEvent', 'listedTwice', 'sameNode', 'noRun', 'afterRunEnd', 'unknownMetric', 'lessonEvent', 'noStep', 'notAnOption', 'badPlaceholder', 'inPlaceholder', 'duplicateStep', 'shapeListedTwice', 'misnomer', 'replicasNeedBrokers', 'otherServiceRead', 'krumTooFew', 'langTag', 'valueMissing', 'comparisonValue', 'comparisonOnly', 'actionNeedsDo', 'rangeOrder', 'other', 'notAnId', 'noBuiltin', 'httpStatus', 'unreachable', 'notAnIndex', 'more'];
    // tooShort appears inside invalidKey only.
    expect(all.filter((k) => !seen.has(k) && k !== 'tooShort')).toEqual([]);
  });

  it('in Chinese, keeps the path and the value as written and says the rest in Chinese', async () => {
    await ensureLang('zh');
    const zh = (i: number) => problemLines('zh', checked[i]);
    expect(zh(0)).toEqual(['id：缺少此项（应为字符串）']);
    expect(zh(3)).toEqual(['场景文件：没有“durationMS”这个字段（是不是“durationMs”？）']);
    expect(zh(9)).toEqual(['durationMs：必须大于 0，输入的是 -1', 'cluster.workers：不能大于 64，输入的是 100']);
    expect(zh(13)).toEqual(['cluster.servers：策略“raft-ps”至少需要 3 个服务器（现在是 1 个）']);
    expect(zh(14)).toEqual(['variants[0]（“small”）：timeline[0].node：节点“w3”不存在（集群中有 w0-w1）']);
    expect(zh(15).at(-1)).toBe('……还有 5 个问题');
    const lessonLines = problemLines('zh', checked[bad.indexOf(bad.find((x) => x !== null && typeof x === 'object' && 'acts' in x)!)]);
    // A step's try names its action's problem under the step, as the file's own timeline does.
    expect(lessonLines).toContain('acts[0].steps[3].try.action.groups：节点“w9”不存在（集群中有 w0-w3）');
    expect(scenarioProblemText('zh', byHand[7])).toBe('lesson.json：cluster.workers：不能大于 64，输入的是 99');
    expect(scenarioProblemText('zh', byHand[8])).toBe('timeline[0].node：节点“w0”不存在（集群中没有节点）');
    // Past its path, every line but an English-only rule's is Chinese: the Latin words left are
    // what the file writes (quoted values, field and strategy names, JSON's literals).
    // …and the terms the glossary keeps (防护令牌（fencing token）) and field names in the sentence.
    // …the lesson's own run and step ids, systems and people the glossary keeps, knob names and values.
    const kept = new Set(['null', 'true', 'false', 'undefined', 'CAP', 'ID', 'fencing', 'token', 'writeLock', 'ring', 'async', 'extra']);
    for (const w of ['Kafka', 'ZooKeeper', 'etcd', 'Blanchard', 'acks', 'krum', 'backupWorkers', 'HTTP']) kept.add(w);
    const english: string[] = [];
    for (const p of [...checked.flatMap((c) => c.problems), ...byHand]) {
      // `other` is English only.
      if (kindOf(p) === 'other') continue;
      // `unreachable` quotes the browser's own words, after a Chinese sentence.
      const line = scenarioProblemText('zh', p).replace(/（浏览器报告：[^）]*）/, '');
      expect(line).toMatch(/[\u4e00-\u9fff]/);
      const words = line
        .replace(/[^\s：（）]+(?=：|（“)|[A-Za-z_]\w*(?:\.\w+|\[\d+\])+/g, ' ')
        .replace(/\{\{[^}]*\}\}|"[^"\s]*"|“[^”]*”|\b[wsbc]\d+\b|[a-z]+(?:-[a-z0-9]+)+|\b(?:allreduce|ssp|degrade|partition|heal|cut|restore|crash|restart|slow|timeout|link|pause|putMeta|tamper|untamper|byzantine|honest|submit|network|broker)\b/g, ' ')
        .match(/[A-Za-z]{2,}/g);
      for (const w of words ?? []) if (!kept.has(w)) english.push(`${w} in ${line}`);
    }
    expect(english).toEqual([]);
  });

  it('a text that is not JSON: where and why, for every kind of syntax error', async () => {
    await ensureLang('zh');
    const texts: Array<[string, string]> = [
      ['', '第 1 行第 1 列：文件是空的'],
      ['{"a":1,}', '第 1 行第 8 列："}" 前面多了一个逗号'],
      ['[1,]', '第 1 行第 4 列："]" 前面多了一个逗号'],
      ['{"a" 1}', '第 1 行第 6 列：这里是「1」，应为属性名后的冒号 ":"'],
      ['{"a":1\n"b":2}', '第 2 行第 1 列：这里是「"」，应为逗号 "," 或 "}"'],
      ['[1 2]', '第 1 行第 4 列：这里是「2」，应为逗号 "," 或 "]"'],
      ['{"a":1} x', '第 1 行第 9 列：JSON 值之后应为文件结尾，这里却是「x」'],
      ['{"a":', '第 1 行第 6 列：这里是文件结尾，应为一个值'],
      ['{a:1}', '第 1 行第 2 列：这里是「a」，应为用双引号括起的属性名'],
      ["{'a':1}", '第 1 行第 2 列：属性名要用双引号，不能用单引号'],
      ['{"a":\'x\'}', '第 1 行第 6 列：字符串要用双引号，不能用单引号'],
      ['{"a":yes}', '第 1 行第 6 列：意外的单词 "yes"；字符串要用双引号，字面量只有 true、false 和 null'],
      ['{"a":01}', '第 1 行第 7 列：无效的数字'],
      ['{"a":"x', '第 1 行第 8 列：字符串没有结束（少了右引号）'],
      ['{"a":"x\n"}', '第 1 行第 8 列：字符串中有未转义的控制字符或换行（是不是少了右引号？）'],
      ['{"a":"\\q"}', '第 1 行第 8 列：字符串中有无效的转义 "\\q"'],
      ['{"a":"\\u12"}', '第 1 行第 9 列：无效的 \\u 转义：后面应为 4 个十六进制数字'],
      ['['.repeat(300), '第 1 行第 257 列：嵌套超过 256 层（一个场景大约只需 6 层）'],
      ['{"a":\n', '第 2 行第 1 列：这里是文件结尾，应为一个值'],
    ];
    for (const [text, zh] of texts) {
      const r = parseScenarioText(text);
      if (r.ok || !r.problems) throw new Error(`expected a syntax problem in ${text}`);
      expect(problemLines('en', r), text).toEqual(r.errors);
      expect(problemLines('zh', r), text).toEqual([zh]);
    }
    // A failure without facts (a built-in's index, a fetch) shows its lines as they are.
    expect(problemLines('zh', { errors: ['scenario: could not load "x" (HTTP 500)'] })).toEqual(['scenario: could not load "x" (HTTP 500)']);
  });
});
