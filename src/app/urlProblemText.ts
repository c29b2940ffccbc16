import type { Lang } from './i18n/lang';
import { s } from './i18n/strings';
import { orList } from './format';
import type { UrlProblem } from '../scenario/urlProblems';

/** Ids listed in a sentence: the language's own separator. */
function ids(lang: Lang, list: readonly string[]): string {
  return list.join(lang === 'zh' ? '、' : ', ');
}

/** Where a hash problem is: the scenario carried after `#scenario=`. */
const HASH = { param: '#scenario' };

/** A page address's problem in the reader's language, naming the parameter and the value refused. */
export function urlProblemText(lang: Lang, p: UrlProblem): string {
  switch (p.problem) {
    case 'not-id':
      return s(lang, 'url_notId', { param: p.param, value: p.value });
    case 'not-flag':
      return s(lang, 'url_notFlag', { param: p.param, value: p.value });
    case 'not-choice':
      return s(lang, 'url_notChoice', { param: p.param, value: p.value, choices: orList(lang, p.choices) });
    case 'not-speed':
      return s(lang, 'url_notSpeed', { param: p.param, value: p.value });
    case 'speed-range':
      return s(lang, 'url_speedRange', { param: p.param, value: p.value, min: String(p.min), max: String(p.max) });
    case 'not-time':
      return s(lang, 'url_notTime', { param: p.param, value: p.value });
    case 'not-step':
      return s(lang, 'url_notStep', { param: p.param, value: p.value, example: p.example });
    case 'no-act':
      return s(lang, 'url_noAct', { param: p.param, act: p.act, acts: ids(lang, p.acts) });
    case 'no-step':
      return s(lang, 'url_noStep', { param: p.param, act: p.act, step: p.step, n: String(p.steps.length), steps: ids(lang, p.steps) });
    case 'unknown-builtin':
      return s(lang, 'url_unknownBuiltin', { param: p.param, value: p.value, known: ids(lang, p.known) });
    case 'unknown-lesson':
      return s(lang, 'url_unknownLesson', { param: p.param, value: p.value, known: ids(lang, p.known) });
    case 'unknown-variant':
      // A scenario without variants: an empty list read as a page that failed to load them.
      if (p.known.length === 0) return s(lang, 'url_noVariants', { param: p.param, value: p.value });
      return s(lang, 'url_unknownVariant', { param: p.param, value: p.value, known: ids(lang, p.known) });
    case 'lesson-only':
      return p.lesson ? s(lang, 'url_lessonOnlyThis', { param: p.param, link: `lesson=${p.lesson}` }) : s(lang, 'url_lessonOnly', { param: p.param, link: 'lesson=<id>' });
    case 'unknown-param':
      return s(lang, 'url_unknownParam', { param: p.param, hint: p.hint });
    case 'scenario-setting':
      return s(lang, p.onPage ? 'url_scenarioSettingOnPage' : 'url_scenarioSetting', { param: p.param, setting: p.setting });
    case 'hash-truncated':
      return s(lang, 'url_hashTruncated', HASH);
    case 'hash-bad-char':
      return s(lang, 'url_hashBadChar', { ...HASH, char: JSON.stringify(p.char), position: String(p.position) });
    case 'hash-not-utf8':
      return s(lang, 'url_hashNotUtf8', HASH);
    case 'hash-damaged':
      return s(lang, 'url_hashDamaged', HASH);
  }
}
