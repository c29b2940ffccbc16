/** Small numeric helpers on flat parameter vectors (DESIGN rule 7: parameters are Float32Arrays). */

export function l2Distance(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    s += d * d;
  }
  return Math.sqrt(s);
}

export function l2Norm(a: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}

/** a ← a + k·x, in place. */
export function axpy(a: Float32Array, k: number, x: Float32Array): void {
  for (let i = 0; i < a.length; i++) a[i] += k * x[i];
}

export function equalVectors(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return false;
  return true;
}

/**
 * A cheap fingerprint of a parameter vector for the event log: FNV-1a-style mixing over the raw
 * 32-bit words (a word at a time: byte-wise it cost 0.5 ms per version of a 67k-parameter model).
 */
export function fingerprint(a: Float32Array): string {
  const words = new Uint32Array(a.buffer, a.byteOffset, a.length);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) {
    h = Math.imul(h ^ words[i], 0x01000193);
    h ^= h >>> 15;
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * A copy of `a[from, to)`: what `a.slice(from, to)` returns, without its species lookup, which
 * cost more than the copy for the few floats of a ring chunk (issue 9: simulator core speed).
 */
export function copyRange(a: Float32Array, from: number, to: number): Float32Array {
  const n = to - from;
  const out = new Float32Array(n);
  if (n > 64) out.set(a.subarray(from, to));
  else for (let i = 0; i < n; i++) out[i] = a[from + i];
  return out;
}
