import { s } from './i18n/strings';
import { addErrorDetails, dismissErrorKey, get } from './store';

/**
 * Problems with the page's address are found at several stages of opening it (parsing, the
 * lesson, its variant, its step, the run's end): all are listed in one "Problem with the page
 * address" box, not one box per stage.
 */
const KEY = 'page-address';

export function reportAddressProblems(lines: readonly string[]): void {
  addErrorDetails(KEY, s(get().lang, 'urlFailed'), lines);
}

/** A new address (a pasted link in the same tab): the old one's problems no longer apply. */
export function clearAddressProblems(): void {
  dismissErrorKey(KEY);
}
