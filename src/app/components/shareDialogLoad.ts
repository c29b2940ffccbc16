import { s } from '../i18n/strings';
import { onDemand } from '../onDemand';
import { get, reportError, set } from '../store';

/**
 * The share dialog (ShareDialog.tsx, with the run-link code) loads when it first opens (issue 9),
 * preloaded when the pointer or the focus reaches its button (TopBar.tsx). A failed load closes
 * it and says so in the error panel; opening it again tries again.
 */
export const shareDialog = onDemand<object, typeof import('./ShareDialog')>(
  () => import('./ShareDialog'),
  (m) => m.ShareDialog,
  (e) => {
    set({ shareOpen: false });
    reportError(`${s(get().lang, 'share')}: ${e instanceof Error ? e.message : String(e)}`);
  },
);
