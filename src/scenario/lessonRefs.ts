import type { PathKey } from './issues';
import type { Step, When } from './lesson';
import { parsePlaceholders } from './placeholders';
import { isComparison, type Scenario } from './schema';
import { baseIdOf } from './variants';

/**
 * Walks a lesson script (CURRICULUM §C.7) for what it refers to: its steps, its texts with their
 * placeholders, and the simulated times it reads. Validation (lessonValidate.ts), the engine's
 * sampling times and the tests use the same walk, so nothing the script reads is missed.
 */

export interface StepRef {
  path: PathKey[];
  step: Step;
  /** Index of its act, or null for a one-act `narration`. */
  act: number | null;
  /** The variant the step's placeholders and triggers read by default: the act's first shown, else the base. */
  focus: string;
}

export function lessonSteps(s: Scenario): StepRef[] {
  const out: StepRef[] = [];
  const base = baseIdOf(s);
  (s.narration ?? []).forEach((step, j) => out.push({ path: ['narration', j], step, act: null, focus: base }));
  (s.acts ?? []).forEach((act, i) => act.steps.forEach((step, j) => out.push({ path: ['acts', i, 'steps', j], step, act: i, focus: act.show[0] ?? base })));
  return out;
}

export interface TextRef {
  path: PathKey[];
  text: string;
  /** The variant its placeholders read when they name none. */
  focus: string;
}

/** Every EN and 中文 text of the script and the lesson metadata that may hold placeholders. */
export function lessonTexts(s: Scenario): TextRef[] {
  const out: TextRef[] = [];
  const both = (path: PathKey[], t: { en: string; zh: string } | undefined, focus: string) => {
    if (!t) return;
    out.push({ path: [...path, 'en'], text: t.en, focus }, { path: [...path, 'zh'], text: t.zh, focus });
  };
  for (const { path, step, focus } of lessonSteps(s)) {
    both([...path, 'text'], step.text, focus);
    if (step.predict) {
      both([...path, 'predict', 'question'], step.predict.question, focus);
      step.predict.options.forEach((o, k) => both([...path, 'predict', 'options', k], o, focus));
      both([...path, 'predict', 'reveal', 'text'], step.predict.reveal.text, focus);
    }
    if (step.try) both([...path, 'try', 'hint'], step.try.hint, focus);
  }
  const base = baseIdOf(s);
  if (s.lesson) {
    both(['lesson', 'modelAnswer'], s.lesson.modelAnswer, base);
    s.lesson.followUps?.forEach((f, k) => {
      both(['lesson', 'followUps', k, 'question'], f.question, base);
      both(['lesson', 'followUps', k, 'answer'], f.answer, base);
    });
  }
  return out;
}

/** Every `when` of the script (a step's, and its prediction's reveal). */
export function lessonWhens(s: Scenario): Array<{ path: PathKey[]; when: When; focus: string }> {
  const out: Array<{ path: PathKey[]; when: When; focus: string }> = [];
  for (const { path, step, focus } of lessonSteps(s)) {
    out.push({ path: [...path, 'when'], when: step.when, focus });
    if (step.predict) out.push({ path: [...path, 'predict', 'reveal', 'when'], when: step.predict.reveal.when, focus });
  }
  return out;
}

/**
 * The simulated times a lesson reads besides the engine's period: every expectation's time (of
 * every variant) and comparison time, the shapes' and charts' times, and the placeholders' fixed
 * times. Every run of the lesson samples all of them, so comparisons, charts and texts read exact
 * samples, and the runs' samples line up side by side.
 */
export function lessonSampleTimes(s: Scenario): number[] {
  const times = new Set<number>();
  const add = (t: number | 'end' | 'now' | undefined) => {
    if (typeof t === 'number') times.add(t);
  };
  for (const e of s.expect) {
    add(e.at);
    add(e.thanAt);
  }
  for (const sh of s.shapes ?? []) add(sh.at);
  for (const { step } of lessonSteps(s)) if (step.chart) add(step.chart.at);
  for (const { text } of lessonTexts(s)) for (const p of parsePlaceholders(text)) add(p.t);
  for (const t of s.sampleAt ?? []) add(t);
  return [...times].sort((a, b) => a - b);
}

/** Whether the file holds anything evaluated after the runs (comparisons, shapes). */
export function hasLessonVerdicts(s: Scenario): boolean {
  return s.expect.some(isComparison) || (s.shapes?.length ?? 0) > 0;
}

/** A step's `try` against a timeline entry: one implementation, shared with guided mode (actionMatch.ts). */
export { tryMatchesEntry } from './actionMatch';
