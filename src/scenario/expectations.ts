import type { ComparisonOp, Expectation } from './schema';
import type { Lang } from './i18n';

/**
 * Expectation semantics shared by the engine, the CLI and the UI, so a PASS means the same
 * everywhere.
 */

/**
 * `actual op value`, with `tolerance` ≥ 0.
 *
 * The tolerance widens `==`, `<=`, `>=` and narrows their complements `!=`, `>`, `<`, so each
 * pair stays exact complements: `a < v` ⇔ `a < v − tol`, `a >= v` ⇔ `a ≥ v − tol`, and so on.
 *
 * `null` (a metric not defined yet, e.g. a target never reached) compares as +∞, except that
 * `==` is false and `!=` is true (∞ equals no number). NaN is treated like null.
 */
export function compare(actual: number | null, op: ComparisonOp, value: number, tolerance = 0): boolean {
  const tol = Math.abs(tolerance);
  if (actual === null || Number.isNaN(actual)) {
    if (op === '==') return false;
    if (op === '!=') return true;
    actual = Infinity;
  }
  switch (op) {
    case '==':
      return actual === value || Math.abs(actual - value) <= tol;
    case '!=':
      return !(actual === value || Math.abs(actual - value) <= tol);
    case '<':
      return actual < value - tol;
    case '>=':
      return actual >= value - tol;
    case '>':
      return actual > value + tol;
    case '<=':
      return actual <= value + tol;
  }
}

/** Simulated time of an expectation: `"end"` is the run's duration. */
export function resolveAt(at: number | 'end', durationMs: number): number {
  return at === 'end' ? durationMs : at;
}

export type { Lang };

/** `5900` → `5.9 s`; under a second stays in ms. */
export function formatSimTime(ms: number, lang: Lang = 'en'): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Number((ms / 1000).toFixed(3));
  return lang === 'zh' ? `${s} 秒` : `${s} s`;
}

function fmtValue(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
}

type Condition = Pick<Expectation, 'metric' | 'node' | 'op' | 'value' | 'tolerance'> & Partial<Pick<Expectation, 'than' | 'thanAt' | 'factor' | 'offset'>>;

/**
 * The condition alone: `steps[w2] > 10`, `divergence == 0 ± 0.01`; a comparison (CURRICULUM §C.7)
 * names the other value as CURRICULUM writes it: `version > 1.4 × ⟨bsp⟩`, `steps[w0] > ⟨@6.5 s⟩ + 20`.
 * Metric names and variant ids stay in Latin script.
 */
export function formatCondition(e: Condition, lang: Lang = 'en'): string {
  const metric = e.node ? `${e.metric}[${e.node}]` : e.metric;
  const tol = e.tolerance ? ` ± ${fmtValue(e.tolerance)}` : '';
  if (e.than === undefined && e.thanAt === undefined) return `${metric} ${e.op} ${fmtValue(e.value ?? NaN)}${tol}`;
  const at = e.thanAt === undefined ? '' : `@${e.thanAt === 'end' ? (lang === 'zh' ? '结束' : 'end') : formatSimTime(e.thanAt, lang)}`;
  const factor = e.factor !== undefined && e.factor !== 1 ? `${fmtValue(e.factor)} × ` : '';
  const offset = e.offset ? ` ${e.offset < 0 ? '−' : '+'} ${fmtValue(Math.abs(e.offset))}` : '';
  return `${metric} ${e.op} ${factor}⟨${e.than ?? ''}${at}⟩${offset}${tol}`;
}

/** `availability == 1 at 5.9 s` / `5.9 秒时：availability == 1`; `at end` / `结束时`. */
export function formatExpectation(e: Pick<Expectation, 'at'> & Condition, lang: Lang): string {
  const cond = formatCondition(e, lang);
  if (lang === 'zh') return `${e.at === 'end' ? '结束时' : `${formatSimTime(e.at, 'zh')}时`}：${cond}`;
  return `${cond} at ${e.at === 'end' ? 'end' : formatSimTime(e.at, 'en')}`;
}
