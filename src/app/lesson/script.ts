import type { Act, Step } from '../../scenario/lesson';
import type { Scenario, TimelineEntry } from '../../scenario/schema';
import type { Action } from '../../sim/types';
import { baseIdOf, isBaseId } from '../../scenario/variants';
import type { ScenarioProblem } from '../../scenario/problems';
import { resolveVariant } from '../../scenario/validate';
import { placeholdersOf } from './placeholders';
import type { UrlProblem } from '../../scenario/urlProblems';

/**
 * A lesson's script as the guided mode walks it (CURRICULUM §C.7–C.8): its acts (a one-act
 * `narration` becomes one act), the variants each act shows, where a step is addressed
 * (`&step=<act>.<n>`), the `interactive` timeline entries the play-head waits at, and whether a
 * learner's action is the one such an entry scripts. Pure functions of the scenario.
 */

export interface Position {
  /** Index into the acts. */
  act: number;
  /** Index into the act's steps; -1 before its first step fires. */
  step: number;
}

/** The acts of a lesson; a scenario without a script has none (it is not a lesson). */
export function actsOf(sc: Scenario): Act[] {
  if (sc.acts && sc.acts.length > 0) return sc.acts;
  if (sc.narration && sc.narration.length > 0) {
    // One act: the base and its variants side by side (at most four fit a screen).
    const show = [baseIdOf(sc), ...(sc.variants ?? []).map((v) => v.id)].slice(0, 4);
    return [{ id: 'main', title: sc.title, show, steps: sc.narration }];
  }
  return [];
}

export function isLesson(sc: Scenario): boolean {
  return actsOf(sc).length > 0;
}

/** Every variant id a lesson's acts show, in first-shown order. */
export function shownVariants(acts: readonly Act[]): string[] {
  const out: string[] = [];
  for (const a of acts) for (const v of a.show) if (!out.includes(v)) out.push(v);
  return out;
}

/**
 * The values a lesson reads at a fixed time, by variant: its step charts' and its texts'
 * placeholders at a time or at the end (a placeholder without a variant reads the one in focus:
 * any the act shows). A step may read a time its runs have not reached (L3's table at 5 s reads
 * 7.9 s) or a variant no act shows (L5's sweep): a copy of the run computes these ahead, off
 * screen. For each variant, the latest time read ('end': the run's end), in first-read order.
 */
export function readsAhead(sc: Scenario): Array<{ variant: string; until: number | 'end' }> {
  const out = new Map<string, number | 'end'>();
  const add = (variant: string, at: number | 'now' | 'end'): void => {
    if (at === 'now') return; // the play-head's value: the run on screen has it
    const was = out.get(variant);
    out.set(variant, was === 'end' || at === 'end' ? 'end' : Math.max(was ?? 0, at));
  };
  const texts = (t: { en: string; zh: string } | undefined, shown: readonly string[]): void => {
    if (!t) return;
    for (const lang of ['en', 'zh'] as const) {
      for (const ref of placeholdersOf(t[lang], '')) for (const v of ref.variant ? [ref.variant] : shown) add(v, ref.at);
    }
  };
  const acts = actsOf(sc);
  for (const act of acts) {
    for (const step of act.steps) {
      texts(step.text, act.show);
      texts(step.predict?.reveal.text, act.show);
      if (step.chart) for (const v of step.chart.variants) add(v, step.chart.at);
    }
  }
  texts(sc.lesson?.modelAnswer, shownVariants(acts));
  return [...out].map(([variant, until]) => ({ variant, until }));
}

/** Variant ids that exist in the scenario (the base included). */
export function variantIds(sc: Scenario): string[] {
  return [baseIdOf(sc), ...(sc.variants ?? []).map((v) => v.id)];
}

/** The title the lesson gives a variant (the base's `base.title`), if it gives one. */
export function ownTitle(sc: Scenario, id: string): { en: string; zh: string } | undefined {
  return isBaseId(sc, id) ? sc.base?.title : sc.variants?.find((x) => x.id === id)?.title;
}

/** The variant's title, or its id (the base: the scenario's title). */
export function variantTitle(sc: Scenario, id: string): { en: string; zh: string } {
  return ownTitle(sc, id) ?? (isBaseId(sc, id) ? sc.title : { en: id, zh: id });
}

/** A step's stable key across the lesson: `<act id>.<step id>`. */
export function stepKey(act: Act, step: Step): string {
  return `${act.id}.${step.id}`;
}

/**
 * `&step=<act>.<n>`: the act by id (or 1-based number) and the step by 1-based number (or id).
 * Returns the problem (typed, the app words it); the caller keeps the lesson at its start.
 */
export function parseStepParam(value: string, acts: readonly Act[]): Position | Extract<UrlProblem, { param: 'step' }> {
  const m = /^([^.]+)\.([^.]+)$/.exec(value);
  if (!m) return { problem: 'not-step', param: 'step', value, example: `${acts[0]?.id ?? 'main'}.1` };
  const [, a, s] = m;
  let act = acts.findIndex((x) => x.id === a);
  if (act < 0 && /^\d+$/.test(a) && Number(a) >= 1 && Number(a) <= acts.length) act = Number(a) - 1;
  if (act < 0) return { problem: 'no-act', param: 'step', value, act: a, acts: acts.map((x) => x.id) };
  const steps = acts[act].steps;
  let step = steps.findIndex((x) => x.id === s);
  if (step < 0 && /^\d+$/.test(s) && Number(s) >= 1 && Number(s) <= steps.length) step = Number(s) - 1;
  if (step < 0) return { problem: 'no-step', param: 'step', value, act: acts[act].id, step: s, steps: steps.map((x) => x.id) };
  return { act, step };
}

/** The `&step=` value of a position (1-based step number). */
export function stepParam(acts: readonly Act[], p: Position): string {
  return `${acts[p.act].id}.${Math.max(1, p.step + 1)}`;
}

export interface Gate {
  /** Index into the variant's timeline: the entry's identity. */
  index: number;
  at: number;
  action: Action;
}

/** The `interactive` timeline entries with a time: where guided mode waits for the learner. */
export function gatesOf(timeline: readonly TimelineEntry[]): Gate[] {
  const out: Gate[] = [];
  timeline.forEach((e, index) => {
    if (!e.interactive || e.at === undefined || e.by === 'user') return;
    const { at, on: _on, by: _by, interactive: _i, ...rest } = e;
    out.push({ index, at, action: rest as Action });
  });
  return out.sort((a, b) => a.at - b.at || a.index - b.index);
}

/**
 * The scenario each shown variant runs (the base itself for "base"), or the problems naming why
 * not; with `ids`, those variants' (what the steps read ahead).
 */
export function variantScenarios(sc: Scenario, ids?: readonly string[]): { ok: true; runs: Array<{ id: string; scenario: Scenario }> } | { ok: false; problems: ScenarioProblem[] } {
  const problems: ScenarioProblem[] = [];
  const runs: Array<{ id: string; scenario: Scenario }> = [];
  for (const id of ids ?? shownVariants(actsOf(sc))) {
    // "base" names the base run even where `base.id` gives it another name (resolveVariant knows).
    const r = resolveVariant(sc, id);
    if (r.ok) runs.push({ id, scenario: r.scenario });
    else if ('unknown' in r) {
      const runIds = variantIds(sc);
      problems.push({ path: ['acts'], root: 'scenario', fact: { kind: 'noRun', id, runs: runIds, baseAlias: runIds[0] !== 'base' } });
    } else {
      // The file's check (validateScenario) reports a variant's problems first; this is a run patched since.
      const index = (sc.variants ?? []).findIndex((v) => v.id === id);
      problems.push(...r.problems.map((p) => ('path' in p ? { ...p, variant: { index, id } } : p)));
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, runs };
}
