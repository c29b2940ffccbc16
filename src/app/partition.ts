import type { Action } from '../sim/types';
import type { Side } from './store';

/**
 * The partition tool's draft → a `partition` action. Nodes left unassigned join group A, as the
 * action itself specifies for unlisted nodes; both groups must hold at least one node.
 */
export function partitionFromDraft(draft: Record<string, Side>, nodeIds: readonly string[]): Action | null {
  const a = nodeIds.filter((n) => draft[n] !== 'B');
  const b = nodeIds.filter((n) => draft[n] === 'B');
  if (a.length === 0 || b.length === 0) return null;
  return { do: 'partition', groups: [a, b] };
}
