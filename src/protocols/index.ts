import { z } from 'zod';
import { AllreduceStrategy, allreduceKnobs } from './allreduce';
import { PsAsyncStrategy, psAsyncKnobs } from './psAsync';
import { createKafkaPs, kafkaDurable, kafkaPsKnobs } from './kafka';
import { RaftPsStrategy, raftPsKnobs } from './raft/raftPs';
import type { CapClass, Strategy, StrategyContext } from './strategy';

/**
 * Strategy registry (DESIGN rule 6): adding a strategy is adding a module and one entry here.
 * Each declares its knobs as a zod schema, so the scenario schema, the validator and the UI's
 * generated controls all come from one declaration.
 */
export const strategySchema = z.discriminatedUnion('kind', [allreduceKnobs, psAsyncKnobs, kafkaPsKnobs, raftPsKnobs]);
export type StrategyConfig = z.infer<typeof strategySchema>;
export type StrategyKind = StrategyConfig['kind'];

export interface StrategyInfo {
  kind: StrategyKind;
  name: { en: string; zh: string };
  cap: CapClass;
  /** Minimum cluster it needs; the validator and the UI's strategy switch both read this. */
  needs: { workers?: number; servers?: number; brokers?: number };
  /**
   * Whether this configuration may lose acknowledged updates by design (Kafka acks=0/1 or unclean
   * election, a parameter server restored from a checkpoint). The randomized checker (src/check)
   * then counts lostUpdates instead of failing on them; absent = never (loss is a violation).
   */
  allowsLoss?: (cfg: StrategyConfig) => boolean;
}

export const strategies: readonly StrategyInfo[] = [
  { kind: 'allreduce', name: { en: 'Ring all-reduce', zh: '环形全归约' }, cap: { underPartition: 'C', pacelc: 'PC/EC' }, needs: { workers: 2 }, allowsLoss: () => false },
  { kind: 'ps-async', name: { en: 'Async parameter server', zh: '异步参数服务器' }, cap: { underPartition: 'A', pacelc: 'PA/EL' }, needs: { servers: 1 }, allowsLoss: () => true /* a crashed server restarts from its last checkpoint */ },
  { kind: 'kafka-ps', name: { en: 'Kafka-fed parameter server', zh: 'Kafka 驱动的参数服务器' }, cap: { underPartition: 'A', pacelc: 'PA/EL' }, needs: { servers: 1, brokers: 1 }, allowsLoss: (cfg) => cfg.kind === 'kafka-ps' && !kafkaDurable(cfg) /* acks=0/1, unclean election */ },
  { kind: 'raft-ps', name: { en: 'Raft-replicated parameter server', zh: 'Raft 复制的参数服务器' }, cap: { underPartition: 'C', pacelc: 'PC/EC' }, needs: { servers: 3 }, allowsLoss: () => false /* a committed update is on a majority for good */ },
];

export function strategyInfo(kind: string): StrategyInfo | undefined {
  return strategies.find((s) => s.kind === kind);
}

export function createStrategy(cfg: StrategyConfig, ctx: StrategyContext): Strategy {
  switch (cfg.kind) {
    case 'allreduce':
      return new AllreduceStrategy(ctx, cfg);
    case 'ps-async':
      return new PsAsyncStrategy(ctx, cfg);
    case 'kafka-ps':
      return createKafkaPs(cfg, ctx);
    case 'raft-ps':
      return new RaftPsStrategy(ctx, cfg);
  }
}

export { allreduceKnobs, psAsyncKnobs, kafkaPsKnobs, raftPsKnobs };
export type { Strategy, StrategyContext } from './strategy';
