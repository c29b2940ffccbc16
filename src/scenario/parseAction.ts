import type { Action } from '../sim/types';
import { actionSchema } from './actionSchemas';
import { fieldNamesOf, issueProblems } from './issues';
import { makeSuggester } from './suggest';
import { actionNodeFacts } from './nodes';
import { problemLine, type ScenarioProblem } from './problems';

/** How an action from outside a scenario file is checked: the app's actions, a live room's, the engine's live ones, tests. */

const suggest = makeSuggester(fieldNamesOf(actionSchema));

/**
 * An action, or why not: `problems` as facts (paths start at the action, root "action"), each
 * app language words them; `error` is the same in English, one line, for the CLI, logs and tests.
 */
export type ParsedAction = { ok: true; action: Action } | { ok: false; error: string; problems: ScenarioProblem[] };

/** A refusal from its facts, with their English line. */
export function actionProblems(problems: ScenarioProblem[]): { ok: false; error: string; problems: ScenarioProblem[] } {
  return { ok: false, error: problems.map(problemLine).join('; '), problems };
}

/**
 * Validates an action from the UI, a test or a pasted snippet, with the same schema, node checks
 * and messages as a scenario's timeline entries (paths start at the action: `groups: node "w9" …`).
 */
export function parseAction(input: unknown, nodeIds: readonly string[]): ParsedAction {
  const parsed = actionSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) return actionProblems(issueProblems(parsed.error.issues, { root: 'action', suggest }));
  const action = parsed.data as Action;
  const problems = actionNodeFacts(action, nodeIds);
  if (problems.length > 0) return actionProblems(problems.map(([field, fact]) => ({ path: [field], root: 'action', fact })));
  return { ok: true, action };
}
