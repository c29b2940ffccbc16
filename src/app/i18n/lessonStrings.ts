import type { Lang } from './lang';
import { addEnglish, catalogKeys, translate, type KeyOf, type Vars } from './catalog';
import enLesson from './locales/en.lesson.json';

// The lessons' English texts come with this module, which the lesson's parts load (catalog.ts `addEnglish`).
addEnglish('lesson', enLesson);

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
