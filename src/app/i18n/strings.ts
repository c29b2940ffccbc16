import type { Lang } from './lang';
import { catalogKeys, translate, type KeyOf, type Vars } from './catalog';

/**
 * Every interface string, in English and in Simplified Chinese written for Chinese readers
 * (terms per CURRICULUM §2: 全归约, 参数服务器, 陈旧度, 分歧, 可用性 …): namespace `ui` of the
 * catalogs in ./locales. Placeholders are `{name}`. Metric, knob and setting names stay in Latin
 * script in both languages.
 */
export type StringKey = KeyOf<'ui'>;

/** Look up an interface string and fill its `{placeholders}`. */
export function s(lang: Lang, key: StringKey, vars?: Vars): string {
  return translate(lang, 'ui', key, vars);
}

/** A metric's name in words ("bytes sent per round", not sentPerRound): every metric has one (a test checks). */
export function metricLabel(lang: Lang, name: string): string {
  return s(lang, `m_${name}` as StringKey);
}

/** Both languages have exactly the same keys (checked by a test). */
export function keysOf(lang: Lang): string[] {
  return catalogKeys(lang, 'ui');
}
