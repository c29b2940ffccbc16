import { rngFor } from '../sim/rng';
import { FASHION_CLASSES, FASHION_PIXELS } from './fashionFormat';

/**
 * The flat parameter layout, in pure JS so the main thread (pool, simulator) never loads tfjs:
 * for each dense layer, its kernel row-major [in×out], then its bias [out].
 */

/** The 2-D datasets: two coordinates in, one logit (class 1) out. */
export const INPUTS = 2;
export const OUTPUTS = 1;

/** Inputs and outputs of the model a dataset needs; hidden layers come from the scenario. */
export interface IoShape {
  inputs: number;
  /** 1: one logit, binary cross-entropy; more: one logit per class, softmax cross-entropy. */
  outputs: number;
}

export const TOY_SHAPE: IoShape = { inputs: INPUTS, outputs: OUTPUTS };
export const FASHION_SHAPE: IoShape = { inputs: FASHION_PIXELS, outputs: FASHION_CLASSES };

export function ioShape(dataset: string): IoShape {
  return dataset === 'fashion-mnist' ? FASHION_SHAPE : TOY_SHAPE;
}

export interface LayerLayout {
  inDim: number;
  outDim: number;
  /** Offset of the kernel in the flat array; the bias follows at kernelOffset + inDim*outDim. */
  kernelOffset: number;
  biasOffset: number;
}

export function layerLayout(hidden: readonly number[], io: IoShape = TOY_SHAPE): LayerLayout[] {
  const dims = [io.inputs, ...hidden, io.outputs];
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

export function paramCount(hidden: readonly number[], io: IoShape = TOY_SHAPE): number {
  const last = layerLayout(hidden, io).at(-1);
  return last ? last.biasOffset + last.outDim : 0;
}

/** Parameters of the model a scenario's `model` section describes. */
export function modelParamCount(model: { dataset?: string; hidden: readonly number[] }): number {
  return paramCount(model.hidden, ioShape(model.dataset ?? ''));
}

/** Seeded Glorot-uniform kernels, zero biases: identical on every thread and backend. */
export function initialParams(spec: { hidden: readonly number[]; dataset?: string }, seed: number): Float32Array {
  const io = ioShape(spec.dataset ?? '');
  const rng = rngFor(seed, 'init');
  const p = new Float32Array(paramCount(spec.hidden, io));
  for (const L of layerLayout(spec.hidden, io)) {
    const limit = Math.sqrt(6 / (L.inDim + L.outDim));
    for (let i = 0; i < L.inDim * L.outDim; i++) p[L.kernelOffset + i] = rng.range(-limit, limit);
  }
  return p;
}
