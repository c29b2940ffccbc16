import type { Action } from '../sim/types';
import { actionSchema } from './actionSchemas';
import { fieldNamesOf, formatIssues, makeSuggester } from './issues';
import { actionNodeFacts } from './nodes';
import { problemMessage } from './problems';

/** How an action from outside a scenario file is checked: the app's actions, a live room's, the engine's live ones, tests. */

const suggest = makeSuggester(fieldNamesOf(actionSchema));

/**
 * Validates an action from the UI, a test or a pasted snippet, with the same schema, node checks
 * and messages as a scenario's timeline entries (paths start at the action: `groups: node "w9" …`).
 */
export function parseAction(input: unknown, nodeIds: readonly string[]): { ok: true; action: Action } | { ok: false; error: string } {
  const parsed = actionSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) return { ok: false, error: formatIssues(parsed.error.issues, { root: 'action', suggest }).join('; ') };
  const action = parsed.data as Action;
  const problems = actionNodeFacts(action, nodeIds);
  if (problems.length > 0) return { ok: false, error: problems.map(([field, f]) => `${field}: ${problemMessage(f)}`).join('; ') };
  return { ok: true, action };
}
