import { strategyInfo } from '../protocols';
import { noteNames } from '../protocols/notes';
import { kafkaMisnomers, kafkaPsProblems } from '../protocols/kafka/knobs';
import { coordinationProblems } from '../protocols/coord/config';
import { psSyncAggregationProblem } from '../protocols/psSyncKnobs';
import { strategiesWithWire } from '../protocols/wire';
import { actionKinds, FASHION_TRAIN_IMAGES, isComparison, scenarioSchema, type Scenario, type TimelineEntry } from './schema';
import { fieldNamesOf, formatIssues, formatPath, makeSuggester } from './issues';
import { actionNodeProblems, clusterNodeIds, unknownNodeMessage } from './nodes';
import { baseIdOf, expectationsFor, fixedFields, isBaseId, patchedInput } from './variants';
import { lessonSampleTimes } from './lessonRefs';
import { lessonProblems } from './lessonValidate';

/**
 * Validation of a scenario file (CONTRACTS §1): structure via the zod schema, then the rules
 * that need the whole file (node ids exist, times fall inside the run, the strategy has the
 * nodes it needs). Every problem is one line `path: message`; nothing throws.
 */

export type ValidationResult = { ok: true; scenario: Scenario } | { ok: false; errors: string[] };

/** Above this many lines the rest are summarised; a wholly wrong file should not flood the screen. */
const MAX_ERRORS = 25;

/**
 * Nodes each strategy needs. One row per strategy, so a new strategy adds its needs here
 * (e.g. raft-ps: servers ≥ 3) without touching the checks.
 */

const suggest = makeSuggester(fieldNamesOf(scenarioSchema));

export function validateScenario(input: unknown): ValidationResult {
  const r = validateOne(input);
  if (!r.ok) return { ok: false, errors: cap(r.errors) };
  const runs = new Map<string, Scenario>([
    ['base', r.scenario],
    [baseIdOf(r.scenario), r.scenario],
  ]);
  const errors = variantProblems(r.scenario, runs);
  if (errors.length === 0) errors.push(...lessonProblems(r.scenario, runs, triggerEvents));
  return errors.length > 0 ? { ok: false, errors: cap(errors) } : r;
}

/** One scenario without its variants: structure, then the rules across fields. */
function validateOne(input: unknown): ValidationResult {
  const parsed = scenarioSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) =>
      // A newer file deserves a clearer word than "expected 1": say what this build reads.
      issue.path.length === 1 && issue.path[0] === 'schema' && issue.code === 'invalid_value' && typeof issue.input === 'number'
        ? `schema: unsupported schema version ${issue.input}; this version of CAP Playground reads schema 1`
        : formatIssues([issue], { root: 'scenario', suggest, misnomers: kafkaMisnomers })[0],
    );
    return { ok: false, errors };
  }
  const errors = wholeFileProblems(parsed.data);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, scenario: parsed.data };
}

/** resolveVariant's answer; `unknown` (the variants the file has) when it has no variant by that id. */
export type VariantResult = ValidationResult | { ok: false; errors: string[]; unknown: readonly string[] };

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
  return validateOne({ ...run, expect, ...(times.length ? { sampleAt: times } : {}) });
}

/**
 * Variants (CURRICULUM §C.1, §C.7): unique ids, patches that leave the fixed fields alone, each
 * patched scenario valid — its problems named under `variants[i].patch.<field>` when the patch
 * wrote that field, else under `variants[i]` — and expectations that name an existing variant.
 */
function variantProblems(s: Scenario, runs: Map<string, Scenario>): string[] {
  const errors: string[] = [];
  const at = (path: ReadonlyArray<string | number>, msg: string) => errors.push(`${formatPath(path)}: ${msg}`);
  const variants = s.variants ?? [];
  const ids = variants.map((v) => v.id);
  variants.forEach((v, i) => {
    if (ids.indexOf(v.id) !== i) return at(['variants', i, 'id'], `"${v.id}" is used by variants[${ids.indexOf(v.id)}] already`);
    if (isBaseId(s, v.id)) return at(['variants', i, 'id'], `"${v.id}" names the base (${s.base ? '"base.id"' : 'reserved'}); give the variant another id`);
    let fixed = false;
    for (const key of Object.keys(v.patch)) {
      if (Object.hasOwn(fixedFields, key)) {
        at(['variants', i, 'patch', key], fixedFields[key]);
        fixed = true;
      }
    }
    if (fixed) return;
    const r = validateOne(patchedInput(s, v.patch));
    if (r.ok) {
      runs.set(v.id, r.scenario);
      s.expect.forEach((e, j) => {
        if (e.variant !== v.id && e.variant !== '*') return;
        if (e.at !== 'end' && e.at > r.scenario.durationMs) at(['expect', j, 'at'], `${afterEnd(e.at, r.scenario.durationMs)} of variant "${v.id}"`);
        if (e.thanAt !== undefined && e.thanAt !== 'end' && e.thanAt > r.scenario.durationMs) at(['expect', j, 'thanAt'], `${afterEnd(e.thanAt, r.scenario.durationMs)} of variant "${v.id}"`);
        const known = clusterNodeIds(r.scenario.cluster);
        if (e.node !== undefined && !known.includes(e.node)) at(['expect', j, 'node'], `${unknownNodeMessage(e.node, known)} in variant "${v.id}"`);
      });
      return;
    }
    for (const line of r.errors) {
      const head = /^[A-Za-z_$][\w$]*/.exec(line)?.[0];
      if (head !== undefined && Object.hasOwn(v.patch, head)) errors.push(`${formatPath(['variants', i, 'patch'])}.${line}`);
      else errors.push(`${formatPath(['variants', i])} ("${v.id}"): ${line}`);
    }
  });
  s.expect.forEach((e, j) => {
    if (e.variant === undefined || e.variant === '*' || isBaseId(s, e.variant) || ids.includes(e.variant)) return;
    at(['expect', j, 'variant'], `no variant "${e.variant}" (${ids.length ? `variants: ${ids.join(', ')}` : 'the scenario has no variants'}; "*" means all, "${baseIdOf(s)}" the base)`);
  });
  return errors;
}

function cap(errors: string[]): string[] {
  if (errors.length <= MAX_ERRORS) return errors;
  return [...errors.slice(0, MAX_ERRORS), `… and ${errors.length - MAX_ERRORS} more problems`];
}

/** Rules across fields, on a structurally valid scenario. */
export function wholeFileProblems(s: Scenario): string[] {
  const errors: string[] = [];
  const ids = clusterNodeIds(s.cluster);
  const known = new Set(ids);
  const at = (path: ReadonlyArray<string | number>, msg: string) => errors.push(`${formatPath(path)}: ${msg}`);

  const needs = strategyInfo(s.strategy.kind)?.needs ?? {};
  for (const role of ['workers', 'servers', 'brokers'] as const) {
    const min = needs[role];
    if (min !== undefined && s.cluster[role] < min) {
      const noun = min === 1 ? role.slice(0, -1) : role;
      at(['cluster', role], `strategy "${s.strategy.kind}" needs at least ${min} ${noun} (got ${s.cluster[role]})`);
    }
  }

  if (s.model.dataset === 'fashion-mnist' && s.model.samples > FASHION_TRAIN_IMAGES) {
    at(['model', 'samples'], `fashion-mnist has ${FASHION_TRAIN_IMAGES} training images (got ${s.model.samples})`);
  }

  if (s.strategy.kind === 'kafka-ps') for (const [path, msg] of kafkaPsProblems(s.strategy, s.cluster)) at(['strategy', ...path], msg);
  if (s.strategy.kind === 'ps-sync') {
    const problem = psSyncAggregationProblem(s.strategy, s.cluster.workers);
    if (problem) at(['strategy', 'aggregation'], problem);
  }
  const wire = strategiesWithWire.includes(s.strategy.kind);
  if (!wire && s.security && (s.security.integrity === 'sha256' || s.security.integrity === 'hmac' || s.security.replayProtection)) {
    at(['security'], noWire(s.strategy.kind, 'protect with a digest, a tag or a sequence number; "tls" covers every record'));
  }

  if (s.coordination) for (const [path, msg] of coordinationProblems(s.coordination, s.cluster)) at(['coordination', ...path], msg);
  if (s.strategy.kind === 'ps-async') {
    if (s.strategy.writeLock === 'lease' && s.cluster.coord < 1) at(['strategy', 'writeLock'], '"lease" takes its locks from a coordination service: set cluster.coord (3 is usual)');
    if (s.strategy.fencing && s.strategy.writeLock !== 'lease') at(['strategy', 'fencing'], 'fencing checks the tokens of lock grants: it needs writeLock "lease"');
  }

  s.compute.stragglers.forEach((st, i) => {
    if (!known.has(st.node)) at(['compute', 'stragglers', i, 'node'], unknownNodeMessage(st.node, ids));
  });

  if (s.strategy.kind === '2pc-ps' && !known.has(s.strategy.coordinator)) at(['strategy', 'coordinator'], unknownNodeMessage(s.strategy.coordinator, ids));

  s.timeline.forEach((entry, i) => {
    for (const [path, msg] of whenProblems(entry, s.durationMs, ids)) at(['timeline', i, ...path], msg);
    if (entry.do === 'tamper') {
      const problem = tamperProblem(s.strategy.kind, entry.from, entry.to);
      if (problem) at(['timeline', i, problem[0]], problem[1]);
    }
    for (const [field, msg] of actionNodeProblems(entry, ids)) at(['timeline', i, field], msg);
  });

  s.expect.forEach((e, i) => {
    // An expectation of one variant only is checked against that variant's run (variantProblems).
    if (e.variant !== undefined && e.variant !== '*' && !isBaseId(s, e.variant)) return;
    if (e.at !== 'end' && e.at > s.durationMs) at(['expect', i, 'at'], afterEnd(e.at, s.durationMs));
    if (e.thanAt !== undefined && e.thanAt !== 'end' && e.thanAt > s.durationMs) at(['expect', i, 'thanAt'], afterEnd(e.thanAt, s.durationMs));
    if (e.node !== undefined && !known.has(e.node)) at(['expect', i, 'node'], unknownNodeMessage(e.node, ids));
  });

  return errors;
}

/** Strategies without parameter-server updates on the wire (protocols/wire.ts). */
export function noWire(kind: string, what: string): string {
  return `strategy "${kind}" sends no parameter-server updates to ${what} (only ${strategiesWithWire.join(', ')} do)`;
}

/**
 * Why a `tamper` on from → to would have nothing to alter, as [field, message], or null: the
 * strategy sends no parameter-server updates, or the link is the coordination service's (its
 * locks, leases and metadata are not updates; TLS covers them, and nothing else does).
 */
export function tamperProblem(kind: string, from: string, to: string): ['do' | 'from' | 'to', string] | null {
  if (!strategiesWithWire.includes(kind)) return ['do', noWire(kind, 'alter')];
  for (const [field, id] of [['from', from], ['to', to]] as const) {
    if (/^c\d+$/.test(id)) return [field, `"${id}" is a node of the coordination service: its messages (locks, leases, metadata) carry no parameter-server updates to alter`];
  }
  return null;
}

/** Events a timeline `on` (and a lesson step's `when`) may name: every note, and `action:<do>` for every action. */
export const triggerEvents: readonly string[] = [...noteNames, ...actionKinds.map((k) => `action:${k}`)];
const suggestEvent = makeSuggester(triggerEvents);

/** An entry fires at a time (`at`) or on an event (`on`), exactly one of them. */
function whenProblems(entry: TimelineEntry, durationMs: number, ids: readonly string[]): Array<[Array<string | number>, string]> {
  const out: Array<[Array<string | number>, string]> = [];
  if (entry.at === undefined && entry.on === undefined) out.push([[], 'give "at" (a time in ms) or "on" (an event to fire on)']);
  if (entry.at !== undefined && entry.on !== undefined) out.push([['on'], 'give either "at" or "on", not both']);
  if (entry.at !== undefined && entry.at > durationMs) out.push([['at'], afterEnd(entry.at, durationMs)]);
  const on = entry.on;
  if (on) {
    if (!triggerEvents.includes(on.event)) {
      const hint = suggestEvent(on.event);
      out.push([['on', 'event'], `unknown event "${on.event}"${hint ? ` (did you mean "${hint}"?)` : ''}; an event is a history note such as "leaderElected" or "2pc.prepareSent", or "action:<do>" such as "action:crash"`]);
    }
    if (on.node !== undefined && !ids.includes(on.node)) out.push([['on', 'node'], unknownNodeMessage(on.node, ids)]);
    if (on.after !== undefined && on.after > durationMs) out.push([['on', 'after'], afterEnd(on.after, durationMs)]);
  }
  return out;
}

function afterEnd(t: number, durationMs: number): string {
  return `${t} is after the end of the run (durationMs ${durationMs})`;
}
