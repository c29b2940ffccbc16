import type { Lang } from './lang';
import { catalogKeys, translate, type KeyOf, type Vars } from './catalog';

/**
 * Strings of the guided lessons, the presenter and the lesson index: namespace `lesson` of the
 * catalogs in ./locales (glossary terms of CURRICULUM §2). Same `{placeholder}` rule as
 * strings.ts; the lessons' own texts live in their scenario files.
 */
export type LessonStringKey = KeyOf<'lesson'>;

/** Look up a lesson string and fill its `{placeholders}`. */
export function ls(lang: Lang, key: LessonStringKey, vars?: Vars): string {
  return translate(lang, 'lesson', key, vars);
}

export function lessonKeysOf(lang: Lang): string[] {
  return catalogKeys(lang, 'lesson');
}
