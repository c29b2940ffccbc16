/**
 * Gradient aggregation rules for a parameter server (CURRICULUM L13, TRUTHS shape 6). Pure
 * functions over the round's gradients, one Float32Array per worker, all of one length.
 *
 * - mean: the plain average. It is a linear combination of the inputs, so one Byzantine worker can
 *   move it anywhere (Blanchard et al., NIPS 2017, Lemma 1).
 * - median: coordinate-wise median (Yin et al., ICML 2018); for an even count the mean of the two
 *   middle values. Bounded by the honest values in each coordinate while fewer than half are bad.
 * - trimmed-mean: coordinate-wise β-trimmed mean (Yin et al. 2018): in every coordinate drop the
 *   ⌊β·n⌋ largest and ⌊β·n⌋ smallest values and average the rest.
 * - krum: the gradient whose squared distances to its n − f − 2 nearest neighbours sum least
 *   (Blanchard et al. 2017). Needs n > 2f + 2 (`krumProblem`, in aggregationRules.ts with the
 *   rules' names, which the knobs read without loading this module).
 * - multi-krum: the average of the m = n − f gradients with the best Krum scores (Blanchard et al.
 *   2017, §5; m = n − f as in El Mhamdi et al., ICML 2018).
 */

import { krumProblem, type AggregationRule } from './aggregationRules';

export interface AggregationParams {
  rule: AggregationRule;
  /** trimmed-mean: the fraction β trimmed from each end of every coordinate (0 ≤ β < 0.5). */
  trim: number;
  /** krum, multi-krum: the number of Byzantine workers f the rule assumes. */
  f: number;
}

export interface Aggregate {
  /** The aggregated gradient (an estimate of the honest mean). */
  vector: Float32Array;
  /**
   * Per input, how much of it the rule left out: Krum/multi-Krum 1 (not selected) or 0; the
   * coordinate-wise rules the fraction of coordinates in which the input was among the `outer`
   * most extreme values on either side (trimmed-mean: the trimmed ones; median: the f outermost),
   * i.e. treated as an outlier there. The mean leaves nothing out.
   */
  leftOut: number[];
}

/** Values trimmed from each end of a coordinate under trimmed-mean with fraction β. */
export function trimCount(n: number, beta: number): number {
  return Math.floor(beta * n);
}

export function aggregate(grads: readonly Float32Array[], p: AggregationParams): Aggregate {
  const n = grads.length;
  if (n === 0) throw new Error('aggregate: no gradients');
  const d = grads[0].length;
  for (const g of grads) if (g.length !== d) throw new Error('aggregate: gradients of different lengths');
  switch (p.rule) {
    case 'mean':
      return { vector: mean(grads, d), leftOut: grads.map(() => 0) };
    case 'median':
      return coordinatewise(grads, d, Math.min(p.f, Math.floor((n - 1) / 2)), (sorted) => median(sorted));
    case 'trimmed-mean': {
      const b = trimCount(n, p.trim);
      if (2 * b >= n) throw new Error(`trimmed-mean: trimming ${b} of ${n} from each end leaves nothing`);
      return coordinatewise(grads, d, b, (sorted) => {
        let s = 0;
        for (let i = b; i < n - b; i++) s += sorted[i];
        return s / (n - 2 * b);
      });
    }
    case 'krum':
    case 'multi-krum': {
      const problem = krumProblem(p.rule, n, p.f);
      if (problem) throw new Error(problem);
      const scores = krumScores(grads, p.f);
      const order = scores.map((s, i) => [s, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const m = p.rule === 'krum' ? 1 : n - p.f;
      const chosen = order.slice(0, m).map(([, i]) => i);
      const picked = new Set(chosen);
      return { vector: mean(chosen.map((i) => grads[i]), d), leftOut: grads.map((_, i) => (picked.has(i) ? 0 : 1)) };
    }
  }
}

/**
 * Krum's score of each gradient: the sum of squared distances to its n − f − 2 nearest others
 * (Blanchard et al. 2017, Definition of Krum).
 */
export function krumScores(grads: readonly Float32Array[], f: number): number[] {
  const n = grads.length;
  const dist: number[][] = grads.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let s = 0;
      const a = grads[i];
      const b = grads[j];
      for (let k = 0; k < a.length; k++) {
        const x = a[k] - b[k];
        s += x * x;
      }
      dist[i][j] = dist[j][i] = s;
    }
  }
  const near = n - f - 2;
  return dist.map((row, i) => {
    const others = row.filter((_, j) => j !== i).sort((a, b) => a - b);
    let s = 0;
    for (let k = 0; k < near; k++) s += others[k];
    return s;
  });
}

function mean(grads: readonly Float32Array[], d: number): Float32Array {
  const out = new Float32Array(d);
  // Sum in float64, then round once: the mean of equal inputs is exactly that input.
  for (let k = 0; k < d; k++) {
    let s = 0;
    for (const g of grads) s += g[k];
    out[k] = s / grads.length;
  }
  return out;
}

function median(sorted: Float64Array): number {
  const n = sorted.length;
  const h = n >> 1;
  return n % 2 === 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
}

/**
 * Applies a per-coordinate statistic of the sorted values, and counts, per input, the coordinates
 * in which it was among the `outer` lowest or highest (ties broken by input order).
 */
function coordinatewise(grads: readonly Float32Array[], d: number, outer: number, stat: (sorted: Float64Array) => number): Aggregate {
  const n = grads.length;
  const out = new Float32Array(d);
  const outside = new Array<number>(n).fill(0);
  const idx = Array.from({ length: n }, (_, i) => i);
  const sorted = new Float64Array(n);
  for (let k = 0; k < d; k++) {
    idx.sort((a, b) => grads[a][k] - grads[b][k] || a - b);
    for (let i = 0; i < n; i++) sorted[i] = grads[idx[i]][k];
    out[k] = stat(sorted);
    for (let r = 0; r < outer; r++) {
      outside[idx[r]]++;
      outside[idx[n - 1 - r]]++;
    }
  }
  return { vector: out, leftOut: outside.map((c) => (d === 0 ? 0 : c / d)) };
}
