import { strategyInfo } from '../protocols';
import { noteNames } from '../protocols/notes';
import { kafkaPsProblems } from '../protocols/kafka/knobs';
import { coordinationProblems } from '../protocols/coord/config';
import { psSyncAggregationFact } from '../protocols/psSyncKnobs';
import { strategiesWithWire } from '../protocols/wire';
import { noWire, tamperFact } from './wireFacts';
import { actionKinds, FASHION_TRAIN_IMAGES, isComparison, scenarioSchema, type Scenario, type TimelineEntry } from './schema';
import { fieldNamesOf, issueProblems } from './issues';
import { makeSuggester } from './suggest';
import { actionNodeFacts, clusterNodeIds } from './nodes';
import { at, fixedFieldMessages, failed, formatPath, type FixedField, type PathKey, type ProblemFact, type ScenarioProblem } from './problems';
import { baseIdOf, expectationsFor, isBaseId, patchedInput } from './variants';
import { lessonSampleTimes } from './lessonRefs';
import { lessonProblems } from './lessonValidate';
import { notMeasuredFact } from './measured';

/**
 * Validation of a scenario file (CONTRACTS §1): structure via the zod schema, then the rules
 * that need the whole file (node ids exist, times fall inside the run, the strategy has the
 * nodes it needs). Every problem is a typed fact (problems.ts) and one English line `path: message`;
 * nothing throws.
 */

/** `problems`, where the checker has them, say what `errors` says as facts (one per line). */
export type ValidationResult = { ok: true; scenario: Scenario } | { ok: false; errors: string[]; problems?: ScenarioProblem[] };


/** Above this many lines the rest are summarised; a wholly wrong file should not flood the screen. */
const MAX_ERRORS = 25;

/**
 * Nodes each strategy needs. One row per strategy, so a new strategy adds its needs here
 * (e.g. raft-ps: servers ≥ 3) without touching the checks.
 */

const suggest = makeSuggester(fieldNamesOf(scenarioSchema));

export function validateScenario(input: unknown): ValidationResult {
  const r = validateOne(input);
  if (!r.ok) return failed(cap(r.problems));
  const runs = new Map<string, Scenario>([
    ['base', r.scenario],
    [baseIdOf(r.scenario), r.scenario],
  ]);
  const problems = variantProblems(r.scenario, runs);
  if (problems.length === 0) problems.push(...lessonProblems(r.scenario, runs, triggerEvents));
  return problems.length > 0 ? failed(cap(problems)) : r;
}

/** One scenario without its variants: structure, then the rules across fields. */
function validateOne(input: unknown): { ok: true; scenario: Scenario } | { ok: false; problems: ScenarioProblem[] } {
  const parsed = scenarioSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      // A newer file deserves a clearer word than "expected 1": say what this build reads.
      issue.path.length === 1 && issue.path[0] === 'schema' && issue.code === 'invalid_value' && typeof issue.input === 'number'
        ? at(['schema'], { kind: 'schemaVersion', got: issue.input })
        : issueProblems([issue], { root: 'scenario', suggest, misnomers: true })[0],
    );
    return { ok: false, problems };
  }
  const problems = wholeFileProblems(parsed.data);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, scenario: parsed.data };
}

/** resolveVariant's answer; `unknown` (the variants the file has) when it has no variant by that id. */
export type VariantResult = { ok: true; scenario: Scenario } | { ok: false; errors: string[]; problems: ScenarioProblem[] } | { ok: false; errors: string[]; unknown: readonly string[] };

/**
 * The scenario that variant `id` runs: the base with the variant's patch, the base seed, and the
 * expectations that name this variant or "*". Validated like any scenario (validateScenario has
 * already reported the problems of a file's variants, with their paths).
 */
export function resolveVariant(base: Scenario, id: string): VariantResult {
  if (isBaseId(base, id)) return { ok: true, scenario: base };
  const v = base.variants?.find((x) => x.id === id);
  if (!v) {
    const known = (base.variants ?? []).map((x) => x.id);
    return { ok: false, errors: [`variant: no variant "${id}"${known.length ? ` (variants: ${known.join(', ')})` : ''}`], unknown: known };
  }
  // The lesson's sampling times travel with the variant: every run is sampled where the lesson reads it.
  const times = lessonSampleTimes(base);
  // A variant's run is a plain scenario: the lesson script (acts, narration, metadata), shapes and
  // comparisons with other runs belong to the file and name the other variants (they are judged
  // from the runs' samples, lessonVerdict.ts), so a run written out on its own validates again.
  const { acts: _acts, narration: _narration, lesson: _lesson, shapes: _shapes, ...run } = patchedInput(base, v.patch);
  const expect = expectationsFor(base.expect, id, baseIdOf(base)).filter((e) => !isComparison(e));
  const r = validateOne({ ...run, expect, ...(times.length ? { sampleAt: times } : {}) });
  return r.ok ? r : failed(r.problems);
}

/**
 * Variants (CURRICULUM §C.1, §C.7): unique ids, patches that leave the fixed fields alone, each
 * patched scenario valid — its problems named under `variants[i].patch.<field>` when the patch
 * wrote that field, else under `variants[i]` — and expectations that name an existing variant.
 */
function variantProblems(s: Scenario, runs: Map<string, Scenario>): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const fact = (path: readonly PathKey[], f: ProblemFact) => problems.push(at(path, f));
  const variants = s.variants ?? [];
  const ids = variants.map((v) => v.id);
  variants.forEach((v, i) => {
    if (ids.indexOf(v.id) !== i) return fact(['variants', i, 'id'], { kind: 'duplicateId', id: v.id, first: formatPath(['variants', ids.indexOf(v.id)]) });
    if (isBaseId(s, v.id)) return fact(['variants', i, 'id'], { kind: 'namesBase', id: v.id, named: s.base !== undefined });
    let fixed = false;
    for (const key of Object.keys(v.patch)) {
      if (Object.hasOwn(fixedFieldMessages, key)) {
        fact(['variants', i, 'patch', key], { kind: 'fixedField', field: key as FixedField });
        fixed = true;
      }
    }
    if (fixed) return;
    const r = validateOne(patchedInput(s, v.patch));
    if (r.ok) {
      runs.set(v.id, r.scenario);
      s.expect.forEach((e, j) => {
        if (e.variant !== v.id && e.variant !== '*') return;
        const durationMs = r.scenario.durationMs;
        if (e.at !== 'end' && e.at > durationMs) fact(['expect', j, 'at'], { kind: 'afterEnd', t: e.at, durationMs, variant: v.id });
        if (e.thanAt !== undefined && e.thanAt !== 'end' && e.thanAt > durationMs) fact(['expect', j, 'thanAt'], { kind: 'afterEnd', t: e.thanAt, durationMs, variant: v.id });
        const known = clusterNodeIds(r.scenario.cluster);
        if (e.node !== undefined && !known.includes(e.node)) fact(['expect', j, 'node'], { kind: 'unknownNode', id: e.node, known, variant: v.id });
        // For "*", only where the base measures it (else the base's line says it once).
        const unmeasured = notMeasuredFact(r.scenario, e.metric, v.id);
        if (unmeasured && (e.variant === v.id || notMeasuredFact(s, e.metric) === null)) fact(['expect', j, 'metric'], unmeasured);
      });
      return;
    }
    for (const p of r.problems) {
      if (!('path' in p)) continue;
      const head = p.path[0];
      if (typeof head === 'string' && Object.hasOwn(v.patch, head)) problems.push({ ...p, path: ['variants', i, 'patch', ...p.path] });
      else problems.push({ ...p, variant: { index: i, id: v.id } });
    }
  });
  s.expect.forEach((e, j) => {
    if (e.variant === undefined || e.variant === '*' || isBaseId(s, e.variant) || ids.includes(e.variant)) return;
    fact(['expect', j, 'variant'], { kind: 'noVariant', id: e.variant, variants: ids, baseId: baseIdOf(s) });
  });
  return problems;
}

function cap(problems: ScenarioProblem[]): ScenarioProblem[] {
  if (problems.length <= MAX_ERRORS) return problems;
  return [...problems.slice(0, MAX_ERRORS), { more: problems.length - MAX_ERRORS }];
}

/** Rules across fields, on a structurally valid scenario. */
export function wholeFileProblems(s: Scenario): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const ids = clusterNodeIds(s.cluster);
  const known = new Set(ids);
  const fact = (path: readonly PathKey[], f: ProblemFact) => problems.push(at(path, f));
  const unknownNode = (path: readonly PathKey[], id: string) => fact(path, { kind: 'unknownNode', id, known: ids });
  const afterEnd = (path: readonly PathKey[], t: number) => fact(path, { kind: 'afterEnd', t, durationMs: s.durationMs });

  const needs = strategyInfo(s.strategy.kind)?.needs ?? {};
  for (const role of ['workers', 'servers', 'brokers'] as const) {
    const min = needs[role];
    if (min !== undefined && s.cluster[role] < min) fact(['cluster', role], { kind: 'strategyNeeds', strategy: s.strategy.kind, min, role, got: s.cluster[role] });
  }

  if (s.model.dataset === 'fashion-mnist' && s.model.samples > FASHION_TRAIN_IMAGES) {
    fact(['model', 'samples'], { kind: 'fashionImages', max: FASHION_TRAIN_IMAGES, got: s.model.samples });
  }

  if (s.strategy.kind === 'kafka-ps') for (const [path, f] of kafkaPsProblems(s.strategy, s.cluster)) fact(['strategy', ...path], f);
  if (s.strategy.kind === 'ps-sync') {
    const problem = psSyncAggregationFact(s.strategy, s.cluster.workers);
    if (problem) fact(['strategy', 'aggregation'], problem);
  }
  const wire = strategiesWithWire.includes(s.strategy.kind);
  if (!wire && s.security && (s.security.integrity === 'sha256' || s.security.integrity === 'hmac' || s.security.replayProtection)) {
    fact(['security'], noWire(s.strategy.kind, 'protect'));
  }

  if (s.coordination) for (const [path, f] of coordinationProblems(s.coordination, s.cluster)) fact(['coordination', ...path], f);
  if (s.strategy.kind === 'ps-async') {
    if (s.strategy.writeLock === 'lease' && s.cluster.coord < 1) fact(['strategy', 'writeLock'], { kind: 'leaseNeedsCoord' });
    if (s.strategy.fencing && s.strategy.writeLock !== 'lease') fact(['strategy', 'fencing'], { kind: 'fencingNeedsLease' });
  }

  s.compute.stragglers.forEach((st, i) => {
    if (!known.has(st.node)) unknownNode(['compute', 'stragglers', i, 'node'], st.node);
  });

  if (s.strategy.kind === '2pc-ps' && !known.has(s.strategy.coordinator)) unknownNode(['strategy', 'coordinator'], s.strategy.coordinator);

  s.timeline.forEach((entry, i) => {
    for (const p of whenProblems(entry, s.durationMs, ids)) problems.push(at(['timeline', i, ...p.path], p.fact));
    if (entry.do === 'tamper') {
      const problem = tamperFact(s.strategy.kind, entry.from, entry.to);
      if (problem) fact(['timeline', i, problem[0]], problem[1]);
    }
    for (const [field, f] of actionNodeFacts(entry, ids)) fact(['timeline', i, field], f);
  });

  s.expect.forEach((e, i) => {
    // An expectation of one variant only is checked against that variant's run (variantProblems).
    if (e.variant !== undefined && e.variant !== '*' && !isBaseId(s, e.variant)) return;
    if (e.at !== 'end' && e.at > s.durationMs) afterEnd(['expect', i, 'at'], e.at);
    if (e.thanAt !== undefined && e.thanAt !== 'end' && e.thanAt > s.durationMs) afterEnd(['expect', i, 'thanAt'], e.thanAt);
    if (e.node !== undefined && !known.has(e.node)) unknownNode(['expect', i, 'node'], e.node);
    const unmeasured = notMeasuredFact(s, e.metric);
    if (unmeasured) fact(['expect', i, 'metric'], unmeasured);
  });

  return problems;
}


/** Events a timeline `on` (and a lesson step's `when`) may name: every note, and `action:<do>` for every action. */
export const triggerEvents: readonly string[] = [...noteNames, ...actionKinds.map((k) => `action:${k}`)];
const suggestEvent = makeSuggester(triggerEvents);

/** An entry fires at a time (`at`) or on an event (`on`), exactly one of them. */
function whenProblems(entry: TimelineEntry, durationMs: number, ids: readonly string[]): Array<{ path: PathKey[]; fact: ProblemFact }> {
  const out: Array<{ path: PathKey[]; fact: ProblemFact }> = [];
  if (entry.at === undefined && entry.on === undefined) out.push({ path: [], fact: { kind: 'atOrOn' } });
  if (entry.at !== undefined && entry.on !== undefined) out.push({ path: ['on'], fact: { kind: 'atAndOn' } });
  if (entry.at !== undefined && entry.at > durationMs) out.push({ path: ['at'], fact: { kind: 'afterEnd', t: entry.at, durationMs } });
  const on = entry.on;
  if (on) {
    if (!triggerEvents.includes(on.event)) {
      const hint = suggestEvent(on.event);
      out.push({ path: ['on', 'event'], fact: { kind: 'unknownEvent', event: on.event, ...(hint ? { hint } : {}) } });
    }
    if (on.node !== undefined && !ids.includes(on.node)) out.push({ path: ['on', 'node'], fact: { kind: 'unknownNode', id: on.node, known: ids } });
    if (on.after !== undefined && on.after > durationMs) out.push({ path: ['on', 'after'], fact: { kind: 'afterEnd', t: on.after, durationMs } });
  }
  return out;
}
