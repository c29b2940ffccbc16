import { useEffect } from 'react';
import { ls } from '../../i18n/lessonStrings';
import { useApp } from '../../store';
import { focusCss, focusList } from '../focus';
import { useLesson } from '../store';

/**
 * The current step's laser-pointer highlight: a stylesheet naming the focused views (focus.ts).
 * A constructed stylesheet, adopted by the document: the CSP allows no inline <style>, and the
 * CSSOM is not inline markup. The selectors are written on the document (data-lesson-focus) too,
 * as a test hook.
 */
let sheet: CSSStyleSheet | null = null;

function apply(css: string): void {
  if (typeof CSSStyleSheet === 'undefined' || !('adoptedStyleSheets' in document)) return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  sheet.replaceSync(css);
}

export function FocusStyle() {
  const lang = useApp((st) => st.lang);
  const acts = useLesson((st) => st.acts);
  const pos = useLesson((st) => st.pos);
  const step = acts[pos.act]?.steps[pos.step];
  const css = focusCss(focusList(step?.focus), ls(lang, 'lookHere'));
  useEffect(() => {
    apply(css);
    return () => apply('');
  }, [css]);
  return null;
}
