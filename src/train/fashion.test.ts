import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSubset } from '../../scripts/fashion-mnist-subset';
import { validateScenario } from '../scenario/validate';
import { rngFor } from '../sim/rng';
import { selectBackend } from './backend';
import { loadFashionSubset } from './fashionData';
import { decodeFashion, encodeFashion, FASHION_CLASSES, FASHION_PIXELS, type FashionSubset } from './fashionFormat';
import { FASHION_SHAPE, initialParams, layerLayout, modelParamCount, paramCount } from './layout';
import { LocalTrainer } from './localTrainer';
import { GradientComputer, SAMPLE_PREDICTIONS } from './model';

let subset: FashionSubset;
beforeAll(async () => {
  subset = await loadFashionSubset();
  await selectBackend('cpu');
});

function classCounts(labels: Uint8Array): number[] {
  const c = new Array<number>(FASHION_CLASSES).fill(0);
  for (const l of labels) c[l]++;
  return c;
}

describe('the committed Fashion-MNIST subset', () => {
  it('holds 500 training and 20 evaluation images per class, every prefix of 10·k balanced', () => {
    expect(subset.train.n).toBe(5000);
    expect(subset.eval.n).toBe(200);
    expect(classCounts(subset.train.labels)).toEqual(new Array(10).fill(500));
    expect(classCounts(subset.eval.labels)).toEqual(new Array(10).fill(20));
    for (const k of [1, 7, 60, 333]) expect(classCounts(subset.train.labels.subarray(0, 10 * k))).toEqual(new Array(10).fill(k));
    // The sample predictions are the first evaluation images: one of each of six classes.
    expect(new Set(subset.eval.labels.subarray(0, SAMPLE_PREDICTIONS)).size).toBe(SAMPLE_PREDICTIONS);
    // Real images: mostly background, some ink, nothing all blank.
    const img = subset.train.images.subarray(0, FASHION_PIXELS);
    expect(img.filter((v) => v === 0).length).toBeGreaterThan(100);
    expect(Math.max(...img)).toBeGreaterThan(200);
  });

  it.skipIf(!existsSync('/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz'))(
    'is exactly what the script derives from Debian’s dataset-fashion-mnist',
    () => {
      const derived = encodeFashion(buildSubset('/usr/share/datasets/fashion-mnist'));
      expect(Buffer.compare(Buffer.from(derived), Buffer.from(encodeFashion(subset)))).toBe(0);
    },
    30_000,
  );

  it('the format round-trips and refuses damaged files by name', () => {
    const bytes = encodeFashion(subset);
    expect(decodeFashion(bytes).train.labels).toEqual(subset.train.labels);
    expect(() => decodeFashion(bytes.subarray(0, 10))).toThrow(/file too short/);
    expect(() => decodeFashion(bytes.subarray(0, bytes.length - 1))).toThrow(/expected \d+ bytes/);
    const bad = bytes.slice();
    bad[0] = 0x50;
    expect(() => decodeFashion(bad)).toThrow(/bad magic/);
    const label = bytes.slice();
    label[16] = 10;
    expect(() => decodeFashion(label)).toThrow(/label 10 out of range/);
  });
});

describe('the Fashion-MNIST model', () => {
  it('784-128-10 has 101 770 parameters in the flat layout', () => {
    expect(paramCount([128], FASHION_SHAPE)).toBe(101_770);
    expect(modelParamCount({ dataset: 'fashion-mnist', hidden: [128] })).toBe(101_770);
    expect(modelParamCount({ dataset: 'circles', hidden: [8, 8] })).toBe(105);
    const L = layerLayout([128], FASHION_SHAPE);
    expect(L.map((l) => [l.inDim, l.outDim, l.kernelOffset, l.biasOffset])).toEqual([
      [784, 128, 0, 100_352],
      [128, 10, 100_480, 101_760],
    ]);
  });

  /** Float64 forward pass + softmax cross-entropy straight from the flat layout. */
  function jsLoss(hidden: number[], p: Float32Array, x: Float32Array, y: number[]): number {
    const layers = layerLayout(hidden, FASHION_SHAPE);
    let total = 0;
    for (let s = 0; s < y.length; s++) {
      let h = Array.from(x.subarray(s * 784, (s + 1) * 784));
      layers.forEach((L, l) => {
        const out: number[] = [];
        for (let o = 0; o < L.outDim; o++) {
          let z = p[L.biasOffset + o];
          for (let i = 0; i < L.inDim; i++) z += h[i] * p[L.kernelOffset + i * L.outDim + o];
          out.push(l + 1 < layers.length ? Math.tanh(z) : z);
        }
        h = out;
      });
      const m = Math.max(...h);
      total += Math.log(h.reduce((a, z) => a + Math.exp(z - m), 0)) + m - h[y[s]];
    }
    return total / y.length;
  }

  it('loss is softmax cross-entropy on pixels/255, and the gradient matches finite differences', async () => {
    const hidden = [6];
    const gc = new GradientComputer(hidden, FASHION_SHAPE);
    gc.setTrainingSet(subset.train.images, subset.train.labels);
    const p = initialParams({ dataset: 'fashion-mnist', hidden }, 4);
    const rng = rngFor(2, 'perturb');
    for (let i = 0; i < p.length; i++) p[i] += rng.range(-0.05, 0.05);
    const batch = Uint32Array.from([0, 3, 11, 42, 77, 123, 400, 999]);
    const x = new Float32Array(batch.length * 784);
    batch.forEach((j, i) => {
      for (let k = 0; k < 784; k++) x[i * 784 + k] = subset.train.images[j * 784 + k] / 255;
    });
    const y = Array.from(batch, (j) => subset.train.labels[j]);
    const { grad, loss } = await gc.gradientAt(p, batch);
    expect(grad.length).toBe(784 * 6 + 6 + 6 * 10 + 10);
    expect(loss).toBeCloseTo(jsLoss(hidden, p, x, y), 4);
    const eps = 1e-3;
    // Pixel weights that see ink in this batch, a hidden bias, output weights and biases.
    const inked = [...Array(784).keys()].filter((k) => x[k] > 0.5).slice(0, 2).map((k) => k * 6 + 1);
    for (const c of [...inked, 784 * 6 + 2, 784 * 6 + 6 + 13, 784 * 6 + 6 + 60 + 4]) {
      const plus = p.slice();
      const minus = p.slice();
      plus[c] += eps;
      minus[c] -= eps;
      const fd = (jsLoss(hidden, plus, x, y) - jsLoss(hidden, minus, x, y)) / (plus[c] - minus[c]);
      expect(Math.abs(fd - grad[c]), `coordinate ${c}`).toBeLessThanOrEqual(1e-2 * Math.abs(grad[c]) + 1e-4);
    }
    gc.dispose();
  });

  it('evaluation reports loss, accuracy, per-class accuracy and six sample predictions with their images', async () => {
    const t = await LocalTrainer.create({ model: { dataset: 'fashion-mnist', hidden: [32], batchSize: 32, learningRate: 0.1, samples: 2000, noise: 0 }, seed: 1, backend: 'cpu' });
    expect(t.samples).toBe(2000);
    const p = t.initialParams();
    const before = await t.evaluate(p);
    expect(before.loss).toBeGreaterThan(2);
    const rng = rngFor(1, 'batches');
    for (let s = 0; s < 150; s++) {
      const batch = Uint32Array.from({ length: 32 }, () => rng.int(0, 1999));
      const { grad } = await t.gradient({ node: 'w0', params: p.slice(), batch });
      for (let i = 0; i < p.length; i++) p[i] -= 0.1 * grad[i];
    }
    const e = await t.evaluate(p);
    expect(e.loss).toBeLessThan(1.2);
    expect(e.accuracy).toBeGreaterThan(0.6);
    expect(e.perClass).toHaveLength(10);
    // Per-class accuracy averages to the overall accuracy: the evaluation set is balanced.
    expect(e.perClass!.reduce((a, b) => a + b, 0) / 10).toBeCloseTo(e.accuracy, 10);
    expect(e.samples).toHaveLength(SAMPLE_PREDICTIONS);
    e.samples!.forEach((s, i) => {
      expect(s.index).toBe(i);
      expect(s.label).toBe(subset.eval.labels[i]);
      expect(s.image).toEqual(subset.eval.images.subarray(i * 784, (i + 1) * 784));
      expect(s.confidence).toBeGreaterThanOrEqual(0.1);
      expect(s.confidence).toBeLessThanOrEqual(1);
    });
    expect(e.samples!.filter((s) => s.predicted === s.label).length).toBeGreaterThanOrEqual(2);
    await expect(t.predictGrid(p, 10)).rejects.toThrow(/no 2-D decision boundary/);
    await t.dispose();
  });

  it('a scenario may ask for at most the 5 000 committed training images', () => {
    const base = { schema: 1, id: 'f', seed: 1, durationMs: 1000, cluster: { workers: 2 }, strategy: { kind: 'allreduce' } };
    expect(validateScenario({ ...base, model: { dataset: 'fashion-mnist', samples: 5000 } }).ok).toBe(true);
    expect(validateScenario({ ...base, model: { dataset: 'fashion-mnist', samples: 5001 } })).toMatchObject({
      ok: false,
      errors: ['model.samples: fashion-mnist has 5000 training images (got 5001)'],
    });
  });
});
