import { describe, expect, it } from 'vitest';
import type { ActionRefusal } from '../engine/api';
import { actionRefusalText } from './actionRefusalText';
import { Simulation } from '../engine/simulation';
import { InstantTrainer } from '../engine/testing/instantTrainer';
import { testScenario } from '../engine/testing/scenarios';
import type { Action } from '../sim/types';
import { ensureLang } from './i18n/catalog';

const refusals: Array<{ error: string; refusal: ActionRefusal }> = [
  { error: 'the run has ended; restart it to try actions', refusal: { refusal: 'ended' } },
  { error: 'no crashed node for "@crashed"', refusal: { refusal: 'no-match', selector: '@crashed' } },
  { error: 'no node matches "@leader" now', refusal: { refusal: 'no-match', selector: '@leader' } },
  { error: 'to: "@leader" and "s1" are the same node now (s1); a link joins two nodes', refusal: { refusal: 'same-node', from: '@leader', to: 's1', node: 's1' } },
];

describe('actionRefusalText', () => {
  it('says in English what the engine says', () => {
    expect(refusals.slice(0, 3).map((r) => actionRefusalText('en', r))).toEqual(refusals.slice(0, 3).map((r) => r.error));
    expect(actionRefusalText('en', refusals[3])).toBe('"@leader" and "s1" are the same node now (s1); a link joins two nodes');
  });

  it('says it in Chinese, naming the selector and the nodes', () => {
    expect(refusals.map((r) => actionRefusalText('zh', r))).toEqual([
      '这次运行已经结束；重新开始后再试',
      '没有已崩溃的节点可对应“@crashed”',
      '现在没有节点符合“@leader”',
      '“@leader”和“s1”现在是同一个节点（s1）；链路要连接两个节点',
    ]);
  });

  it('words an invalid action as the scenario checker does, field first, in either language', async () => {
    await ensureLang('zh');
    const sim = await Simulation.create(testScenario({ cluster: { workers: 4 } }), { trainer: new InstantTrainer(105, 400) });
    const bad = sim.apply({ do: 'pause', node: 'w9', ms: 100 });
    if (bad.ok) throw new Error('w9 was accepted');
    expect(actionRefusalText('en', bad)).toBe('node: node "w9" does not exist (cluster has w0-w3)');
    expect(actionRefusalText('zh', bad)).toBe('node：节点“w9”不存在（集群中有 w0-w3）');
    const malformed = sim.apply({ do: 'crash', nod: 'w1' } as unknown as Action);
    if (malformed.ok) throw new Error('a malformed crash was accepted');
    expect(actionRefusalText('en', malformed)).toBe(malformed.error);
    expect(actionRefusalText('zh', malformed)).toBe('node：缺少此项（应为字符串）；action：没有“nod”这个字段（是不是“node”？）');
  });

  it('says why a scheduled time or a loading module refuses an action', () => {
    const time = (at: number) => ({ error: '', refusal: { refusal: 'time', at, now: 500, end: 1000 } as const });
    expect([NaN, 100, 2000].map((at) => actionRefusalText('en', time(at)))).toEqual([
      'at: NaN is not a time',
      'at 100 ms is before now (500 ms): an action cannot apply in the past',
      'at 2000 ms is after the end of the run (1000 ms)',
    ]);
    expect(actionRefusalText('zh', time(2000))).toBe('指定的时间 2000 ms 晚于运行结束（1000 ms）');
    expect(actionRefusalText('zh', { error: '', refusal: { refusal: 'loading', action: 'tamper' } })).toBe('“tamper”所需的代码还在加载，请稍后再试');
  });
});
