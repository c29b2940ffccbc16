import type { CheckWhat } from '../../check/models';
import type { Lang } from '../i18n/lang';
import { checksEn } from './checkWords.en';
import { wordsIn } from './tables';

/** What the checkers hold the running strategy to, in one sentence (the linearizability panel). */
export function checkWhatText(what: CheckWhat, lang: Lang): string {
  return wordsIn(lang, checksEn, (t) => t.checks)[what];
}
