import { strategyInfo, type StrategyConfig } from '../protocols';
import type { CheckMode } from './linearizability';

/**
 * What the checkers hold each strategy to. Keyed by kind, so strategies that land later get a
 * sensible default (reads and updates against one register, reported but not required) until
 * their row is added here.
 */

export interface CheckModel {
  mode: CheckMode;
  /** The strategy promises linearizable operations in this configuration: a failure is a violation. */
  promises: boolean;
  /** One sentence on what is checked, for the app's panel and the CLI. */
  what: { en: string; zh: string };
}

type Knobs = Record<string, unknown>;

export function checkModel(cfg: StrategyConfig | { kind: string }): CheckModel {
  const k = cfg as Knobs & { kind: string };
  switch (k.kind) {
    case 'allreduce':
    case 'ps-sync':
      return {
        mode: 'rounds',
        promises: true,
        what: {
          en: 'Lockstep rounds, not linearizability: each synchronous round is one collective update; rounds must apply in order with one parameter set per version, and a worker adopting a replica reads the lineage — it may lag (a stale read is allowed), but never fork.',
          zh: '检查的是锁步轮次，而不是线性一致：每个同步轮次是一次集体更新；各轮必须按顺序生效、每个版本只有一组参数，工作节点采用副本就是读取这条谱系——可以落后（允许陈旧读），但不能分叉。',
        },
      };
    case 'raft-ps':
      return {
        mode: 'register',
        // Reads through the log or ReadIndex are linearizable; lease reads are too while clocks are
        // exact (they are in the simulator); local reads are not.
        promises: k.readMode !== 'local',
        what: {
          en: 'The replicated parameter server as one register: committed updates and reads must fit a single order that respects real time.',
          zh: '把复制的参数服务器看作一个寄存器：已提交的更新和读取必须能排成一个符合真实时间的顺序。',
        },
      };
    case 'paxos-ps':
      return {
        mode: 'register',
        // Updates are acknowledged once chosen and applied; reads confirm leadership with a majority round first.
        promises: true,
        what: {
          en: 'The Paxos-replicated parameter server as one register: chosen updates and reads must fit a single order that respects real time.',
          zh: '把 Paxos 复制的参数服务器看作一个寄存器：已选定的更新和读取必须能排成一个符合真实时间的顺序。',
        },
      };
    case '2pc-ps':
      return {
        mode: 'register',
        // Transactions run one at a time and reads are answered by the coordinator, which applies every commit before telling anyone.
        promises: true,
        what: {
          en: 'The 2PC-replicated parameter server as one register: committed transactions and reads must fit a single order that respects real time; aborted updates never take effect.',
          zh: '把两阶段提交复制的参数服务器看作一个寄存器：已提交的事务和读取必须能排成一个符合真实时间的顺序；中止的更新永远不生效。',
        },
      };
    case 'ps-async':
      return {
        mode: 'register',
        promises: false,
        what: {
          en: 'The server’s parameters as one register: pushes are updates, adopted replies and steps on a local copy are reads — an asynchronous worker reads parameters the server may never have held.',
          zh: '把服务器参数看作一个寄存器：推送是更新，采用的回复和在本地副本上的训练步是读取——异步工作节点读到的参数服务器可能从未有过。',
        },
      };
    default:
      return {
        mode: 'register',
        promises: false,
        what: {
          en: 'The reads and updates this strategy records, against one versioned register (Wing & Gong search).',
          zh: '该策略记录的读取和更新，对照一个带版本的寄存器检查（Wing & Gong 搜索）。',
        },
      };
  }
}

/**
 * May this configuration lose acknowledged updates by design? The registry's `allowsLoss` answers
 * when the strategy declares it; otherwise the real systems' knobs that permit loss are read here.
 */
export function allowsLoss(cfg: StrategyConfig | { kind: string }): boolean {
  const info = strategyInfo(cfg.kind);
  if (info?.allowsLoss) return info.allowsLoss(cfg as StrategyConfig);
  const k = cfg as Knobs;
  const acks = k.acks;
  if (acks === 0 || acks === 1 || acks === '0' || acks === '1') return true;
  if (k['unclean.leader.election.enable'] === true) return true;
  return false;
}
