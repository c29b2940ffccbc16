import type { Lang } from './i18n/lang';
import { englishProblemWords, problemLineIn, type ScenarioProblem } from '../scenario/problems';
import { wordsIn } from './words/tables';

/**
 * A scenario file's problems (scenario/problems.ts) in the reader's language: English from the
 * checker itself, another language from its sentence tables (app/words, loaded with its catalog).
 */
export function scenarioProblemText(lang: Lang, p: ScenarioProblem): string {
  return problemLineIn(
    wordsIn(lang, englishProblemWords, (t) => t.problems),
    p,
  );
}

/** A failed check's lines in the reader's language: its problems where it has them, else its lines. */
export function problemLines(lang: Lang, r: { errors: readonly string[]; problems?: readonly ScenarioProblem[] }): string[] {
  return r.problems ? r.problems.map((p) => scenarioProblemText(lang, p)) : [...r.errors];
}

/** An action's problems (parseAction's), one line in the reader's language. */
export function actionProblemText(lang: Lang, problems: readonly ScenarioProblem[]): string {
  return problems.map((p) => scenarioProblemText(lang, p)).join(lang === 'zh' ? '；' : '; ');
}
