import type { CheckWhat } from '../../check/models';

/**
 * What the checkers hold a strategy to (check/models.ts), in Chinese (a lazy chunk, loaded with
 * zh.json: i18n/catalog.ts).
 * One entry per CheckWhat in every language's table: a new one does not compile until each says it.
 */
export const checksZh: Record<CheckWhat, string> = {
  rounds: '检查的是锁步轮次，而不是线性一致：每个同步轮次是一次集体更新；各轮必须按顺序生效、每个版本只有一组参数，工作节点采用副本就是读取这条谱系——可以落后（允许陈旧读），但不能分叉。',
  raft: '把复制的参数服务器看作一个寄存器：已提交的更新和读取必须能排成一个符合真实时间的顺序。',
  paxos: '把 Paxos 复制的参数服务器看作一个寄存器：已选定的更新和读取必须能排成一个符合真实时间的顺序。',
  '2pc': '把两阶段提交复制的参数服务器看作一个寄存器：已提交的事务和读取必须能排成一个符合真实时间的顺序；中止的更新永远不生效。',
  'ps-async': '把服务器参数看作一个寄存器：推送是更新，采用的回复和在本地副本上的训练步是读取——异步工作节点读到的参数服务器可能从未有过。',
  register: '该策略记录的读取和更新，对照一个带版本的寄存器检查（Wing & Gong 搜索）。',
};
