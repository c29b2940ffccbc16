import * as tf from '@tensorflow/tfjs';
import type { BackendChoice, BackendName } from './types';

/**
 * Backend choice with fallback. tfjs backends are per thread (per worker), so this is called once
 * per worker or per Node process. webgpu and wasm are imported lazily: Node and cpu-only paths
 * never load them.
 */

export const AUTO_ORDER: readonly BackendName[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

export interface BackendSelection {
  backend: BackendName;
  /** Why each backend tried before the one in use was skipped, e.g. "webgpu: no navigator.gpu". */
  fallbacks: string[];
}

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

async function register(name: BackendName, auto: boolean): Promise<void> {
  switch (name) {
    case 'webgpu':
      if (typeof navigator === 'undefined' || !navigator.gpu) throw new Error('no navigator.gpu');
      {
        // Headless Chromium has navigator.gpu but often no adapter; asking first spares tfjs's console errors.
        const adapter = await navigator.gpu.requestAdapter();
        if (!adapter) throw new Error('no WebGPU adapter');
        if (auto) {
          // With --enable-unsafe-webgpu and no GPU, Chromium offers SwiftShader: emulation, not a GPU.
          const info = (adapter as { info?: { vendor?: string; architecture?: string; description?: string } }).info;
          const name = [info?.vendor, info?.architecture, info?.description].filter(Boolean).join(' ');
          if ((adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter || SOFTWARE_GL.test(name)) {
            throw new Error(`software adapter (${name || 'fallback'})`);
          }
        }
      }
      await import('@tensorflow/tfjs-backend-webgpu');
      return;
    case 'webgl':
      // Checked first so Node does not print tfjs's WebGL context warnings.
      if (typeof OffscreenCanvas === 'undefined' && typeof document === 'undefined') {
        throw new Error('no OffscreenCanvas or document');
      }
      if (auto) {
        // 'auto' wants acceleration: a software-emulated GPU is a fallback case, not a GPU.
        const renderer = webglRenderer();
        if (renderer && SOFTWARE_GL.test(renderer)) throw new Error(`software renderer (${renderer.slice(0, 60)})`);
      }
      return;
    case 'wasm': {
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      // Vite's minifier breaks the threaded build, and threads gain nothing here (STACK.md).
      tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
      if (wasmPaths) wasm.setWasmPaths(wasmPaths);
      return;
    }
    case 'cpu':
      return;
  }
}

async function tryBackend(name: BackendName, auto: boolean): Promise<void> {
  await register(name, auto);
  if (!(await tf.setBackend(name))) throw new Error('failed to initialise');
  await tf.ready();
  // A backend can initialise and still fail on first use (lost context, missing kernel).
  const probe = tf.tidy(() => tf.add(tf.scalar(1), tf.scalar(1)));
  const v = (await probe.data())[0];
  probe.dispose();
  if (v !== 2) throw new Error(`probe computed ${v}`);
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * 'auto' tries webgpu → webgl → wasm → cpu (in Node: cpu, the measured sensible default),
 * skipping WebGL when it is software-emulated; a named backend is tried alone, then cpu.
 */
export async function selectBackendDetailed(choice: BackendChoice): Promise<BackendSelection> {
  const order: readonly BackendName[] =
    choice === 'auto' ? (isNode ? ['cpu'] : AUTO_ORDER) : choice === 'cpu' ? ['cpu'] : [choice, 'cpu'];
  // Node: silences only tfjs's "install tfjs-node" banner and similar warnings (tfjs-node is
  // deliberately not used: it downloads a native binary).
  if (isNode) tf.enableProdMode();
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
