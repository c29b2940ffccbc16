/** The aggregation rules a parameter server may use (aggregation.ts implements them). */
export const aggregationRules = ['mean', 'median', 'trimmed-mean', 'krum', 'multi-krum'] as const;
export type AggregationRule = (typeof aggregationRules)[number];

/** Why Krum cannot run on n gradients with f assumed Byzantine, or null (Blanchard et al. 2017: n > 2f + 2). */
export function krumProblem(rule: AggregationRule, n: number, f: number): string | null {
  if (rule !== 'krum' && rule !== 'multi-krum') return null;
  if (n > 2 * f + 2) return null;
  return `${rule} needs n > 2f + 2 gradients per round (Blanchard et al. 2017); with f = ${f} that is at least ${2 * f + 3}, got n = ${n}`;
}
