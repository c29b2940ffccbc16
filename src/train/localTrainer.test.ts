import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackendDetailed } from './backend';
import { LocalTrainer } from './localTrainer';
import type { TrainerSpec } from './types';

const spec: TrainerSpec = {
  model: { dataset: 'xor', hidden: [8, 8], batchSize: 16, learningRate: 0.1, samples: 300, noise: 0.1 },
  seed: 11,
  backend: 'cpu',
};

describe('backend selection in Node', () => {
  it('falls back to cpu with the reason when a browser backend is asked for', async () => {
    const webgl = await selectBackendDetailed('webgl');
    expect(webgl.backend).toBe('cpu');
    expect(webgl.fallbacks[0]).toMatch(/^webgl: /);
    const webgpu = await selectBackendDetailed('webgpu');
    expect(webgpu.backend).toBe('cpu');
    expect(webgpu.fallbacks[0]).toMatch(/^webgpu: no navigator.gpu/);
    expect((await selectBackendDetailed('auto')).backend).toBe('cpu');
  });

  it('runs wasm from the package’s own files, with the same values as cpu to float32 precision', async () => {
    const cpu = await LocalTrainer.create(spec);
    const p = cpu.initialParams();
    const batch = Uint32Array.from([0, 1, 2, 3, 4, 5, 6, 7]);
    const a = await cpu.gradient({ node: 'w0', params: p.slice(), batch });
    const wasm = await LocalTrainer.create({ ...spec, backend: 'wasm' });
    expect(wasm.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    const b = await wasm.gradient({ node: 'w0', params: p.slice(), batch });
    expect(b.loss).toBeCloseTo(a.loss, 5);
    for (let i = 0; i < a.grad.length; i++) expect(b.grad[i]).toBeCloseTo(a.grad[i], 4);
    await wasm.dispose();
    await cpu.dispose();
    await selectBackendDetailed('cpu');
  });
});

describe('LocalTrainer', () => {
  it('implements Trainer: sizes, seeded init, gradient, evaluate, grid, backend', async () => {
    const t = await LocalTrainer.create(spec);
    expect(t.paramCount).toBe(105);
    expect(t.samples).toBe(300);
    expect(t.initialParams()).toEqual(t.initialParams());
    expect(t.backendFor('w3')).toBe('cpu');
    const p = t.initialParams();
    const r = await t.gradient({ node: 'w0', params: p.slice(), batch: Uint32Array.from([1, 2, 3]) });
    expect(r.grad.length).toBe(105);
    expect(r.loss).toBeGreaterThan(0);
    const e = await t.evaluate(p);
    expect(e.accuracy).toBeGreaterThanOrEqual(0);
    expect((await t.predictGrid(p, 25)).length).toBe(625);
    expect(p.length).toBe(105); // evaluate and predictGrid leave the caller's params alone
    await t.dispose();
  });

  it('computes on views of larger buffers and rejects batch indices out of range', async () => {
    const t = await LocalTrainer.create(spec);
    const big = new Float32Array(210);
    big.set(t.initialParams(), 105);
    const part = big.subarray(105);
    const a = await t.gradient({ node: 'w0', params: part, batch: Uint32Array.from([0]) });
    const b = await t.gradient({ node: 'w0', params: t.initialParams(), batch: Uint32Array.from([0]) });
    expect(Array.from(a.grad)).toEqual(Array.from(b.grad));
    await expect(t.gradient({ node: 'w0', params: t.initialParams(), batch: Uint32Array.from([300]) })).rejects.toThrow(
      /out of range/,
    );
    await t.dispose();
  });
});

describe("'auto' by measurement in Node", () => {
  it('times wasm and cpu on the scenario’s model and keeps the faster, recording both', async () => {
    const t = await LocalTrainer.create({ model: { dataset: 'fashion-mnist', hidden: [32], batchSize: 32, learningRate: 0.03, samples: 500, noise: 0 }, seed: 1, backend: 'auto' });
    const sel = t.backendSelection();
    expect(sel.measured?.map((m) => m.backend)).toEqual(['wasm', 'cpu']);
    const [wasm, cpu] = sel.measured!;
    expect(wasm.msPerStep).toBeGreaterThan(0);
    expect(cpu.msPerStep).toBeGreaterThan(0);
    expect(t.backend).toBe(wasm.msPerStep! <= cpu.msPerStep! ? 'wasm' : 'cpu');
    expect(tf.getBackend()).toBe(t.backend);
    await t.dispose();
    // An explicit choice compares nothing.
    const named = await LocalTrainer.create(spec);
    expect(named.backendSelection()).toEqual({ backend: 'cpu', fallbacks: [] });
    await named.dispose();
  });
});
