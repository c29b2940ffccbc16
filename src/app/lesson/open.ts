import { reportAddressProblems } from '../addressProblems';
import { fetchBuiltin } from '../../scenario/loader';
import type { Scenario } from '../../scenario/schema';
import { actionHooks } from '../act';
import { ls } from '../i18n/lessonStrings';
import { s } from '../i18n/strings';
import { keyHooks } from '../keys';
import { lessonHooks, unknownBuiltin } from '../load';
import { get, reportError } from '../store';
import { goTo, resetTracking, startController } from './controller';
import { interceptAction } from './waits';
import { lessonKey } from './keys';
import { openLessonRuns, type OpenLessonOptions } from './runtime';
import { isLesson, parseStepParam } from './script';
import { urlProblemText } from '../urlProblemText';
import { getLesson } from './store';
import { catalog } from './curriculum';
import { problemLines } from '../scenarioProblemText';

/**
 * Opening a lesson — from `?lesson=<id>` (a built-in), or a scenario file or `#scenario=` link
 * that carries a script — and wiring guided mode into the app: its keys, its take on the
 * learner's actions, and ◀◀ restarting the lesson.
 */

export interface LessonOpen extends OpenLessonOptions {
  /** `&step=<act>.<n>`: where to start. */
  step?: string;
}

let wired = false;
function wire(): void {
  if (wired) return;
  wired = true;
  startController();
  actionHooks.intercept = interceptAction;
  keyHooks.first = lessonKey;
  lessonHooks.restart = async () => {
    const st = getLesson();
    if (!st.lesson) return false;
    await openLesson(st.lesson, { mode: st.mode, ...(st.stage === 'single' ? { variant: st.focus } : {}) });
    return true;
  };
}

/** Opens a lesson scenario; with `step`, goes there (running forward to it). */
export async function openLesson(sc: Scenario, opts: LessonOpen = {}): Promise<boolean> {
  wire();
  const lang = get().lang;
  if (!isLesson(sc)) {
    reportError(ls(lang, 'lessonFailed', { id: sc.id }), [ls(lang, 'notALesson')]);
    return false;
  }
  resetTracking();
  const ok = await openLessonRuns(sc, opts);
  if (!ok) return false;
  if (opts.step) {
    const p = parseStepParam(opts.step, getLesson().acts);
    if ('problem' in p) reportAddressProblems([urlProblemText(lang, p)]);
    else await goTo(p, { skipWaits: true });
  }
  return true;
}

/** `?lesson=<id>`: the built-in lesson (or `scenario`, when a link carries the lesson itself). */
export async function openLessonById(id: string, opts: LessonOpen = {}, scenario?: Scenario): Promise<boolean> {
  wire();
  if (scenario && scenario.id === id) return openLesson(scenario, opts);
  const lang = get().lang;
  if (unknownBuiltin(id)) {
    reportAddressProblems([urlProblemText(lang, { problem: 'unknown-lesson', param: 'lesson', value: id, known: catalog.map((l) => l.id) })]);
    return false;
  }
  const r = await fetchBuiltin(id, './scenarios/');
  if (!r.ok) {
    reportError(s(lang, 'builtinFailed', { id }), problemLines(lang, r));
    return false;
  }
  return openLesson(r.scenario, opts);
}
