import type { ActionRefusal } from '../engine/api';
import type { Lang } from './i18n/lang';
import { s } from './i18n/strings';
import { actionProblemText } from './scenarioProblemText';

/**
 * Why the engine refused an action, in the reader's language. An `invalid` action (malformed, or
 * not possible in this run: the menus offer none) is worded as a scenario file's problems are,
 * field first (`node: …`).
 */
export function actionRefusalText(lang: Lang, r: { error: string; refusal: ActionRefusal }): string {
  const f = r.refusal;
  switch (f.refusal) {
    case 'ended':
      return s(lang, 'refused_ended');
    case 'no-match':
      return s(lang, f.selector === '@crashed' ? 'refused_noCrashed' : 'refused_noMatch', { selector: f.selector });
    case 'same-node':
      return s(lang, 'refused_sameNode', { from: f.from, to: f.to, node: f.node });
    case 'invalid':
      return f.problems.length > 0 ? actionProblemText(lang, f.problems) : r.error;
    case 'time': {
      const vars = { at: String(f.at), now: String(f.now), end: String(f.end) };
      return s(lang, !Number.isFinite(f.at) ? 'refused_timeNaN' : f.at < f.now ? 'refused_timePast' : 'refused_timeAfterEnd', vars);
    }
    case 'loading':
      return s(lang, 'refused_loading', { action: f.action });
  }
}
