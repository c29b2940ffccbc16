import type { Rng } from '../../sim/rng';
import type { ByzantineAttack } from '../../sim/types';

/**
 * What a Byzantine worker sends instead of its true gradient g (CURRICULUM §C.2 `byzantine`). The
 * worker holds valid keys, so every channel check passes; only the aggregation rule can limit it.
 *
 * - sign-flip:  −s·g (s = scale, default 1): pushes the model up the loss.
 * - large-norm: s·g (default 100): one huge step in the right direction, far too large.
 * - random:     N(0, s²) in every coordinate (default s = 1), unrelated to the data.
 * - alie:       "A Little Is Enough" (Baruch, Baruch & Goldberg, NeurIPS 2019): μ − z·σ per
 *               coordinate, where μ and σ are the mean and standard deviation of the honest
 *               workers' gradients and z = Φ⁻¹((n − s)/n) with s = ⌊n/2 + 1⌋ − m (n workers, m of
 *               them Byzantine): just far enough to shift the aggregate while staying inside the
 *               spread that median, trimmed mean and Krum accept. Like the paper's omniscient
 *               attacker we read μ and σ from the honest gradients themselves — here every honest
 *               worker's most recent gradient, as the engine (the only party that sees them all)
 *               holds it. `scale`, when given, replaces z.
 */
export interface ByzantineSpec {
  attack: ByzantineAttack;
  scale?: number;
}

export function maliciousGradient(spec: ByzantineSpec, own: Float32Array, honest: readonly Float32Array[], n: number, m: number, rng: Rng): Float32Array {
  const d = own.length;
  const out = new Float32Array(d);
  switch (spec.attack) {
    case 'sign-flip': {
      const s = spec.scale ?? 1;
      for (let i = 0; i < d; i++) out[i] = -s * own[i];
      return out;
    }
    case 'large-norm': {
      const s = spec.scale ?? 100;
      for (let i = 0; i < d; i++) out[i] = s * own[i];
      return out;
    }
    case 'random': {
      const s = spec.scale ?? 1;
      for (let i = 0; i < d; i++) out[i] = s * rng.normal();
      return out;
    }
    case 'alie': {
      // Without an honest gradient to read, the attacker has nothing to hide behind: it sends its own.
      const pool = honest.length > 0 ? honest : [own];
      const z = spec.scale ?? alieZ(n, m);
      for (let i = 0; i < d; i++) {
        let mu = 0;
        for (const g of pool) mu += g[i];
        mu /= pool.length;
        let v = 0;
        for (const g of pool) v += (g[i] - mu) ** 2;
        out[i] = mu - z * Math.sqrt(v / pool.length);
      }
      return out;
    }
  }
}

/** Baruch et al. 2019, Algorithm 3: z_max = Φ⁻¹((n − s)/n) with s = ⌊n/2 + 1⌋ − m. */
export function alieZ(n: number, m: number): number {
  const s = Math.floor(n / 2 + 1) - m;
  const p = (n - s) / n;
  if (p <= 0 || p >= 1) return 0;
  return normalQuantile(p);
}

/**
 * Φ⁻¹(p), the standard normal quantile: P. J. Acklam's rational approximation (relative error
 * below 1.15e-9 on (0, 1)), refined by one Halley step on the complementary error function.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new Error(`normalQuantile: p must lie in (0, 1), got ${p}`);
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const dd = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((dd[0] * q + dd[1]) * q + dd[2]) * q + dd[3]) * q + 1);
  }
  if (p <= 1 - lo) {
    const q = p - 0.5;
    const r = q * q;
    return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const q = Math.sqrt(-2 * Math.log(1 - p));
  return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((dd[0] * q + dd[1]) * q + dd[2]) * q + dd[3]) * q + 1);
}
