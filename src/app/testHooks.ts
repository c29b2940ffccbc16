import type { Action } from '../sim/types';
import type { FaultMode } from '../workers/protocol';
import { WorkerPool } from '../workers/pool';
import { act } from './act';
import { get, set } from './store';

/**
 * `window.capPlayground`: a small, stable surface for Playwright tests that need what no button
 * offers — making a training worker fail for real, to check that the failure is shown and the
 * rest keeps running. Not used by the app itself.
 */
export interface TestHooks {
  /** The next gradient request for `node` fails in its worker ('throw') or kills it ('crash'). */
  injectFault(node: string, mode?: FaultMode): void;
  /** The same path as every menu and key: parseAction, then sim.apply. */
  act(action: Action): boolean;
  /** Moves the scrub cursor to a simulated time (clamped to the run so far); null follows the live run. */
  scrub(ms: number | null): void;
}

declare global {
  interface Window {
    capPlayground?: TestHooks;
  }
}

export function installTestHooks(): void {
  window.capPlayground = {
    injectFault(node, mode = 'throw') {
      const trainer = get().sim?.trainer;
      if (!(trainer instanceof WorkerPool)) throw new Error('no worker pool is running');
      trainer.injectFault(node, mode);
    },
    act,
    scrub(ms) {
      const sim = get().sim;
      set({ cursor: ms === null || !sim ? null : Math.max(0, Math.min(ms, sim.now())) });
    },
  };
}
