import { loadLang } from './i18n/catalog';
import type { Lang } from './i18n/lang';
import { s } from './i18n/strings';
import { reportError } from './store';

/** Each language's name in itself: what a reader who asked for it recognises. */
const nativeName: Record<Lang, string> = { en: 'English', zh: '中文' };

/**
 * `loadLang` for the page: when `want`'s texts cannot be fetched (offline, a failed deploy), the
 * page says so where its errors show, in English (what it falls back to), not only on the console.
 */
export function loadLangOrSay(want: Lang): Promise<Lang> {
  return loadLang(want, (cause) => reportError(s('en', 'langFailed', { language: nativeName[want], cause }), undefined, `lang:${want}`));
}
