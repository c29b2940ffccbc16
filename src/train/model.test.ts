import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelSpec } from '../scenario/schema';
import { rngFor } from '../sim/rng';
import { selectBackend } from './backend';
import { makeDataset, makeEvalSet } from './datasets';
import { GradientComputer, initialParams, layerLayout, paramCount } from './model';

const model: ModelSpec = {
  dataset: 'circles',
  hidden: [8, 8],
  batchSize: 16,
  learningRate: 0.1,
  samples: 600,
  noise: 0.1,
};

/** Independent float64 forward pass + BCE from the flat layout, to pin the layout down. */
function jsLoss(hidden: number[], p: Float32Array, x: Float32Array, y: Float32Array): number {
  const layers = layerLayout(hidden);
  let total = 0;
  for (let s = 0; s < y.length; s++) {
    let h = [x[2 * s], x[2 * s + 1]];
    layers.forEach((L, l) => {
      const out: number[] = [];
      for (let o = 0; o < L.outDim; o++) {
        let z = p[L.biasOffset + o];
        for (let i = 0; i < L.inDim; i++) z += h[i] * p[L.kernelOffset + i * L.outDim + o];
        out.push(l + 1 < layers.length ? Math.tanh(z) : z);
      }
      h = out;
    });
    const z = h[0];
    total += Math.max(z, 0) - z * y[s] + Math.log1p(Math.exp(-Math.abs(z)));
  }
  return total / y.length;
}

function drawBatch(seed: number, step: number, size: number, n: number): Uint32Array {
  const rng = rngFor(seed, `batch-${step}`);
  return Uint32Array.from({ length: size }, () => rng.int(0, n - 1));
}

beforeAll(async () => {
  expect(await selectBackend('cpu')).toBe('cpu');
});

describe('parameter layout', () => {
  it('has 105 parameters for [8, 8] and follows the formula elsewhere', () => {
    expect(paramCount([8, 8])).toBe(105);
    const formula = (h: number[]) =>
      [2, ...h, 1].slice(1).reduce((acc, out, i) => acc + [2, ...h][i] * out + out, 0);
    for (const h of [[], [1], [4], [16, 8, 4], [3, 5, 7, 9, 11, 13]]) expect(paramCount(h)).toBe(formula(h));
    expect(paramCount([])).toBe(3);
  });

  it('initialises Glorot-uniform kernels and zero biases, deterministically', () => {
    const p = initialParams(model, 9);
    expect(p.length).toBe(105);
    expect(initialParams(model, 9)).toEqual(p);
    expect(initialParams(model, 10)).not.toEqual(p);
    for (const L of layerLayout([8, 8])) {
      const limit = Math.sqrt(6 / (L.inDim + L.outDim));
      const k = p.subarray(L.kernelOffset, L.biasOffset);
      expect(Math.max(...k.map(Math.abs))).toBeLessThanOrEqual(limit);
      expect(new Set(k).size).toBe(k.length);
      expect([...p.subarray(L.biasOffset, L.biasOffset + L.outDim)].every((b) => b === 0)).toBe(true);
    }
  });
});

describe('GradientComputer', () => {
  const data = makeDataset(model, 3);

  it('loss matches an independent JS forward pass, and the gradient matches finite differences', async () => {
    const gc = new GradientComputer(model.hidden);
    gc.setTrainingSet(data.x, data.y);
    const p = initialParams(model, 3);
    const rng = rngFor(1, 'perturb');
    for (let i = 0; i < p.length; i++) p[i] += rng.range(-0.5, 0.5); // nonzero biases, so they matter
    const batch = drawBatch(3, 0, 32, data.n);
    const xb = new Float32Array(64);
    const yb = new Float32Array(32);
    batch.forEach((j, i) => {
      xb[2 * i] = data.x[2 * j];
      xb[2 * i + 1] = data.x[2 * j + 1];
      yb[i] = data.y[j];
    });
    const { grad, loss } = await gc.gradientAt(p, batch);
    expect(grad.length).toBe(105);
    expect(loss).toBeCloseTo(jsLoss(model.hidden, p, xb, yb), 5);
    expect((await gc.gradient(p, xb, yb)).grad).toEqual(grad);

    const eps = 1e-3;
    // A kernel and a bias of every layer, with float64 JS losses for the differences.
    const coords = [0, 5, 16, 20, 30, 87, 90, 96, 100, 104];
    for (const c of coords) {
      const plus = p.slice();
      const minus = p.slice();
      plus[c] += eps;
      minus[c] -= eps;
      const h = plus[c] - minus[c]; // the step float32 actually took
      const fd = (jsLoss(model.hidden, plus, xb, yb) - jsLoss(model.hidden, minus, xb, yb)) / h;
      expect(Math.abs(fd - grad[c])).toBeLessThanOrEqual(1e-2 * Math.abs(grad[c]) + 1e-4);
    }
    expect(grad.some((g) => Math.abs(g) > 1e-2)).toBe(true);
    gc.dispose();
  });

  it('learns circles with 300 plain-SGD steps (lr 0.1, batch 16) to accuracy > 0.85', async () => {
    const gc = new GradientComputer(model.hidden);
    gc.setTrainingSet(data.x, data.y);
    const ev = makeEvalSet(model, 3);
    const p = initialParams(model, 3);
    const before = await gc.evaluate(p, ev.x, ev.y);
    for (let s = 0; s < 300; s++) {
      const { grad } = await gc.gradientAt(p, drawBatch(3, s, 16, data.n));
      for (let i = 0; i < p.length; i++) p[i] -= 0.1 * grad[i];
    }
    const after = await gc.evaluate(p, ev.x, ev.y);
    expect(after.accuracy).toBeGreaterThan(0.85);
    expect(after.loss).toBeLessThan(before.loss);
    gc.dispose();
  });

  it('does not leak tensors across 50 gradient calls, evaluations and grids', async () => {
    const gc = new GradientComputer(model.hidden);
    gc.setTrainingSet(data.x, data.y);
    const p = initialParams(model, 3);
    const ev = makeEvalSet(model, 3);
    await gc.gradientAt(p, drawBatch(3, 0, 16, data.n));
    await gc.predictGrid(p, data.bounds, 20);
    await gc.evaluate(p, ev.x, ev.y);
    const base = tf.memory().numTensors;
    for (let s = 0; s < 50; s++) {
      await gc.gradientAt(p, drawBatch(3, s, 16, data.n));
      await gc.evaluate(p, ev.x, ev.y);
      await gc.predictGrid(p, data.bounds, 20);
    }
    expect(tf.memory().numTensors).toBe(base);
    gc.dispose();
    expect(tf.memory().numTensors).toBe(base - 8); // 6 variables + the cached grid and evaluation set
  });

  it('evaluate and predictGrid have the documented shapes and ranges', async () => {
    const gc = new GradientComputer(model.hidden);
    const p = initialParams(model, 3);
    const ev = makeEvalSet(model, 3);
    const e = await gc.evaluate(p, ev.x, ev.y);
    expect(e.loss).toBeGreaterThan(0);
    expect(e.accuracy).toBeGreaterThanOrEqual(0);
    expect(e.accuracy).toBeLessThanOrEqual(1);
    const g = await gc.predictGrid(p, data.bounds, 12);
    expect(g.length).toBe(144);
    expect([...g].every((v) => v > 0 && v < 1)).toBe(true);
    await expect(gc.gradient(p.subarray(1), new Float32Array(2), new Float32Array(1))).rejects.toThrow(/105/);
    gc.dispose();
  });
});
