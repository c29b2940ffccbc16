import type { ModelSpec } from '../scenario/schema';
import { makeDataset, makeEvalSet, type Bounds } from './datasets';
import { loadFashionSubset } from './fashionData';
import { ioShape, type IoShape } from './layout';
import type { Features, Labels } from './model';

/**
 * The training and evaluation sets of a scenario's model, whatever the dataset: the seeded 2-D
 * sets are generated at once; Fashion-MNIST comes from the committed subset, loaded on first use.
 */

export interface LabelledSet {
  /** n rows of `io.inputs` features (Uint8Array: pixels, scaled by 1/255 when used). */
  x: Features;
  y: Labels;
  n: number;
}

export interface ModelData {
  io: IoShape;
  train: LabelledSet;
  evalSet: LabelledSet;
  /** The 2-D datasets' square (the region predictGrid renders); null for images. */
  bounds: Bounds | null;
}

type DataSpec = Pick<ModelSpec, 'dataset' | 'samples' | 'noise'>;

export async function loadModelData(model: DataSpec, seed: number): Promise<ModelData> {
  if (model.dataset === 'fashion-mnist') {
    const subset = await loadFashionSubset();
    const io = ioShape(model.dataset);
    const n = model.samples;
    if (n > subset.train.n) throw new Error(`model.samples: ${n} is more than the ${subset.train.n} Fashion-MNIST training images`);
    // The subset is ordered round-robin over the classes: any prefix is (nearly) balanced.
    const train = { x: subset.train.images.subarray(0, n * io.inputs), y: subset.train.labels.subarray(0, n), n };
    return { io, train, evalSet: { x: subset.eval.images, y: subset.eval.labels, n: subset.eval.n }, bounds: null };
  }
  const train = makeDataset(model, seed);
  const evalSet = makeEvalSet(model, seed);
  return { io: ioShape(model.dataset), train, evalSet, bounds: train.bounds };
}
