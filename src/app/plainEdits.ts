import type { Scenario } from '../scenario/schema';

/**
 * The form edits that need no checking of their own (the page makes them; the engine's worker
 * checks the scenario they give, app/checks), and the cluster's bounds the workers field shows.
 */

export const minWorkers = 2;
export const maxWorkers = 16;

export function withDataset(sc: Scenario, dataset: Scenario['model']['dataset']): Scenario {
  return { ...sc, model: { ...sc.model, dataset } };
}
