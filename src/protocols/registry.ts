import type { StrategyConfig, StrategyKind } from './index';
import { kafkaDurable } from './kafka/durable';
import type { CapClass } from './strategy';
import type { MetricName } from '../scenario/metricNames';

/**
 * The strategy registry's facts (DESIGN rule 6): names, CAP/PACELC classes, what each needs and
 * measures. No schema: the page's first load carries this module, the knobs' zod schemas stay in
 * the engine's worker (protocols/index.ts declares them; app/checks answers the page's questions).
 * The order is the schema's (a test checks it): the strategy menu lists them so.
 */
export interface StrategyInfo {
  kind: StrategyKind;
  name: { en: string; zh: string };
  /** Its CAP/PACELC class for a configuration (the running one, or the defaults). */
  capOf: (cfg: StrategyConfig) => CapClass;
  /** Minimum cluster it needs; the validator and the UI's strategy switch both read this. */
  needs: { workers?: number; servers?: number; brokers?: number };
  /** The cluster the UI builds when switching to it, where that differs from the minimum. */
  suggested?: { workers?: number; servers?: number; brokers?: number };
  /**
   * Whether this configuration may lose acknowledged updates by design (Kafka acks=0/1 or unclean
   * election, a parameter server restored from a checkpoint). The randomized checker (src/check)
   * then counts lostUpdates instead of failing on them; absent = never (loss is a violation).
   */
  allowsLoss?: (cfg: StrategyConfig) => boolean;
  /** Servers the randomized checker (src/check) builds, where the minimum would test too little (default: `needs`). */
  checkServers?: number;
  /** The most servers it puts to work (s0…), where that is fewer than a cluster may have: more stand idle. */
  usesServers?: number;
  /**
   * The metrics beyond the engine's own that its code gives a value to in this configuration
   * (its `metric()`), `leaders` included where it elects one: an expectation on a metric no part
   * of the run measures is refused (scenario/measured.ts), and a strategy switch leaves it out.
   */
  metrics: (cfg: StrategyConfig) => readonly MetricName[];
}

const lockstep: CapClass = { underPartition: 'C', pacelc: 'PC/EC', consistency: 'lockstep' };
const eventualPA: CapClass = { underPartition: 'A', pacelc: 'PA/EL', consistency: 'eventual' };
const linearizableCP: CapClass = { underPartition: 'C', pacelc: 'PC/EC', consistency: 'linearizable' };

/**
 * SSP is tunable: s = 0 is BSP (lockstep, PC/EC); s = ∞ is ASP (PA/EL). A finite s blocks under a
 * partition once the bound is hit — it keeps bounded staleness, which is not C — and trades
 * consistency for latency otherwise (EL).
 */
function sspClass(staleness: number | 'inf'): CapClass {
  if (staleness === 0) return lockstep;
  if (staleness === 'inf') return eventualPA;
  return { underPartition: 'C', pacelc: 'PC/EL', consistency: 'bounded-staleness' };
}

export const strategies: readonly StrategyInfo[] = [
  { kind: 'allreduce', name: { en: 'Ring all-reduce', zh: '环形全归约' }, capOf: () => lockstep, usesServers: 0, needs: { workers: 2 }, allowsLoss: () => false, metrics: () => [] },
  // With a lock, writers wait for their turn (and for the lock service) under a partition: C side, and each step pays the lock (EC). Still not linearizable reads: a worker computes on what it read.
  { kind: 'ps-async', name: { en: 'Async parameter server', zh: '异步参数服务器' }, capOf: (cfg) => (cfg.kind === 'ps-async' && cfg.writeLock === 'lease' ? { underPartition: 'C', pacelc: 'PC/EC', consistency: 'eventual' } : eventualPA), usesServers: 1, needs: { servers: 1 }, allowsLoss: () => true /* a crashed server restarts from its last checkpoint; set writes without fencing overwrite */, metrics: (cfg) => (cfg.kind === 'ps-async' && (cfg.writeLock === 'lease' || cfg.writeMode === 'set') ? ['fencedWrites', 'staleWritesAccepted', 'lastFencedToken'] : []) },
  { kind: 'kafka-ps', name: { en: 'Kafka-fed parameter server', zh: 'Kafka 驱动的参数服务器' }, capOf: (cfg) => (cfg.kind === 'kafka-ps' && kafkaDurable(cfg) && cfg['num.partitions'] === 1 ? { underPartition: 'C', pacelc: 'PC/EL', consistency: 'eventual', partitionKeeps: 'durability' } : eventualPA), needs: { servers: 1, brokers: 1 }, suggested: { servers: 2, brokers: 3 }, allowsLoss: (cfg) => cfg.kind === 'kafka-ps' && !kafkaDurable(cfg) /* acks=0/1, unclean election */, metrics: () => ['consumerLag', 'serverConflicts', 'isrSize', 'rejectedWrites', 'uncleanElections', 'logLength', 'commitIndex'] },
  { kind: 'raft-ps', name: { en: 'Raft-replicated parameter server', zh: 'Raft 复制的参数服务器' }, capOf: (cfg) => (cfg.kind === 'raft-ps' && cfg.readMode === 'local' ? { underPartition: 'C', pacelc: 'PC/EC', consistency: 'committed-prefix' } : { underPartition: 'C', pacelc: 'PC/EC', consistency: 'linearizable' }), needs: { servers: 3 }, suggested: { servers: 5 }, allowsLoss: () => false /* a committed update is on a majority for good */, metrics: (cfg) => ['leaders', 'term', 'commitIndex', 'logLength', 'overwrittenEntries', 'maxCommitGapMs', 'staleReads', ...(cfg.kind === 'raft-ps' && cfg.maxRequestBytes !== undefined ? (['rejectedWrites'] as const) : [])] },
  { kind: 'ps-sync', name: { en: 'Synchronous parameter server (BSP)', zh: '同步参数服务器（BSP）' }, capOf: () => lockstep, usesServers: 1, needs: { servers: 1 }, allowsLoss: () => false /* a round is persisted before it is acknowledged */, metrics: () => ['delayedRounds', 'waitFraction'] },
  // Tunable: s = 0 is PC/EC, s = ∞ PA/EL; a finite s blocks under a partition once the bound is hit (PC) and trades consistency for latency otherwise (EL). The instance reports its own class.
  { kind: 'ssp', name: { en: 'Stale synchronous parallel (SSP)', zh: '陈旧同步并行（SSP）' }, capOf: (cfg) => sspClass(cfg.kind === 'ssp' ? cfg.staleness : 0), usesServers: 1, needs: { servers: 1 }, allowsLoss: () => false, metrics: () => ['maxClockGap', 'waitFraction'] },
  { kind: 'degrade', name: { en: 'Degrade on partition, merge on heal', zh: '网络分区时降级、恢复后合并' }, capOf: () => ({ underPartition: 'A', pacelc: 'PA/EC', consistency: 'eventual' }), usesServers: 0, needs: { workers: 2 }, allowsLoss: () => false /* discarded local work is lostWork, not lost acknowledged updates */, metrics: () => ['degradedWorkers', 'lostWork', 'fencedWrites', 'staleWritesAccepted', 'mergeLossSpike'] },
  // A majority of acceptors chooses each value: 2f + 1 servers tolerate f crashes; a minority side chooses nothing (PC); every update waits for a majority round trip (EC).
  { kind: 'paxos-ps', name: { en: 'Multi-Paxos-replicated parameter server', zh: 'Multi-Paxos 复制的参数服务器' }, capOf: () => linearizableCP, needs: { servers: 3 }, suggested: { servers: 5 }, allowsLoss: () => false /* a chosen value stays chosen */, metrics: () => ['leaders', 'term', 'commitIndex', 'logLength', 'maxCommitGapMs', 'staleReads'] },
  // Needs every replica: one missing vote aborts every transaction, and a down coordinator blocks the prepared participants (PC); every update waits for two rounds to all (EC).
  { kind: '2pc-ps', name: { en: 'Two-phase-commit-replicated parameter server', zh: '两阶段提交复制的参数服务器' }, capOf: () => linearizableCP, needs: { servers: 2 }, suggested: { servers: 5 }, checkServers: 3, allowsLoss: () => false /* commit is forced to every participant's log first */, metrics: () => ['inDoubt', 'maxCommitGapMs', 'staleReads', 'rejectedWrites'] },
];

export function strategyInfo(kind: string): StrategyInfo | undefined {
  return strategies.find((s) => s.kind === kind);
}

/** The class of a running configuration (what the product shows and the engine's checks use). */
export function capOf(cfg: StrategyConfig): CapClass {
  const info = strategyInfo(cfg.kind);
  if (!info) throw new Error(`unknown strategy "${cfg.kind}"`);
  return info.capOf(cfg);
}

