import * as tf from '@tensorflow/tfjs-core';
// The fallback every thread can run, so always loaded; the others are imported when tried.
import '@tensorflow/tfjs-backend-cpu';
import type { BackendChoice, BackendName } from './types';

/**
 * Backend choice: 'auto' by measuring a few real steps of the model on each backend, a named one
 * with fallback to cpu. tfjs backends are per thread (per worker), so this is called once per
 * worker or per Node process. Only cpu (the fallback) is loaded up front; webgpu, webgl and wasm
 * are imported when tried, so a worker loads tfjs-core, cpu and the backends it tries, no more.
 */

export const AUTO_ORDER: readonly BackendName[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

/** One backend's measured speed on the scenario's model, for 'auto' (and for display). */
export interface BackendTiming {
  backend: BackendName;
  /** Median wall-clock ms of one real gradient step after warm-up; null when it could not run. */
  msPerStep: number | null;
  /** Steps timed (after warm-up). */
  steps: number;
  /** Wall-clock ms the trial took in all: start-up, warm-up (shader compilation) and timing. */
  spentMs: number;
  /** Why it was not timed, or a remark such as "software renderer (SwiftShader …)". */
  note?: string;
}

export interface BackendSelection {
  backend: BackendName;
  /** Why each backend tried before the one in use was skipped, e.g. "webgpu: no navigator.gpu". */
  fallbacks: string[];
  /**
   * 'auto' with a model to time: every candidate's measured step time; the fastest was kept.
   * Absent for an explicit choice (nothing was compared).
   */
  measured?: BackendTiming[];
  /** Set when `measured` was taken in an earlier visit on this device (ms since the epoch; workers/choiceMemory.ts). */
  measuredAt?: number;
}

/** A few real steps of the scenario's model on the current backend (see selectBackendDetailed). */
export interface StepProbe {
  step(): Promise<void>;
  dispose(): void;
}

/** How many steps 'auto' times: after WARMUP (shader compilation, first allocations) … */
const WARMUP_STEPS = 3;
/** … and, for cheap steps, until WARMUP_MS have passed (JS kernels need many calls to get optimised) … */
const WARMUP_MS = 60;
const MAX_WARMUP_STEPS = 40;
/**
 * … then at least MIN and at most MAX steps, stopping once BUDGET_MS have passed: a 0.5 ms step
 * gets 60 samples (its median is stable to about 10 %), a 10 ms step about 20.
 */
const MIN_TIMED_STEPS = 3;
const MAX_TIMED_STEPS = 60;
const BUDGET_MS = 200;

/** Keyed by the package's binary names ('tfjs-backend-wasm.wasm', …). */
export type WasmPaths = Record<string, string>;
let wasmPaths: WasmPaths | null = null;

/**
 * Browser code hands in URLs of the .wasm files served by the app (see workers/wasmPaths.ts).
 * Node leaves this unset: the package then reads its own files from node_modules.
 */
export function setWasmBinaryPaths(paths: WasmPaths): void {
  wasmPaths = paths;
}

const isNode = typeof process !== 'undefined' && process.versions?.node != null;

/**
 * The WebGL renderer's name, when the browser tells it. Chromium without a GPU renders WebGL on
 * SwiftShader, a CPU emulation: for these small models it runs several times slower than wasm.
 */
function webglRenderer(): string | null {
  try {
    const canvas = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return null;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return name;
  } catch {
    return null;
  }
}

const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/** "software renderer (…)" when the browser emulates WebGL on the CPU, else null. */
function softwareNote(name: BackendName): string | null {
  if (name !== 'webgl') return null;
  const renderer = webglRenderer();
  return renderer && SOFTWARE_GL.test(renderer) ? `software renderer (${renderer.slice(0, 60)})` : null;
}

/**
 * Loads and prepares a backend's package. Returns a note when its "GPU" is a software emulation
 * (SwiftShader, llvmpipe …); with `skipSoftware` such a backend is refused instead: on a machine
 * without a GPU it is several times slower than wasm, and compiling its shaders costs seconds.
 */
async function register(name: BackendName, skipSoftware: boolean): Promise<string | null> {
  switch (name) {
    case 'webgpu': {
      if (typeof navigator === 'undefined' || !navigator.gpu) throw new Error('no navigator.gpu');
      // Headless Chromium has navigator.gpu but often no adapter; asking first spares tfjs's console errors.
      const adapter = await navigator.gpu.requestAdapter();
      if (!adapter) throw new Error('no WebGPU adapter');
      // With --enable-unsafe-webgpu and no GPU, Chromium offers SwiftShader: emulation, not a GPU.
      const info = (adapter as { info?: { vendor?: string; architecture?: string; description?: string } }).info;
      const desc = [info?.vendor, info?.architecture, info?.description].filter(Boolean).join(' ');
      const soft = (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter || SOFTWARE_GL.test(desc) ? `software adapter (${desc || 'fallback'})` : null;
      if (soft && skipSoftware) throw new Error(soft);
      await import('@tensorflow/tfjs-backend-webgpu');
      return soft;
    }
    case 'webgl': {
      // Checked first so Node does not print tfjs's WebGL context warnings.
      if (typeof OffscreenCanvas === 'undefined' && typeof document === 'undefined') {
        throw new Error('no OffscreenCanvas or document');
      }
      const soft = softwareNote(name);
      if (soft && skipSoftware) throw new Error(soft);
      await import('@tensorflow/tfjs-backend-webgl');
      return soft;
    }
    case 'wasm': {
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      // Vite's minifier breaks the threaded build, and threads gain nothing here (STACK.md).
      tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
      if (wasmPaths) wasm.setWasmPaths(wasmPaths);
      return null;
    }
    case 'cpu':
      return null;
  }
}

async function tryBackend(name: BackendName, skipSoftware: boolean): Promise<string | null> {
  const note = await register(name, skipSoftware);
  if (!(await tf.setBackend(name))) throw new Error('failed to initialise');
  await tf.ready();
  // A backend can initialise and still fail on first use (lost context, missing kernel).
  const probe = tf.tidy(() => tf.add(tf.scalar(1), tf.scalar(1)));
  const v = (await probe.data())[0];
  probe.dispose();
  if (v !== 2) throw new Error(`probe computed ${v}`);
  return note;
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The backends 'auto' times here, in this order: the CPU ones first (they start at once and set
 * the bar a GPU backend must beat), then the GPU ones; in Node only wasm and cpu (no native addon).
 */
function candidates(): readonly BackendName[] {
  return isNode ? ['wasm', 'cpu'] : ['wasm', 'cpu', 'webgl', 'webgpu'];
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * A backend this many times slower than the best so far stops being timed after MIN steps — once
 * CUT_AFTER_MS have passed, so that one preempted time slice (~10 ms on a busy machine) cannot
 * disqualify a backend whose steps take a fraction of a millisecond.
 */
const HOPELESS = 4;
const CUT_AFTER_MS = 50;

/** Times a few steps of the model on the backend now set. */
async function timeSteps(makeProbe: () => StepProbe, best: number): Promise<{ msPerStep: number; steps: number }> {
  const probe = makeProbe();
  try {
    const w0 = performance.now();
    for (let i = 0; i < MAX_WARMUP_STEPS && (i < WARMUP_STEPS || performance.now() - w0 < WARMUP_MS); i++) await probe.step();
    const times: number[] = [];
    const t0 = performance.now();
    while (times.length < MAX_TIMED_STEPS && (times.length < MIN_TIMED_STEPS || performance.now() - t0 < BUDGET_MS)) {
      const t = performance.now();
      await probe.step();
      times.push(performance.now() - t);
      // It cannot win: spare the rest of its trial.
      if (times.length >= MIN_TIMED_STEPS && performance.now() - t0 > CUT_AFTER_MS && median(times) > HOPELESS * best) break;
    }
    return { msPerStep: median(times), steps: times.length };
  } finally {
    probe.dispose();
  }
}

/**
 * 'auto' by measurement: every candidate that initialises runs a few real steps of the model
 * (makeProbe) and the fastest is kept; `measured` records each one's median ms/step, or why it
 * could not run. A software-emulated GPU is skipped with its reason unless `timeSoftware` (the
 * benchmark's choice): timing one costs seconds of shader compilation and it does not win.
 */
async function selectByMeasurement(makeProbe: () => StepProbe, timeSoftware: boolean): Promise<BackendSelection> {
  const measured: BackendTiming[] = [];
  const fallbacks: string[] = [];
  for (const name of candidates()) {
    const t0 = performance.now();
    try {
      const note = await tryBackend(name, !timeSoftware);
      const best = Math.min(Infinity, ...measured.map((m) => m.msPerStep ?? Infinity));
      const t = await timeSteps(makeProbe, best);
      measured.push({ backend: name, msPerStep: t.msPerStep, steps: t.steps, spentMs: performance.now() - t0, ...(note ? { note } : {}) });
    } catch (e) {
      measured.push({ backend: name, msPerStep: null, steps: 0, spentMs: performance.now() - t0, note: reason(e) });
      fallbacks.push(`${name}: ${reason(e)}`);
    }
  }
  const timed = measured.filter((m): m is BackendTiming & { msPerStep: number } => m.msPerStep !== null);
  if (timed.length === 0) throw new Error(`no tfjs backend works (${fallbacks.join('; ')})`);
  const best = timed.reduce((a, b) => (b.msPerStep < a.msPerStep ? b : a));
  if (!(await tf.setBackend(best.backend))) throw new Error(`${best.backend}: failed to re-initialise after timing`);
  await tf.ready();
  return { backend: best.backend, fallbacks, measured };
}

/**
 * 'auto' with `makeProbe` (a few real steps of the scenario's model) times every available
 * backend and keeps the fastest. 'auto' without one tries webgpu → webgl → wasm → cpu (in Node:
 * cpu), skipping software-emulated GPUs. A named backend is tried alone, then cpu.
 */
export async function selectBackendDetailed(
  choice: BackendChoice,
  makeProbe?: () => StepProbe,
  opts: { timeSoftware?: boolean } = {},
): Promise<BackendSelection> {
  // Node: silences only tfjs's "install tfjs-node" banner and similar warnings (tfjs-node is
  // deliberately not used: it downloads a native binary).
  if (isNode) tf.enableProdMode();
  if (choice === 'auto' && makeProbe) return selectByMeasurement(makeProbe, opts.timeSoftware ?? false);
  const order: readonly BackendName[] =
    choice === 'auto' ? (isNode ? ['cpu'] : AUTO_ORDER) : choice === 'cpu' ? ['cpu'] : [choice, 'cpu'];
  const fallbacks: string[] = [];
  for (const name of order) {
    try {
      await tryBackend(name, choice === 'auto');
      return { backend: name, fallbacks };
    } catch (e) {
      fallbacks.push(`${name}: ${reason(e)}`);
    }
  }
  throw new Error(`no tfjs backend works (${fallbacks.join('; ')})`);
}

export async function selectBackend(choice: BackendChoice): Promise<BackendName> {
  return (await selectBackendDetailed(choice)).backend;
}
