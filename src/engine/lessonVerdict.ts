import { compare, resolveAt } from '../scenario/expectations';
import { isComparison, type ComparisonOp, type Expectation, type MetricName, type Scenario } from '../scenario/schema';
import { baseIdOf, expectationApplies, isBaseId } from '../scenario/variants';
import type { NodeId } from '../sim/types';
import type { ShapeSummary } from './api';
import { metricAt, type SampleSeries } from './index/metricAt';

/**
 * Comparison and shape expectations of a lesson (CURRICULUM §C.7), judged after the runs from
 * each run's metric samples — the history's `metrics` events — so the CLI and the browser judge
 * the same numbers. Pure: it takes each run's samples and returns verdicts.
 *
 * A comparison holds iff `actual op factor × other + offset`, where `other` is the same metric and
 * node in run `than` at the same time, or in the same run at `thanAt` (both: run `than` at
 * `thanAt`). A shape holds over the listed runs in order: "u" iff the minimum is strictly inside
 * (below both ends by more than `tolerance`), "increasing"/"decreasing" iff every next value is
 * above/below the previous one (by more than −tolerance). null — a target never reached — counts
 * as +∞ everywhere.
 */

/** One run of a lesson: its samples and its length (a variant may change durationMs). */
export interface LessonRun {
  samples: SampleSeries;
  durationMs: number;
}

/** Runs by id; the base under its name (`base.id`) or "base". */
export type LessonRuns = ReadonlyMap<string, LessonRun>;

export interface ComparisonResult {
  /** Index of the expectation in the scenario's `expect`. */
  index: number;
  at: number | 'end';
  metric: MetricName;
  node?: NodeId;
  op: ComparisonOp;
  than?: string;
  thanAt?: number | 'end';
  factor: number;
  offset: number;
  tolerance?: number;
  /** Resolved times: the actual's, and the other value's. */
  time: number;
  otherTime: number;
  actual: number | null;
  other: number | null;
  /** null until both runs have reached their times (or when a run is missing). */
  pass: boolean | null;
}

/** A shape expectation judged: `values` one per listed variant, in order (null: undefined there, e.g. a target never reached). */
export interface ShapeResult extends Omit<ShapeSummary, 'pass'> {
  index: number;
  pass: boolean | null;
}

export interface LessonVerdict {
  /** Comparison results per run id (the base under its own id). */
  comparisons: Map<string, ComparisonResult[]>;
  shapes: ShapeResult[];
  /** Every comparison and shape holds (pending ones count as not holding). */
  pass: boolean;
}

/** The run named `id` (the base answers to "base" and to its own name). */
function runOf(s: Scenario, runs: LessonRuns, id: string): LessonRun | undefined {
  return runs.get(id) ?? (isBaseId(s, id) ? (runs.get(baseIdOf(s)) ?? runs.get('base')) : undefined);
}

/** The ids of the runs an expectation applies to (the base as its own id). */
function runsOfExpectation(s: Scenario, e: Expectation): string[] {
  const ids = [baseIdOf(s), ...(s.variants ?? []).map((v) => v.id)];
  return ids.filter((id, i) => expectationApplies(e, i === 0 ? null : id, baseIdOf(s)));
}

/** `actual op factor × other + offset`; null counts as +∞ on either side. */
export function compareWith(actual: number | null, op: ComparisonOp, other: number | null, factor = 1, offset = 0, tolerance = 0): boolean {
  const rhs = other === null || Number.isNaN(other) ? Infinity : factor * other + offset;
  if (!Number.isFinite(rhs)) {
    const a = actual === null || Number.isNaN(actual) ? Infinity : actual;
    // ∞ against ∞: equal; a finite value is below it.
    if (a === Infinity) return op === '==' || op === '<=' || op === '>=';
    return op === '<' || op === '<=' || op === '!=';
  }
  return compare(actual, op, rhs, tolerance);
}

export function judgeComparison(s: Scenario, runs: LessonRuns, index: number, runId: string): ComparisonResult {
  const e = s.expect[index];
  const self = runOf(s, runs, runId);
  const otherRun = e.than !== undefined ? runOf(s, runs, e.than) : self;
  const factor = e.factor ?? 1;
  const offset = e.offset ?? 0;
  const time = self ? resolveAt(e.at, self.durationMs) : typeof e.at === 'number' ? e.at : NaN;
  const otherT = e.thanAt ?? e.at;
  const otherTime = otherRun ? resolveAt(otherT, otherRun.durationMs) : typeof otherT === 'number' ? otherT : NaN;
  const a = self ? metricAt(self.samples, e.metric, e.node, time) : { reached: false, value: null };
  const o = otherRun ? metricAt(otherRun.samples, e.metric, e.node, otherTime) : { reached: false, value: null };
  const reached = a.reached && o.reached;
  return {
    index,
    at: e.at,
    metric: e.metric,
    ...(e.node !== undefined ? { node: e.node } : {}),
    op: e.op,
    ...(e.than !== undefined ? { than: e.than } : {}),
    ...(e.thanAt !== undefined ? { thanAt: e.thanAt } : {}),
    factor,
    offset,
    ...(e.tolerance !== undefined ? { tolerance: e.tolerance } : {}),
    time,
    otherTime,
    actual: reached ? a.value : null,
    other: reached ? o.value : null,
    pass: reached ? compareWith(a.value, e.op, o.value, factor, offset, e.tolerance ?? 0) : null,
  };
}

/** Whether values (null = +∞) have the shape. */
export function hasShape(values: ReadonlyArray<number | null>, shape: 'u' | 'increasing' | 'decreasing', tolerance = 0): boolean {
  const v = values.map((x) => (x === null || Number.isNaN(x) ? Infinity : x));
  if (v.length < 3 && shape === 'u') return false;
  if (shape === 'u') {
    const inner = Math.min(...v.slice(1, -1));
    return Number.isFinite(inner) && inner < Math.min(v[0], v[v.length - 1]) - tolerance;
  }
  // Each step must go the shape's way, by more than −tolerance (strictly, with no tolerance).
  for (let i = 1; i < v.length; i++) {
    const step = shape === 'increasing' ? v[i] - v[i - 1] : v[i - 1] - v[i];
    if (!(step > -tolerance)) return false;
  }
  return true;
}

export function judgeShape(s: Scenario, runs: LessonRuns, index: number): ShapeResult {
  const sh = (s.shapes ?? [])[index];
  let reached = true;
  const values = sh.variants.map((id) => {
    const r = runOf(s, runs, id);
    if (!r) {
      reached = false;
      return null;
    }
    const m = metricAt(r.samples, sh.metric, sh.node, resolveAt(sh.at, r.durationMs));
    if (!m.reached) reached = false;
    return m.value;
  });
  return {
    index,
    metric: sh.metric,
    ...(sh.node !== undefined ? { node: sh.node } : {}),
    at: sh.at,
    variants: [...sh.variants],
    shape: sh.shape,
    ...(sh.tolerance !== undefined ? { tolerance: sh.tolerance } : {}),
    values: reached ? values : values.map(() => null),
    pass: reached ? hasShape(values, sh.shape, sh.tolerance ?? 0) : null,
  };
}

/** Every comparison (per run it applies to) and every shape of the scenario. */
export function lessonVerdict(s: Scenario, runs: LessonRuns): LessonVerdict {
  const comparisons = new Map<string, ComparisonResult[]>();
  s.expect.forEach((e, i) => {
    if (!isComparison(e)) return;
    for (const id of runsOfExpectation(s, e)) {
      if (!runs.has(id) && !(id === baseIdOf(s) && runs.has('base'))) continue;
      const list = comparisons.get(id) ?? [];
      list.push(judgeComparison(s, runs, i, id));
      comparisons.set(id, list);
    }
  });
  const shapes = (s.shapes ?? []).map((_, i) => judgeShape(s, runs, i));
  const pass = [...comparisons.values()].every((l) => l.every((r) => r.pass === true)) && shapes.every((r) => r.pass === true);
  return { comparisons, shapes, pass };
}
