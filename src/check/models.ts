import { strategyInfo, type StrategyConfig } from '../protocols';
import type { CheckMode } from './linearizabilityModel';

/**
 * What the checkers hold each strategy to. Keyed by kind, so strategies that land later get a
 * sensible default (reads and updates against one register, reported but not required) until
 * their row is added here.
 */

export interface CheckModel {
  mode: CheckMode;
  /** The strategy promises linearizable operations in this configuration: a failure is a violation. */
  promises: boolean;
  /** What is checked, said in a sentence per language by the app (app/words/checkWords.ts). */
  what: CheckWhat;
}

/** The histories the checkers hold a strategy to, one sentence each in the app's words. */
export type CheckWhat = 'rounds' | 'raft' | 'paxos' | '2pc' | 'ps-async' | 'register';

type Knobs = Record<string, unknown>;

export function checkModel(cfg: StrategyConfig | { kind: string }): CheckModel {
  const k = cfg as Knobs & { kind: string };
  switch (k.kind) {
    case 'allreduce':
    case 'ps-sync':
      return {
        mode: 'rounds',
        promises: true,
        what: 'rounds',
      };
    case 'raft-ps':
      return {
        mode: 'register',
        // Reads through the log or ReadIndex are linearizable; lease reads are too while clocks are
        // exact (they are in the simulator); local reads are not.
        promises: k.readMode !== 'local',
        what: 'raft',
      };
    case 'paxos-ps':
      return {
        mode: 'register',
        // Updates are acknowledged once chosen and applied; reads confirm leadership with a majority round first.
        promises: true,
        what: 'paxos',
      };
    case '2pc-ps':
      return {
        mode: 'register',
        // Transactions run one at a time and reads are answered by the coordinator, which applies every commit before telling anyone.
        promises: true,
        what: '2pc',
      };
    case 'ps-async':
      return {
        mode: 'register',
        promises: false,
        what: 'ps-async',
      };
    default:
      return {
        mode: 'register',
        promises: false,
        what: 'register',
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
