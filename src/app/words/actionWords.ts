import type { ActionSpec, FieldSpec } from '../../scenario/actions';
import type { ActionKind } from '../../sim/types';
import type { Lang } from '../i18n/lang';
import { wordsIn } from './tables';

/**
 * The action table's words in the reader's language. The table (scenario/actions.ts) says each
 * action in English; another language's words are a table of their own (actionWords.<lang>.ts),
 * loaded with that language's catalog, so an English page carries none of them.
 */
export interface ActionText {
  label: string;
  hint: string;
  /** Each field's label, by field name. */
  fields?: Readonly<Record<string, string>>;
  /** A choice field's options' labels, by field name and value. */
  options?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}
export type ActionWords = Readonly<Record<ActionKind, ActionText>>;

/** The action's words in `lang`, or null for English (the table's own). */
function wordsOf(lang: Lang, kind: ActionKind): ActionText | null {
  return wordsIn<ActionWords | null>(lang, null, (t) => t.actions)?.[kind] ?? null;
}

export function actionLabel(spec: ActionSpec, lang: Lang): string {
  return wordsOf(lang, spec.do)?.label ?? spec.label;
}

export function actionHint(spec: ActionSpec, lang: Lang): string {
  return wordsOf(lang, spec.do)?.hint ?? spec.hint;
}

export function fieldLabel(spec: ActionSpec, field: FieldSpec, lang: Lang): string {
  return wordsOf(lang, spec.do)?.fields?.[field.name] ?? field.label;
}

export function optionLabel(spec: ActionSpec, field: FieldSpec, option: { value: string; label: string }, lang: Lang): string {
  return wordsOf(lang, spec.do)?.options?.[field.name]?.[option.value] ?? option.label;
}
