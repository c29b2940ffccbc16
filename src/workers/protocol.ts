import type { BackendTiming } from '../train/backend';
import type { BackendName, Evaluation, TrainerSpec } from '../train/types';

/**
 * The tiny typed RPC between the pool and a training worker. Float32Arrays travel with their
 * buffers in the transfer list (DESIGN rule 7), never as JSON arrays — except small ones (below).
 */

/**
 * A gradient request's or answer's arrays up to this many elements are copied by postMessage
 * rather than transferred: for the 105-parameter lesson model a transfer (detaching the buffer,
 * handing its store to the other thread, sweeping it later) costs more than copying 420 bytes, and
 * the browser's cluster ran faster without (npm run bench, interleaved pages: allreduce 0.48 →
 * 0.53 of bare tfjs, async 0.59 → 0.71, medians of four). Larger ones — the Fashion-MNIST model's
 * 400 KB — are transferred, and the parameters handed back for reuse.
 */
export const COPY_MAX_ELEMENTS = 4096;

/** 'throw': the request fails inside the worker; 'crash': the worker dies with an uncaught error. */
export type FaultMode = 'throw' | 'crash';

export type WorkerRequest =
  | { id: number; kind: 'init'; spec: TrainerSpec; worker: number }
  /** `timed`: the answer carries when the worker took the request up and answered (`at`). */
  | { id: number; kind: 'gradient'; node: string; params: Float32Array; batch: Uint32Array; fault?: FaultMode; timed?: true }
  | { id: number; kind: 'evaluate'; params: Float32Array }
  | { id: number; kind: 'predictGrid'; params: Float32Array; res: number }
  /** Benchmark baseline: run a bare tfjs loop over these batches in the worker; replies steps/s. */
  | { id: number; kind: 'benchBare'; batches: Uint32Array[] };

export interface InitResult {
  backend: BackendName;
  fallbacks: string[];
  paramCount: number;
  samples: number;
  /** 'auto': each backend's measured ms/step on this model (the fastest is `backend`). */
  measured?: BackendTiming[];
}

export interface GradientReply {
  grad: Float32Array;
  loss: number;
  /** The request's parameters, handed back for the pool to copy the next request's into. */
  params?: Float32Array;
  /**
   * A timed request's: when the worker took it up and when it answered, on the clock every thread
   * of the page shares (sharedClock.ts, ms): the pool's request timings.
   */
  at?: [number, number];
}

export type WorkerResult = InitResult | GradientReply | Evaluation | Float32Array | number;

export type WorkerResponse = { id: number; ok: true; result: WorkerResult } | { id: number; ok: false; error: string };
