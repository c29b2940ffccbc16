import { parseAction } from './parseAction';
import { makeSuggester } from './suggest';
import { at as atPath, formatPath, type PathKey, type ProblemFact, type ScenarioProblem } from './problems';
import type { When } from './lesson';
import { lessonSteps, lessonTexts, lessonWhens } from './lessonRefs';
import { clusterNodeIds } from './nodes';
import { malformedPlaceholders, parsePlaceholders } from './placeholders';
import { metricNames, type MetricName, type Scenario } from './schema';
import { baseIdOf } from './variants';
import { notMeasuredFact } from './measured';

/**
 * Rules of a lesson script that need the whole file and its variants (CURRICULUM §C.7): every
 * variant a comparison, shape, act, trigger, chart, focus or placeholder names exists; every time
 * falls inside the run that reads it; placeholders, triggers, shapes and comparisons name metrics
 * their run measures (measured.ts) and nodes it has; a prediction's answer is one of its options;
 * a "try" is an action of the action table; an `afterStep` names a step. One line per problem,
 * `path: message`.
 */

/** The runs of a lesson by the ids a script may use: the base (its name and "base") and every variant, each resolved. */
export type LessonRunsById = ReadonlyMap<string, Scenario>;

const suggestMetric = makeSuggester(metricNames);
const knownMetrics: ReadonlySet<string> = new Set(metricNames);
const isMetric = (m: string): m is MetricName => knownMetrics.has(m);

function unknownMetric(metric: string): ProblemFact {
  const hint = suggestMetric(metric);
  return { kind: 'unknownMetric', metric, ...(hint ? { hint } : {}) };
}

export function lessonProblems(s: Scenario, runs: LessonRunsById, events: readonly string[]): ScenarioProblem[] {
  const errors: ScenarioProblem[] = [];
  const at = (path: readonly PathKey[], fact: ProblemFact) => errors.push(atPath(path, fact));
  const ids = [baseIdOf(s), ...(s.variants ?? []).map((v) => v.id)];
  const noRun = (id: string): ProblemFact => ({ kind: 'noRun', id, runs: ids, baseAlias: baseIdOf(s) !== 'base' });
  const run = (id: string) => runs.get(id);
  /** The run named `id`, or a problem at `path`. */
  const known = (path: readonly PathKey[], id: string): Scenario | undefined => {
    const r = run(id);
    if (!r) at(path, noRun(id));
    return r;
  };
  const inside = (path: readonly PathKey[], t: number | 'end' | 'now' | undefined, r: Scenario, id: string) => {
    if (typeof t === 'number' && t > r.durationMs) at(path, { kind: 'afterRunEnd', t, durationMs: r.durationMs, run: id });
  };
  const metric = (path: readonly PathKey[], m: string) => {
    if (knownMetrics.has(m)) return;
    at(path, unknownMetric(m));
  };
  /** A known metric that run `id` gives no value to: its trigger never fires, its number reads "—". */
  const unmeasured = (m: string, r: Scenario, id: string): ProblemFact | null => (isMetric(m) ? notMeasuredFact(r, m, id === baseIdOf(s) ? undefined : id) : null);
  const measuredIn = (path: readonly PathKey[], m: string, r: Scenario, id: string) => {
    const f = unmeasured(m, r, id);
    if (f) at(path, f);
  };
  const node = (path: readonly PathKey[], n: string | undefined, r: Scenario, id: string) => {
    if (n === undefined) return;
    const nodes = clusterNodeIds(r.cluster);
    if (!nodes.includes(n)) at(path, { kind: 'unknownNode', id: n, known: nodes, run: id });
  };
  const base = run(baseIdOf(s))!;

  // Comparisons: the other run exists and has the time.
  s.expect.forEach((e, j) => {
    if (e.than !== undefined) {
      const r = known(['expect', j, 'than'], e.than);
      if (r) {
        inside(['expect', j, 'at'], e.at, r, e.than);
        inside(['expect', j, 'thanAt'], e.thanAt, r, e.than);
        node(['expect', j, 'node'], e.node, r, e.than);
        measuredIn(['expect', j, 'metric'], e.metric, r, e.than);
      }
    } else if (e.thanAt !== undefined) {
      const own = e.variant === undefined || e.variant === '*' ? base : run(e.variant);
      if (own) inside(['expect', j, 'thanAt'], e.thanAt, own, e.variant ?? baseIdOf(s));
    }
  });

  (s.shapes ?? []).forEach((sh, j) => {
    metric(['shapes', j, 'metric'], sh.metric);
    sh.variants.forEach((id, k) => {
      const r = known(['shapes', j, 'variants', k], id);
      if (r) {
        inside(['shapes', j, 'at'], sh.at, r, id);
        node(['shapes', j, 'node'], sh.node, r, id);
        measuredIn(['shapes', j, 'metric'], sh.metric, r, id);
      }
    });
    if (new Set(sh.variants).size !== sh.variants.length) at(['shapes', j, 'variants'], { kind: 'shapeListedTwice' });
  });

  (s.acts ?? []).forEach((act, i) => {
    act.show.forEach((id, k) => known(['acts', i, 'show', k], id));
    const first = run(act.show[0]);
    if (first) inside(['acts', i, 'rewindTo'], act.rewindTo, first, act.show[0]);
  });
  const actIds = (s.acts ?? []).map((a) => a.id);
  (s.acts ?? []).forEach((a, i) => {
    if (actIds.indexOf(a.id) !== i) at(['acts', i, 'id'], { kind: 'duplicateId', id: a.id, first: formatPath(['acts', actIds.indexOf(a.id)]) });
  });

  // Steps: unique ids, triggers, focus, predictions, try, charts.
  const steps = lessonSteps(s);
  const stepIds = steps.map((x) => x.step.id);
  steps.forEach(({ path, step }, k) => {
    if (stepIds.indexOf(step.id) !== k) at([...path, 'id'], { kind: 'duplicateStep', id: step.id });
  });
  for (const { path, when, focus } of lessonWhens(s)) whenProblems(path, when, focus);
  function whenProblems(path: readonly PathKey[], w: When, focus: string) {
    const id = 'variant' in w && w.variant !== undefined ? w.variant : focus;
    const r = 'variant' in w && w.variant !== undefined ? known([...path, 'variant'], w.variant) : run(focus);
    if ('at' in w && r) inside([...path, 'at'], w.at, r, id);
    if ('event' in w) {
      if (!events.includes(w.event)) at([...path, 'event'], { kind: 'lessonEvent', event: w.event });
      if (r) {
        node([...path, 'node'], w.node, r, id);
        inside([...path, 'after'], w.after, r, id);
      }
    }
    if ('metric' in w) {
      metric([...path, 'metric'], w.metric);
      if (r) {
        node([...path, 'node'], w.node, r, id);
        measuredIn([...path, 'metric'], w.metric, r, id);
      }
    }
    if ('afterStep' in w && !stepIds.includes(w.afterStep)) at([...path, 'afterStep'], { kind: 'noStep', id: w.afterStep, steps: stepIds });
  }
  for (const { path, step, focus } of steps) {
    const foci = step.focus === undefined ? [] : Array.isArray(step.focus) ? step.focus : [step.focus];
    foci.forEach((f, k) => {
      const p = Array.isArray(step.focus) ? [...path, 'focus', k] : [...path, 'focus'];
      const slash = f.indexOf('/');
      const id = slash >= 0 ? f.slice(0, slash) : focus;
      const r = slash >= 0 ? known(p, id) : run(focus);
      if (!r) return;
      const target = slash >= 0 ? f.slice(slash + 1) : f;
      const nodes = target.startsWith('node:') ? [target.slice(5)] : target.startsWith('link:') ? target.slice(5).split('-') : [];
      for (const n of nodes) node(p, n, r, id);
    });
    if (step.predict && step.predict.answer >= step.predict.options.length) {
      at([...path, 'predict', 'answer'], { kind: 'notAnOption', answer: step.predict.answer, options: step.predict.options.length });
    }
    const tryRun = step.try ? run(focus) : undefined; // an unknown shown variant is reported where the act shows it
    if (step.try && tryRun) {
      const res = parseAction(step.try.action, clusterNodeIds(tryRun.cluster));
      // The action's own problems, under the step's path (`….try.action.node: …`).
      if (!res.ok) for (const p of res.problems) if ('path' in p) at([...path, 'try', 'action', ...p.path], p.fact);
    }
    if (step.chart) {
      const c = step.chart;
      (c.kind === 'sweep' ? [c.metric] : c.metrics).forEach((m, k) => metric(c.kind === 'sweep' ? [...path, 'chart', 'metric'] : [...path, 'chart', 'metrics', k], m));
      c.variants.forEach((id, k) => {
        const r = known([...path, 'chart', 'variants', k], id);
        if (r) inside([...path, 'chart', 'at'], c.at, r, id);
      });
    }
  }

  // Placeholders in every text.
  for (const { path, text, focus } of lessonTexts(s)) {
    for (const bad of malformedPlaceholders(text)) at(path, { kind: 'badPlaceholder', raw: bad });
    for (const p of parsePlaceholders(text)) {
      const id = p.variant ?? focus;
      const r = run(id);
      if (!r) {
        at(path, { kind: 'inPlaceholder', raw: p.raw, inner: noRun(id) });
        continue;
      }
      if (!knownMetrics.has(p.metric)) at(path, { kind: 'inPlaceholder', raw: p.raw, inner: unknownMetric(p.metric) });
      const notMeasured = unmeasured(p.metric, r, id);
      if (notMeasured) at(path, { kind: 'inPlaceholder', raw: p.raw, inner: notMeasured });
      const nodes = clusterNodeIds(r.cluster);
      if (p.node !== undefined && !nodes.includes(p.node)) at(path, { kind: 'inPlaceholder', raw: p.raw, inner: { kind: 'unknownNode', id: p.node, known: nodes, run: id } });
      if (typeof p.t === 'number' && p.t > r.durationMs) at(path, { kind: 'inPlaceholder', raw: p.raw, inner: { kind: 'afterRunEnd', t: p.t, durationMs: r.durationMs, run: id } });
    }
  }
  return errors;
}
