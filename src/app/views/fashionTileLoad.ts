import { toyDatasetKinds } from '../../scenario/datasetKinds';
import type { Scenario } from '../../scenario/schema';
import { onDemand } from '../onDemand';
import type { FashionTileProps } from './FashionTile';

/**
 * The image datasets' replica tile (FashionTile.tsx) loads on demand, like the servers panel: a
 * run on a 2-D dataset never fetches it. load.ts starts it with such a scenario's code; a failed
 * load shows in the replicas view's ViewBoundary.
 */
export const fashionTile = onDemand<FashionTileProps, typeof import('./FashionTile')>(
  () => import('./FashionTile'),
  (m) => m.FashionTile,
);

/** Whether the model's data has no 2-D decision boundary to draw (not a toy dataset): its tiles show classes and images instead. */
export function imageDataset(sc: Pick<Scenario, 'model'>): boolean {
  return !(toyDatasetKinds as readonly string[]).includes(sc.model.dataset);
}
