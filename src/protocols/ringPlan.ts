/**
 * Pure arithmetic of ring all-reduce (as in NCCL/Baidu's ring): the vector is split into N chunks;
 * reduce-scatter runs N−1 steps in which worker i sends chunk (i−k) mod N to i+1 and adds what it
 * receives; all-gather runs N−1 more steps passing the reduced chunks on. Each chunk crosses N−1
 * links in each phase, so the ring moves 2(N−1)·M floats per step in total: 2(N−1)/N·M per node
 * on average (a node's own share differs by at most one float per phase when N does not divide M).
 */

export type RingPhase = 'rs' | 'ag';

/** [start, end) of each of the N chunks of an M-float vector; the first M mod N chunks get one extra float. */
export function chunkBounds(m: number, n: number): Array<[number, number]> {
  const base = Math.floor(m / n);
  const extra = m % n;
  const out: Array<[number, number]> = [];
  let start = 0;
  for (let c = 0; c < n; c++) {
    const len = base + (c < extra ? 1 : 0);
    out.push([start, start + len]);
    start += len;
  }
  return out;
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

/** Chunk worker i sends at step k of a phase. */
export function sendChunk(phase: RingPhase, i: number, k: number, n: number): number {
  return phase === 'rs' ? mod(i - k, n) : mod(i + 1 - k, n);
}

/** Chunk worker i receives (from i−1) at step k of a phase. */
export function recvChunk(phase: RingPhase, i: number, k: number, n: number): number {
  return sendChunk(phase, i - 1, k, n);
}

/** Chunk worker i holds fully reduced after reduce-scatter. */
export function ownedChunk(i: number, n: number): number {
  return mod(i + 1, n);
}

/** Floats worker i sends in one complete all-reduce of an M-float vector. */
export function floatsSentBy(i: number, m: number, n: number): number {
  const b = chunkBounds(m, n);
  let total = 0;
  for (const phase of ['rs', 'ag'] as const) {
    for (let k = 0; k < n - 1; k++) {
      const [s, e] = b[sendChunk(phase, i, k, n)];
      total += e - s;
    }
  }
  return total;
}
