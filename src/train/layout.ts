import { rngFor } from '../sim/rng';

/**
 * The flat parameter layout, in pure JS so the main thread (pool, simulator) never loads tfjs:
 * for each dense layer, its kernel row-major [in×out], then its bias [out].
 */

export const INPUTS = 2;
export const OUTPUTS = 1;

export interface LayerLayout {
  inDim: number;
  outDim: number;
  /** Offset of the kernel in the flat array; the bias follows at kernelOffset + inDim*outDim. */
  kernelOffset: number;
  biasOffset: number;
}

export function layerLayout(hidden: readonly number[]): LayerLayout[] {
  const dims = [INPUTS, ...hidden, OUTPUTS];
  const layers: LayerLayout[] = [];
  let offset = 0;
  for (let l = 0; l + 1 < dims.length; l++) {
    const inDim = dims[l];
    const outDim = dims[l + 1];
    layers.push({ inDim, outDim, kernelOffset: offset, biasOffset: offset + inDim * outDim });
    offset += inDim * outDim + outDim;
  }
  return layers;
}

export function paramCount(hidden: readonly number[]): number {
  const last = layerLayout(hidden).at(-1);
  return last ? last.biasOffset + last.outDim : 0;
}

/** Seeded Glorot-uniform kernels, zero biases: identical on every thread and backend. */
export function initialParams(spec: { hidden: readonly number[] }, seed: number): Float32Array {
  const hidden = spec.hidden;
  const rng = rngFor(seed, 'init');
  const p = new Float32Array(paramCount(hidden));
  for (const L of layerLayout(hidden)) {
    const limit = Math.sqrt(6 / (L.inDim + L.outDim));
    for (let i = 0; i < L.inDim * L.outDim; i++) p[L.kernelOffset + i] = rng.range(-limit, limit);
  }
  return p;
}
