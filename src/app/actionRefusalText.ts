import type { ActionRefusal } from '../engine/api';
import type { Lang } from './i18n/lang';
import { s } from './i18n/strings';

/**
 * Why the engine refused an action, in the reader's language. An `invalid` action (malformed, or
 * not possible in this run: the menus offer none) keeps the engine's English line, which names
 * the field, as a scenario file's problems do.
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
      return r.error;
  }
}
