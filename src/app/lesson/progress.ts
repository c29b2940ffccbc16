import type { Act } from '../../scenario/lesson';
import { stepKey, stepParam, type Position } from './script';

/**
 * The learner's progress, kept in this browser only (localStorage; no account, nothing sent):
 * per lesson, the steps seen, the predictions made, where they stopped, and whether they reached
 * the last step. A storage that refuses (private mode, full) just means nothing is remembered.
 */

export interface LessonProgress {
  /** Step keys (`<act>.<step id>`) seen. */
  seen: string[];
  /** Steps in the lesson, when last opened. */
  total: number;
  /** Predictions: step key → option chosen (0-based). */
  answers: Record<string, number>;
  /** `&step=` of the last step shown: where to resume. */
  last: string;
  /** Reached the lesson's last step. */
  done: boolean;
}

export type Progress = Record<string, LessonProgress>;

export const PROGRESS_KEY = 'cap-playground:progress:v1';

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function storage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function isProgress(v: unknown): v is LessonProgress {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return Array.isArray(p.seen) && typeof p.total === 'number' && typeof p.answers === 'object' && typeof p.last === 'string' && typeof p.done === 'boolean';
}

/** What is stored; entries that do not parse are dropped (an older or hand-edited value). */
export function loadProgress(store: StorageLike | null = storage()): Progress {
  try {
    const raw = store?.getItem(PROGRESS_KEY);
    if (!raw) return {};
    const data = JSON.parse(raw) as unknown;
    if (typeof data !== 'object' || data === null) return {};
    const out: Progress = {};
    for (const [id, p] of Object.entries(data)) if (isProgress(p)) out[id] = p;
    return out;
  } catch {
    return {};
  }
}

/** The progress after showing `pos` (and recording `answers`): pure. */
export function withStep(prev: LessonProgress | undefined, acts: readonly Act[], pos: Position, answers: Record<string, number> = {}): LessonProgress {
  const total = acts.reduce((n, a) => n + a.steps.length, 0);
  const seen = new Set(prev?.seen ?? []);
  const act = acts[pos.act];
  const step = act?.steps[pos.step];
  if (act && step) seen.add(stepKey(act, step));
  const lastAct = acts.length - 1;
  const atEnd = pos.act === lastAct && pos.step === (acts[lastAct]?.steps.length ?? 0) - 1;
  return {
    seen: [...seen],
    total,
    answers: { ...(prev?.answers ?? {}), ...answers },
    last: act ? stepParam(acts, pos) : (prev?.last ?? ''),
    done: (prev?.done ?? false) || atEnd,
  };
}

export function recordProgress(id: string, acts: readonly Act[], pos: Position, answers?: Record<string, number>, store: StorageLike | null = storage()): void {
  if (!store) return;
  const all = loadProgress(store);
  all[id] = withStep(all[id], acts, pos, answers);
  try {
    store.setItem(PROGRESS_KEY, JSON.stringify(all));
  } catch {
    // Full or refused: progress is a convenience, the lesson goes on.
  }
}

export function clearProgress(store: StorageLike | null = storage()): void {
  try {
    store?.removeItem(PROGRESS_KEY);
  } catch {
    // nothing to clear
  }
}

/** 0…1: how much of a lesson was seen. */
export function fractionSeen(p: LessonProgress | undefined): number {
  if (!p || p.total === 0) return 0;
  return p.done ? 1 : Math.min(1, p.seen.length / p.total);
}
