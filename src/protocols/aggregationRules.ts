import { problemMessage, type ProblemFact } from '../scenario/problems';

/** The aggregation rules a parameter server may use (aggregation.ts implements them). */
export const aggregationRules = ['mean', 'median', 'trimmed-mean', 'krum', 'multi-krum'] as const;
export type AggregationRule = (typeof aggregationRules)[number];

/** Why Krum cannot run on n gradients with f assumed Byzantine, or null (Blanchard et al. 2017: n > 2f + 2). */
export function krumProblem(rule: AggregationRule, n: number, f: number): string | null {
  const fact = krumFact(rule, n, f, false);
  return fact && problemMessage(fact);
}

/** krumProblem as a fact (`backup`: n counts the workers less the backup workers). */
export function krumFact(rule: AggregationRule, n: number, f: number, backup: boolean): ProblemFact | null {
  if (rule !== 'krum' && rule !== 'multi-krum') return null;
  if (n > 2 * f + 2) return null;
  return { kind: 'krumTooFew', rule, f, n, backup };
}
