import type { SummaryExpectation } from '../engine/api';
import type { ComparisonResult } from '../engine/lessonVerdict';
import { isComparison, type Scenario } from '../scenario/schema';
import { baseIdOf, expectationApplies, isBaseId } from '../scenario/variants';

/**
 * One run's expectations for `--json`, in the file's order: the plain ones as the engine checked
 * them while it ran, and the comparisons as lessonVerdict judged them from the samples afterwards
 * (with the other value they compared with).
 */
export function runExpectations(s: Scenario, runId: string, engine: readonly SummaryExpectation[], comparisons: readonly ComparisonResult[]): SummaryExpectation[] {
  const variant = isBaseId(s, runId) ? null : runId;
  const plainIdx = s.expect.map((e, i) => (expectationApplies(e, variant, baseIdOf(s)) && !isComparison(e) ? i : -1)).filter((i) => i >= 0);
  if (plainIdx.length !== engine.length) throw new Error(`run "${runId}": the engine checked ${engine.length} expectations, the file has ${plainIdx.length}`);
  const rows: Array<{ index: number; e: SummaryExpectation }> = plainIdx.map((index, k) => ({ index, e: engine[k] }));
  for (const c of comparisons) {
    rows.push({
      index: c.index,
      e: {
        at: c.at,
        metric: c.metric,
        ...(c.node !== undefined ? { node: c.node } : {}),
        op: c.op,
        ...(c.than !== undefined ? { than: c.than } : {}),
        ...(c.thanAt !== undefined ? { thanAt: c.thanAt } : {}),
        ...(c.factor !== 1 ? { factor: c.factor } : {}),
        ...(c.offset !== 0 ? { offset: c.offset } : {}),
        ...(c.tolerance !== undefined ? { tolerance: c.tolerance } : {}),
        actual: c.actual,
        other: c.other,
        pass: c.pass === true,
      },
    });
  }
  return rows.sort((a, b) => a.index - b.index).map((r) => r.e);
}
