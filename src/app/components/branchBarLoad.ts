import { rs } from '../i18n/runStrings';
import { onDemand } from '../onDemand';
import { get, reportError } from '../store';

/**
 * The branch bar (BranchBar.tsx) and the forking code behind it (branches.ts) load with the first
 * fork (issue 9): a run that never forks never needs them. A failed load says so in the error
 * panel; the next render tries again.
 */
export const branchBar = onDemand<object, typeof import('./BranchBar')>(
  () => import('./BranchBar'),
  (m) => m.BranchBar,
  (e) => reportError(`${rs(get().lang, 'branches')}: ${e instanceof Error ? e.message : String(e)}`),
);

/** The forking code (branches.ts), loaded on first use. */
export function branching(): Promise<typeof import('../branches')> {
  return import('../branches');
}
