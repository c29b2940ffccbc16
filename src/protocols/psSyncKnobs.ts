import { z } from 'zod/mini';
import { aggregationRules, krumFact } from './aggregationRules';
import { problemMessage, type ProblemFact } from '../scenario/problems';

/** Knobs of `ps-sync` (the strategy, and where its rules come from: psSync.ts). */
export const psSyncKnobs = z.strictObject({
  kind: z.literal('ps-sync'),
  /** b: the server aggregates the first N − b gradients of each round and drops the rest. */
  backupWorkers: z._default(z.int().check(z.minimum(0)), 0),
  /** Linear scaling rule (Goyal et al.): lr × aggregated count on the mean, i.e. the sum. */
  lrLinearScaling: z._default(z.boolean(), true),
  /** How the round's gradients are combined: the mean, or a Byzantine-robust rule (protocols/aggregation.ts). */
  aggregation: z._default(z.enum(aggregationRules), 'mean'),
  /** trimmed-mean: fraction β trimmed from each end of every coordinate (⌊β·n⌋ values per side). */
  trim: z._default(z.number().check(z.minimum(0), z.maximum(0.49)), 0.1),
  /** krum, multi-krum (and the median's outlier count): the number f of Byzantine workers assumed. */
  f: z._default(z.int().check(z.minimum(0)), 1),
  /** Retransmission timeout of a push that got no parameters back. */
  rtoMs: z._default(z.number().check(z.positive()), 300),
});
export type PsSyncConfig = z.infer<typeof psSyncKnobs>;

/**
 * Why this aggregation cannot run on the round's n = N − b gradients, or null: Krum needs
 * n > 2f + 2 (Blanchard et al. 2017). (A trimmed mean always keeps a value: trim < ½.)
 */
export function psSyncAggregationProblem(cfg: Pick<PsSyncConfig, 'aggregation' | 'f' | 'backupWorkers'>, workers: number): string | null {
  const fact = psSyncAggregationFact(cfg, workers);
  return fact && problemMessage(fact);
}

/** psSyncAggregationProblem as a fact. */
export function psSyncAggregationFact(cfg: Pick<PsSyncConfig, 'aggregation' | 'f' | 'backupWorkers'>, workers: number): ProblemFact | null {
  return krumFact(cfg.aggregation, workers - cfg.backupWorkers, cfg.f, cfg.backupWorkers > 0);
}
