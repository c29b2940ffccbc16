import * as tf from '@tensorflow/tfjs-core';
// variableGrads needs every op's gradient registered (tfjs-core's entry leaves them out).
import '#tfjs-gradients';
import type { Bounds } from './datasets';
import { layerLayout, TOY_SHAPE, type IoShape, type LayerLayout } from './layout';
import type { Evaluation, SamplePrediction } from './types';

export { initialParams, paramCount, layerLayout } from './layout';

/**
 * The MLP inputs → hidden… → outputs on tfjs (tanh hidden layers). One output: a logit with
 * binary cross-entropy (the 2-D datasets). Several: one logit per class with softmax
 * cross-entropy (Fashion-MNIST). No optimizer lives here: protocols apply updates themselves;
 * this computes values only.
 */

export interface GradientOutput {
  grad: Float32Array;
  loss: number;
}

/** Feature rows: Float32 values as they are, or Uint8 pixels (0–255) scaled by 1/255 on the way in. */
export type Features = Float32Array | Uint8Array;
/** One label per row: 0/1 for one output, the class index for several. */
export type Labels = Float32Array | Uint8Array;

/** Evaluation images returned with predictions; the set is round-robin by class, so these differ in class. */
export const SAMPLE_PREDICTIONS = 6;

const PIXEL_SCALE = 1 / 255;

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

/**
 * The training loss for the model's output width: BCE for one logit; for several, mean softmax
 * cross-entropy against one-hot labels (tfjs's own, whose gradient is the fused softmax − y).
 */
export function lossOf(logits: tf.Tensor2D, labels: tf.Tensor2D): tf.Scalar {
  if (logits.shape[1] === 1) return bceWithLogits(logits, labels);
  return tf.losses.softmaxCrossEntropy(labels, logits) as tf.Scalar;
}

/** Feature rows as the model's input: a Float32Array as is, pixels scaled to [0, 1]. */
export function featureArray(x: Features): Float32Array {
  if (x instanceof Float32Array) return x;
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i] * PIXEL_SCALE;
  return out;
}

/** Labels as the loss wants them: [b, 1] of 0/1 for one output, one-hot [b, k] for k outputs. */
export function labelArray(y: Labels, outputs: number): Float32Array {
  if (outputs === 1) return y instanceof Float32Array ? y : Float32Array.from(y);
  const out = new Float32Array(y.length * outputs);
  for (let i = 0; i < y.length; i++) {
    const c = y[i];
    if (!(c >= 0 && c < outputs && Number.isInteger(c))) throw new Error(`label ${c} is not a class index below ${outputs}`);
    out[i * outputs + c] = 1;
  }
  return out;
}

/** The same losses in float64 JS, for evaluation from read-back logits. */
function bceJs(z: number, y: number): number {
  return Math.max(z, 0) - z * y + Math.log1p(Math.exp(-Math.abs(z)));
}

/** −log softmax(z)[y], the row's cross-entropy, stably; also the argmax and its probability. */
function softmaxRow(z: Float32Array, off: number, k: number, y: number): { loss: number; argmax: number; p: number } {
  let argmax = 0;
  for (let c = 1; c < k; c++) if (z[off + c] > z[off + argmax]) argmax = c;
  const max = z[off + argmax];
  let sum = 0;
  for (let c = 0; c < k; c++) sum += Math.exp(z[off + c] - max);
  return { loss: Math.log(sum) - (z[off + y] - max), argmax, p: 1 / sum };
}

export class GradientComputer {
  readonly layers: LayerLayout[];
  readonly paramCount: number;
  readonly io: IoShape;
  /** kernel, bias, kernel, bias …: unnamed, so several models may live in one thread (STACK.md). */
  private readonly vars: tf.Variable[];
  private trainX: Features | null = null;
  private trainY: Labels | null = null;
  private gridKey = '';
  private grid: tf.Tensor2D | null = null;
  /** The evaluation set's features as a tensor, kept while the same array comes back. */
  private evalFor: Features | null = null;
  private evalX: tf.Tensor2D | null = null;

  constructor(hidden: readonly number[], io: IoShape = TOY_SHAPE) {
    this.io = io;
    this.layers = layerLayout(hidden, io);
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
  setTrainingSet(x: Features, y: Labels): void {
    if (x.length !== y.length * this.io.inputs) {
      throw new Error(`training set: ${x.length} feature values for ${y.length} labels (${this.io.inputs} per row expected)`);
    }
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

  /** Flat gradient and loss of one mini-batch, given as arrays (x: b×inputs, y: b labels). */
  async gradient(params: Float32Array, xBatch: Features, yBatch: Labels): Promise<GradientOutput> {
    const b = yBatch.length;
    if (b === 0) throw new Error('empty batch');
    const { inputs, outputs } = this.io;
    const x = featureArray(xBatch);
    const y = labelArray(yBatch, outputs);
    return this.compute(params, () => [tf.tensor2d(x, [b, inputs]), tf.tensor2d(y, [b, outputs])]);
  }

  /** Flat gradient and loss of the training-set rows named by `batch`. */
  async gradientAt(params: Float32Array, batch: Uint32Array): Promise<GradientOutput> {
    const X = this.trainX;
    const Y = this.trainY;
    if (!X || !Y) throw new Error('setTrainingSet was not called');
    const b = batch.length;
    const n = Y.length;
    const d = this.io.inputs;
    // Fresh arrays each call: the cpu backend keeps a reference to them rather than a copy.
    const xb = new Float32Array(d * b);
    const yb = new Float32Array(b);
    const scale = X instanceof Uint8Array ? PIXEL_SCALE : 1;
    for (let i = 0; i < b; i++) {
      const j = batch[i];
      if (j >= n) throw new Error(`batch index ${j} out of range (samples: ${n})`);
      for (let k = 0; k < d; k++) xb[i * d + k] = X[j * d + k] * scale;
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
      const { value, grads } = tf.variableGrads(() => lossOf(forwardLogits(xb, this.vars), yb), this.vars);
      return tf.concat([...this.vars.map((v) => tf.reshape(grads[v.name], [-1])), tf.reshape(value, [1])]);
    });
    try {
      const data = (await flat.data()) as Float32Array;
      const n = this.paramCount;
      // A view, not a copy: the read-back array is this step's alone (a copy on wasm, webgl and
      // webgpu; on cpu the disposed tensor's storage, which the backend never reuses). The worker
      // transfers its whole buffer, the trailing loss included.
      return { grad: data.subarray(0, n), loss: data[n] };
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

  private evalTensor(x: Features, rows: number): tf.Tensor2D {
    if (x !== this.evalFor || !this.evalX) {
      if (x.length !== rows * this.io.inputs) throw new Error(`evaluation set: ${x.length} feature values for ${rows} labels`);
      this.evalX?.dispose();
      this.evalX = tf.tensor2d(featureArray(x), [rows, this.io.inputs]);
      this.evalFor = x;
    }
    return this.evalX;
  }

  /**
   * Loss and accuracy on a labelled set (one output: threshold 0.5; several: argmax). With
   * several outputs also per-class accuracy and the first SAMPLE_PREDICTIONS rows' predictions.
   */
  async evaluate(params: Float32Array, x: Features, y: Labels): Promise<Evaluation> {
    const m = y.length;
    const z = await this.logits(params, this.evalTensor(x, m));
    const k = this.io.outputs;
    let loss = 0;
    let correct = 0;
    if (k === 1) {
      for (let i = 0; i < m; i++) {
        loss += bceJs(z[i], y[i]);
        if ((z[i] > 0 ? 1 : 0) === y[i]) correct++;
      }
      return { loss: loss / m, accuracy: correct / m };
    }
    const right = new Array<number>(k).fill(0);
    const seen = new Array<number>(k).fill(0);
    const samples: SamplePrediction[] = [];
    const d = this.io.inputs;
    for (let i = 0; i < m; i++) {
      const label = y[i];
      const r = softmaxRow(z, i * k, k, label);
      loss += r.loss;
      seen[label]++;
      if (r.argmax === label) {
        correct++;
        right[label]++;
      }
      if (i < SAMPLE_PREDICTIONS) {
        const row = x.subarray(i * d, (i + 1) * d);
        const image = row instanceof Uint8Array ? row.slice() : Uint8Array.from(row, (v) => Math.round(v * 255));
        samples.push({ index: i, label, predicted: r.argmax, confidence: r.p, image });
      }
    }
    return {
      loss: loss / m,
      accuracy: correct / m,
      perClass: right.map((c, j) => (seen[j] ? c / seen[j] : 0)),
      samples,
    };
  }

  /** Class-1 probability at res×res cell centres over bounds, row-major, first row at yMax. */
  async predictGrid(params: Float32Array, bounds: Bounds, res: number): Promise<Float32Array> {
    if (this.io.inputs !== 2 || this.io.outputs !== 1) {
      throw new Error(`predictGrid: this model has ${this.io.inputs} inputs and ${this.io.outputs} outputs; only the 2-D datasets have a decision boundary`);
    }
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
    this.evalX?.dispose();
    this.evalX = null;
    this.evalFor = null;
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
