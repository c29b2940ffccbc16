import { reportAddressProblems } from '../addressProblems';
import { createRun, makeTrainer, type Run, type RunTrainer } from '../engine';
import type { Scenario } from '../../scenario/schema';
import { problemLine } from '../../scenario/problems';
import { driver } from '../driver';
import { ls } from '../i18n/lessonStrings';
import { beginLoad, explainReady, isCurrentLoad, lessonHooks, loadFailed, swapIn } from '../load';
import { get, reportError, set } from '../store';
import { runAhead } from './ahead';
import { actsOf, gatesOf, readsAhead, variantScenarios } from './script';
import { urlProblemText } from '../urlProblemText';
import { problemLines } from '../scenarioProblemText';
import { getLesson, initialLesson, setLesson, type AheadRun, type LessonMode, type VariantRun } from './store';

/**
 * A lesson's runs: every variant its acts show, each a run with the base seed, built
 * together and driven by the one driver — the focused one as the app's `sim`, the others as its
 * companions in lockstep — over shared worker pools (one per distinct model: the pool holds no
 * per-run state, it computes what each run asks). Guided mode's stops (an `interactive` entry
 * waiting, a step that pauses) reach the driver through the Guide installed here. Beside them,
 * copies of the variants whose values a step reads ahead of the runs (or that no act shows) run
 * off screen on the same pools (ahead.ts).
 */

export interface OpenLessonOptions {
  mode?: LessonMode;
  /** `&variant=`: the variant in focus (shown with every view). */
  variant?: string;
  autoplay?: boolean;
}

/** The controller's part of the guide, set by it (`next`, controller.ts) and its waits (`beforePlay`, waits.ts), to keep this file free of them. */
export const stops: { next: () => { t: number; inclusive: boolean } | null; beforePlay: () => boolean } = { next: () => null, beforePlay: () => false };

function modelKey(sc: Scenario): string {
  return JSON.stringify([sc.model, sc.seed, sc.cluster.workers]);
}

/**
 * What a trainer computes depends on the model and the seed only (a request carries the
 * parameters and the batch): a copy running ahead borrows any pool with the same key. The
 * modelled size (`virtualParams`) is the engine's, not the trainer's.
 */
function trainerKey(sc: Scenario): string {
  const { virtualParams: _modelled, ...model } = sc.model;
  return JSON.stringify([model, sc.seed]);
}

/** The trainers the lesson's runs use (each once). */
function trainersOf(runs: readonly VariantRun[]): RunTrainer[] {
  return [...new Set(runs.map((r) => r.sim.trainer))];
}

/**
 * Opens a lesson: builds every shown variant's run, swaps them in (the focused one on screen),
 * and starts guided (or free) mode at the lesson's first act. Returns false, keeping what was
 * loaded, if a variant does not resolve or the runs cannot start.
 */
export async function openLessonRuns(sc: Scenario, opts: OpenLessonOptions = {}): Promise<boolean> {
  const lang = get().lang;
  const acts = actsOf(sc);
  const resolved = variantScenarios(sc);
  if (!resolved.ok || acts.length === 0) {
    reportError(ls(lang, 'lessonFailed', { id: sc.id }), resolved.ok ? [ls(lang, 'notALesson')] : problemLines(lang, { errors: [], problems: resolved.problems }));
    return false;
  }
  const ids = resolved.runs.map((r) => r.id);
  let focus = acts[0].show[0];
  if (opts.variant !== undefined) {
    if (ids.includes(opts.variant)) focus = opts.variant;
    else reportAddressProblems([urlProblemText(lang, { problem: 'unknown-variant', param: 'variant', value: opts.variant, known: ids })]);
  }
  const my = beginLoad();
  const pools = new Map<string, RunTrainer>();
  try {
    // Every shown variant's explanation (the focus may move to any), loading while the workers start.
    const texts = Promise.all(resolved.runs.map((r) => explainReady(r.scenario)));
    for (const r of resolved.runs) {
      const key = modelKey(r.scenario);
      if (!pools.has(key)) pools.set(key, await makeTrainer(r.scenario, get().backend));
    }
    const runs: VariantRun[] = [];
    for (const r of resolved.runs) runs.push({ id: r.id, scenario: r.scenario, sim: await createRun(r.scenario, pools.get(modelKey(r.scenario))!) });
    const ahead = await aheadRuns(sc, resolved.runs, pools);
    await texts;
    if (!isCurrentLoad(my)) {
      for (const t of pools.values()) void t.dispose().catch(() => undefined);
      return false;
    }
    const primary = runs.find((r) => r.id === focus)!;
    await swapIn(primary.sim, primary.scenario, [...pools.values()]);
    const shownFirst = acts[0].show.length;
    setLesson({
      ...initialLesson,
      lesson: sc,
      acts,
      runs,
      ahead,
      focus,
      mode: opts.mode ?? 'guided',
      stage: shownFirst > 1 && opts.variant === undefined ? 'multiples' : 'single',
    });
    installGuide();
    runAhead(ahead);
    if (opts.autoplay) driver.play();
    return true;
  } catch (e) {
    for (const t of pools.values()) void t.dispose().catch(() => undefined);
    loadFailed(my, e);
    return false;
  }
}

/** The copies of runs that compute ahead what the steps read (script.readsAhead), on the shown runs' pools where they fit. */
async function aheadRuns(sc: Scenario, shown: ReadonlyArray<{ scenario: Scenario }>, pools: Map<string, RunTrainer>): Promise<AheadRun[]> {
  const reads = readsAhead(sc);
  const resolved = variantScenarios(sc, reads.map((r) => r.variant));
  if (!resolved.ok) throw new Error(resolved.problems.map(problemLine).join('\n'));
  const out: AheadRun[] = [];
  for (const [i, r] of resolved.runs.entries()) {
    const lender = shown.find((s) => trainerKey(s.scenario) === trainerKey(r.scenario));
    const key = lender ? modelKey(lender.scenario) : modelKey(r.scenario);
    // A model no shown run trains: one worker of its own, for a run nobody watches.
    if (!pools.has(key)) pools.set(key, await makeTrainer(r.scenario, get().backend, 1));
    const sim = await createRun(r.scenario, pools.get(key)!);
    out.push({ id: r.id, scenario: r.scenario, sim, until: reads[i].until });
  }
  return out;
}

/** The driver's view of the lesson: the other runs, and the next stop (guided mode only). */
export function installGuide(): void {
  driver.setGuide({
    // The focused variant's run is the app's `sim` (or a branch forked from it): not a companion.
    companions: () => {
      const st = getLesson();
      return st.runs.filter((r) => r.id !== st.focus).map((r) => r.sim);
    },
    stop: () => (getLesson().mode === 'guided' ? stops.next() : null),
    beforePlay: () => getLesson().mode === 'guided' && stops.beforePlay(),
  });
}

/** Puts another variant's run on screen (the app's `sim`); the rest stay companions. */
export async function focusVariant(id: string, stage?: 'multiples' | 'single'): Promise<void> {
  const st = getLesson();
  const run = st.runs.find((r) => r.id === id);
  if (!run) return;
  const app = get();
  if (app.sim !== run.sim) {
    const wasRunning = app.status === 'running';
    await driver.detach();
    const cursor = app.cursor;
    set((s) => ({
      sim: run.sim,
      scenario: run.scenario,
      branches: [{ id: 1, sim: run.sim, parent: null }],
      branchId: 1,
      previousBranch: null,
      selected: null,
      cursor,
      status: st.runs.every((r) => r.sim.done) ? 'done' : 'paused',
      frame: s.frame + 1,
    }));
    driver.attach(run.sim);
    if (wasRunning) driver.play();
  }
  setLesson({ focus: id, ...(stage ? { stage } : {}) });
}

/** The trainers of the open lesson's runs, handed over when it ends; the lesson state is cleared. */
function leaveLesson(): RunTrainer[] {
  const st = getLesson();
  if (!st.lesson) return [];
  const trainers = trainersOf([...st.runs, ...st.ahead]);
  setLesson({ ...initialLesson });
  return trainers;
}

lessonHooks.leaving = leaveLesson;

/** Gates of every run, with the variant whose timeline holds each. */
export function allGates(): Array<ReturnType<typeof gatesOf>[number] & { variant: string; sim: Run }> {
  return getLesson().runs.flatMap((r) => gatesOf(r.scenario.timeline).map((g) => ({ ...g, variant: r.id, sim: r.sim })));
}
