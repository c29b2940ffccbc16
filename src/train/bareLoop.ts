import * as tf from '@tensorflow/tfjs-core';
import type { ModelSpec } from '../scenario/schema';
import { featureArray, forwardLogits, labelArray, lossOf } from './model';
import { initialParams, ioShape, layerLayout } from './layout';
import type { LabelledSet } from './modelData';

/**
 * The benchmark baseline: a plain tfjs training loop of the same model (variables on the backend,
 * optimizer.minimize, the loss read back each step as a loop reporting progress would), with no
 * simulator, protocol or messaging around it. Returns steps per second.
 */
export async function bareTrainingLoop(model: ModelSpec, data: LabelledSet, draws: readonly Uint32Array[], seed: number): Promise<number> {
  const io = ioShape(model.dataset);
  const p = initialParams(model, seed);
  const weights: tf.Variable[] = [];
  for (const L of layerLayout(model.hidden, io)) {
    weights.push(tf.variable(tf.tensor2d(p.subarray(L.kernelOffset, L.biasOffset), [L.inDim, L.outDim])));
    weights.push(tf.variable(tf.tensor1d(p.subarray(L.biasOffset, L.biasOffset + L.outDim))));
  }
  // The whole set resident on the backend, as a plain tfjs program would hold it.
  const x = tf.tensor2d(featureArray(data.x), [data.n, io.inputs]);
  const y = tf.tensor2d(labelArray(data.y, io.outputs), [data.n, io.outputs]);
  const opt = tf.train.sgd(model.learningRate);
  const t0 = performance.now();
  for (const b of draws) {
    const cost = tf.tidy(() => {
      const idx = tf.tensor1d(Int32Array.from(b), 'int32');
      const xb = tf.gather(x, idx) as tf.Tensor2D;
      const yb = tf.gather(y, idx) as tf.Tensor2D;
      const c = opt.minimize(() => lossOf(forwardLogits(xb, weights), yb), true, weights);
      if (!c) throw new Error('minimize returned no cost');
      return c;
    });
    await cost.data();
    cost.dispose();
  }
  const dt = performance.now() - t0;
  opt.dispose();
  tf.dispose([x, y, ...weights]);
  return (draws.length / dt) * 1000;
}
