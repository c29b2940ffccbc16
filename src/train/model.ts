import * as tf from '@tensorflow/tfjs';
import type { Bounds } from './datasets';
import { layerLayout, type LayerLayout } from './layout';

export { initialParams, paramCount, layerLayout } from './layout';

/**
 * The MLP 2 → hidden… → 1 (tanh hidden, sigmoid output, binary cross-entropy) on tfjs.
 * No optimizer lives here: protocols apply updates themselves; this computes values only.
 */

export interface GradientOutput {
  grad: Float32Array;
  loss: number;
}

/** Forward pass to logits. Shared with the bare-tfjs benchmark so both run the same graph. */
export function forwardLogits(x: tf.Tensor2D, weights: readonly tf.Tensor[]): tf.Tensor2D {
  let h: tf.Tensor2D = x;
  const layers = weights.length / 2;
  for (let l = 0; l < layers; l++) {
    const z = tf.add(tf.matMul(h, weights[2 * l] as tf.Tensor2D), weights[2 * l + 1]) as tf.Tensor2D;
    h = l + 1 < layers ? tf.tanh(z) : z;
  }
  return h;
}

/** Mean BCE on logits, in the stable form max(z,0) − z·y + log(1 + e^−|z|). */
export function bceWithLogits(logits: tf.Tensor2D, labels: tf.Tensor2D): tf.Scalar {
  const stable = tf.add(tf.sub(tf.relu(logits), tf.mul(logits, labels)), tf.log1p(tf.exp(tf.neg(tf.abs(logits)))));
  return tf.mean(stable);
}

/** The same loss in float64 JS, for evaluation from read-back logits. */
function bceJs(z: number, y: number): number {
  return Math.max(z, 0) - z * y + Math.log1p(Math.exp(-Math.abs(z)));
}

export class GradientComputer {
  readonly layers: LayerLayout[];
  readonly paramCount: number;
  /** kernel, bias, kernel, bias …: unnamed, so several models may live in one thread (STACK.md). */
  private readonly vars: tf.Variable[];
  private trainX: Float32Array | null = null;
  private trainY: Float32Array | null = null;
  private gridKey = '';
  private grid: tf.Tensor2D | null = null;

  constructor(hidden: readonly number[]) {
    this.layers = layerLayout(hidden);
    const last = this.layers[this.layers.length - 1];
    this.paramCount = last.biasOffset + last.outDim;
    this.vars = [];
    for (const L of this.layers) {
      this.vars.push(tf.variable(tf.zeros([L.inDim, L.outDim]), true));
      this.vars.push(tf.variable(tf.zeros([L.outDim]), true));
    }
  }

  /**
   * The training set gradientAt draws from. Kept in JS: copying a batch's rows on the JS side
   * measured as fast as or faster than tf.gather from a resident tensor (3 fewer ops per step).
   */
  setTrainingSet(x: Float32Array, y: Float32Array): void {
    this.trainX = x;
    this.trainY = y;
  }

  private assign(params: Float32Array): void {
    if (params.length !== this.paramCount) {
      throw new Error(`expected ${this.paramCount} parameters, got ${params.length}`);
    }
    tf.tidy(() => {
      this.layers.forEach((L, l) => {
        const k = params.subarray(L.kernelOffset, L.biasOffset);
        const b = params.subarray(L.biasOffset, L.biasOffset + L.outDim);
        this.vars[2 * l].assign(tf.tensor2d(k, [L.inDim, L.outDim]));
        this.vars[2 * l + 1].assign(tf.tensor1d(b));
      });
    });
  }

  /** Flat gradient and loss of one mini-batch, given as arrays (x: b×2, y: b). */
  async gradient(params: Float32Array, xBatch: Float32Array, yBatch: Float32Array): Promise<GradientOutput> {
    const b = yBatch.length;
    if (b === 0) throw new Error('empty batch');
    return this.compute(params, () => [tf.tensor2d(xBatch, [b, 2]), tf.tensor2d(yBatch, [b, 1])]);
  }

  /** Flat gradient and loss of the training-set rows named by `batch`. */
  async gradientAt(params: Float32Array, batch: Uint32Array): Promise<GradientOutput> {
    const X = this.trainX;
    const Y = this.trainY;
    if (!X || !Y) throw new Error('setTrainingSet was not called');
    const b = batch.length;
    const n = Y.length;
    // Fresh arrays each call: the cpu backend keeps a reference to them rather than a copy.
    const xb = new Float32Array(2 * b);
    const yb = new Float32Array(b);
    for (let i = 0; i < b; i++) {
      const j = batch[i];
      if (j >= n) throw new Error(`batch index ${j} out of range (samples: ${n})`);
      xb[2 * i] = X[2 * j];
      xb[2 * i + 1] = X[2 * j + 1];
      yb[i] = Y[j];
    }
    return this.gradient(params, xb, yb);
  }

  private async compute(
    params: Float32Array,
    batch: () => [tf.Tensor2D, tf.Tensor2D],
  ): Promise<GradientOutput> {
    this.assign(params);
    // One tensor holds [grad…, loss]: a single read-back per step (costly on webgl/webgpu).
    const flat = tf.tidy(() => {
      const [xb, yb] = batch();
      const { value, grads } = tf.variableGrads(() => bceWithLogits(forwardLogits(xb, this.vars), yb), this.vars);
      return tf.concat([...this.vars.map((v) => tf.reshape(grads[v.name], [-1])), tf.reshape(value, [1])]);
    });
    try {
      const data = (await flat.data()) as Float32Array;
      const n = this.paramCount;
      return { grad: data.slice(0, n), loss: data[n] };
    } finally {
      flat.dispose();
    }
  }

  private async logits(params: Float32Array, x: tf.Tensor2D): Promise<Float32Array> {
    this.assign(params);
    const z = tf.tidy(() => forwardLogits(x, this.vars));
    try {
      // Copy: on cpu, data() hands back the backend's own storage.
      return ((await z.data()) as Float32Array).slice();
    } finally {
      z.dispose();
    }
  }

  /** Loss and accuracy (threshold 0.5) on a labelled set. */
  async evaluate(params: Float32Array, x: Float32Array, y: Float32Array): Promise<{ loss: number; accuracy: number }> {
    const tx = tf.tensor2d(x, [y.length, 2]);
    let z: Float32Array;
    try {
      z = await this.logits(params, tx);
    } finally {
      tx.dispose();
    }
    let loss = 0;
    let correct = 0;
    for (let i = 0; i < y.length; i++) {
      loss += bceJs(z[i], y[i]);
      if ((z[i] > 0 ? 1 : 0) === y[i]) correct++;
    }
    return { loss: loss / y.length, accuracy: correct / y.length };
  }

  /** Class-1 probability at res×res cell centres over bounds, row-major, first row at yMax. */
  async predictGrid(params: Float32Array, bounds: Bounds, res: number): Promise<Float32Array> {
    const key = `${bounds.xMin},${bounds.xMax},${bounds.yMin},${bounds.yMax},${res}`;
    if (key !== this.gridKey || !this.grid) {
      this.grid?.dispose();
      this.grid = tf.tensor2d(gridPoints(bounds, res), [res * res, 2]);
      this.gridKey = key;
    }
    const z = await this.logits(params, this.grid);
    for (let i = 0; i < z.length; i++) z[i] = 1 / (1 + Math.exp(-z[i]));
    return z;
  }

  dispose(): void {
    for (const v of this.vars) v.dispose();
    this.grid?.dispose();
    this.grid = null;
    this.trainX = this.trainY = null;
  }
}

export function gridPoints(bounds: Bounds, res: number): Float32Array {
  const pts = new Float32Array(res * res * 2);
  const dx = (bounds.xMax - bounds.xMin) / res;
  const dy = (bounds.yMax - bounds.yMin) / res;
  for (let r = 0; r < res; r++) {
    for (let c = 0; c < res; c++) {
      const i = r * res + c;
      pts[2 * i] = bounds.xMin + (c + 0.5) * dx;
      pts[2 * i + 1] = bounds.yMax - (r + 0.5) * dy;
    }
  }
  return pts;
}
