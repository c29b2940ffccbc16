import type { Lang } from './i18n/lang';
import type { ScenarioProblem } from '../scenario/problems';
import type { HashProblem, UrlProblem } from '../scenario/urlProblems';

type Wording = typeof import('./problemText');
let loading: Promise<Wording> | null = null;

/** The problems' wording (problemText.ts), loaded on first use; a failed load is tried again next time. */
export function problemText(): Promise<Wording> {
  loading ??= import('./problemText').catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}

/**
 * A failed check's lines in the reader's language; where the wording cannot load, its English
 * lines if it has them, else why the wording did not come.
 */
export async function problemLinesOf(lang: Lang, r: { errors: readonly string[]; problems?: readonly ScenarioProblem[] }): Promise<string[]> {
  try {
    return (await problemText()).problemLines(lang, r);
  } catch (e) {
    return r.errors.length > 0 ? [...r.errors] : [e instanceof Error ? e.message : String(e)];
  }
}

/** A sentence of the wording (`say`), or, where it cannot load, `fallback` (the check's English line). */
export async function problemTextOr(say: (w: Wording) => string, fallback: string): Promise<string> {
  try {
    return say(await problemText());
  } catch {
    return fallback;
  }
}

/** A page address's problem in the reader's language (where the wording cannot load, the problem's facts). */
export function urlProblemLine(lang: Lang, p: UrlProblem | HashProblem): Promise<string> {
  return problemTextOr((w) => w.urlProblemText(lang, p), JSON.stringify(p));
}
