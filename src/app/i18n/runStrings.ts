import type { Lang } from './lang';
import { catalogKeys, translate, type KeyOf, type Vars } from './catalog';

/**
 * Strings of sharing, exporting, forking and the context menu: namespace `run` of the catalogs in
 * ./locales, so that the run-sharing features carry their own words; same `{placeholder}` rule.
 */
export type RunStringKey = KeyOf<'run'>;

export function rs(lang: Lang, key: RunStringKey, vars?: Vars): string {
  return translate(lang, 'run', key, vars);
}

export function runKeysOf(lang: Lang): string[] {
  return catalogKeys(lang, 'run');
}
