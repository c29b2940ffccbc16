import type { Lang } from './i18n/lang';
import { s } from './i18n/strings';
import { orList } from './format';
import type { KnobProblem } from './knobs';
import { englishProblemWords } from '../scenario/problems';
import { wordsIn } from './words/tables';

/** A value the reader typed, as the sentence quotes it: numbers as written, text in quotes. */
function given(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** What a union's branch wanted, as a noun phrase: zod's JSON type names. */
function typeWord(lang: Lang, t: string): string {
  switch (t) {
    case 'number':
      return s(lang, 'knob_aNumber');
    case 'int':
      return s(lang, 'knob_anInteger');
    case 'array':
      return s(lang, 'knob_aList');
    default:
      return t;
  }
}

/** Why a knob refused a value, in the reader's language (the form shows it after the knob's name). */
export function knobProblemText(lang: Lang, p: KnobProblem): string {
  switch (p.problem) {
    case 'unknown-knob':
      return s(lang, 'knob_unknown', { kind: p.kind });
    case 'not-number':
      return s(lang, 'invalidNumber');
    case 'not-json':
      return s(lang, 'knob_notJson');
    case 'not-integer':
      return s(lang, 'knob_notInteger', { got: given(p.got) });
    case 'too-small':
      return s(lang, p.inclusive ? 'knob_atLeast' : 'knob_above', { min: String(p.min), got: given(p.got) });
    case 'too-big':
      return s(lang, p.inclusive ? 'knob_atMost' : 'knob_below', { max: String(p.max), got: given(p.got) });
    case 'not-one-of':
      return s(lang, 'knob_oneOf', { values: orList(lang, p.values.map(given)), got: given(p.got) });
    case 'not-any-of': {
      const wanted = [...p.types.map((t) => typeWord(lang, t)), ...p.values.map(given)];
      return s(lang, 'knob_oneOf', { values: orList(lang, wanted), got: given(p.got) });
    }
    case 'other':
      return wordsIn(lang, englishProblemWords, (t) => t.problems).message(p.fact);
  }
}
