import { describe, expect, it } from 'vitest';
import type { ActionRefusal } from '../engine/api';
import { actionRefusalText } from './actionRefusalText';

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

  it('keeps the English line of an invalid action, which names its field', () => {
    expect(actionRefusalText('zh', { error: 'node: node "w9" does not exist (cluster has w0-w3, s0)', refusal: { refusal: 'invalid' } })).toBe('node: node "w9" does not exist (cluster has w0-w3, s0)');
  });
});
