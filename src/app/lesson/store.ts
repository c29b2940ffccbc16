import { create } from 'zustand';
import type { Act } from '../../scenario/lesson';
import type { Scenario } from '../../scenario/schema';
import type { Run } from '../engine';
import type { Gate, Position } from './script';

/**
 * Guided mode's state, beside the app's store: the lesson (its base scenario with the script),
 * one run per variant it shows (all with the base seed), where the learner is, and what they
 * answered. The app's store keeps `sim` = the focused variant's run, so every existing view,
 * menu and key works on it unchanged.
 */

export type LessonMode = 'guided' | 'free';
/** Side by side (small multiples), or the focused variant with every view. */
export type Stage = 'multiples' | 'single';

export interface VariantRun {
  id: string;
  scenario: Scenario;
  sim: Run;
}

/** A copy of a variant's run computing ahead, off screen, what a step reads later (script.readsAhead). */
export interface AheadRun extends VariantRun {
  /** Simulated ms it runs to ('end': the run's end). */
  until: number | 'end';
  /** Why it stopped short of `until` (its simulation failed, or its workers went): set once, by ahead.ts. */
  stopped?: string;
  /** It has finished its last slice at `until`: every event up to it has run (set by ahead.ts). */
  reached?: true;
}

export interface LessonState {
  /** The lesson's base scenario (with variants, acts and metadata); null: no lesson open. */
  lesson: Scenario | null;
  acts: Act[];
  mode: LessonMode;
  stage: Stage;
  runs: VariantRun[];
  /** The copies computing ahead; `aheadTick` counts their progress (what reads them re-renders). */
  ahead: AheadRun[];
  aheadTick: number;
  /** The variant in focus: the app's `sim`, the default of placeholders, where actions apply. */
  focus: string;
  pos: Position;
  /**
   * The step the runs are being run forward to (a `&step=` link, a step dot ahead, a resumed
   * lesson), until they reach it: the step card says so rather than "press → to begin".
   */
  goingTo: Position | null;
  /** Predictions: step key → the option chosen (0-based). */
  answers: Record<string, number>;
  /** Step keys whose answer was revealed by the presenter (R) before its time. */
  revealed: Record<string, true>;
  /** Interactive entries already taken (by the learner or "do it for me"): `<variant>:<index>`. */
  gatesDone: Record<string, true>;
  /** The entry the play-head waits at, with the variant whose timeline holds it. */
  waiting: (Gate & { variant: string }) | null;
  /** The last action refused at a wait (not the scripted one), shown under the wait. */
  refused: string | null;
  /** Whether the learner acted outside the script: the lesson's checks are then n/a. */
  offScript: boolean;
}

export const initialLesson: LessonState = {
  lesson: null,
  acts: [],
  mode: 'guided',
  stage: 'multiples',
  runs: [],
  ahead: [],
  aheadTick: 0,
  focus: 'base',
  pos: { act: 0, step: -1 },
  goingTo: null,
  answers: {},
  revealed: {},
  gatesDone: {},
  waiting: null,
  refused: null,
  offScript: false,
};

export const useLesson = create<LessonState>()(() => ({ ...initialLesson }));
export const setLesson = useLesson.setState;
export const getLesson = useLesson.getState;

/** Is a lesson open and being walked (not free play)? */
export function guided(): boolean {
  const st = getLesson();
  return st.lesson !== null && st.mode === 'guided';
}

export function runOf(id: string): VariantRun | undefined {
  return getLesson().runs.find((r) => r.id === id);
}
