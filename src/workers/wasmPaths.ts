/**
 * Browser-only: the WASM binaries as app-served URLs (never a CDN). Node code must not import this
 * module: the `?url` suffix only means something to Vite.
 */
import plainUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import simdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import threadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { setWasmBinaryPaths } from '../train/backend';

setWasmBinaryPaths({
  'tfjs-backend-wasm.wasm': plainUrl,
  'tfjs-backend-wasm-simd.wasm': simdUrl,
  'tfjs-backend-wasm-threaded-simd.wasm': threadedSimdUrl,
});
