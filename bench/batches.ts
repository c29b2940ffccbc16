/**
 * Seeded mini-batch draws for benchmarks. Kept apart from the bare tfjs loop so the benchmark
 * page, which draws batches on its main thread and trains only in workers, loads no tfjs.
 */
export function benchBatches(count: number, size: number, samples: number, rng: { int(a: number, b: number): number }): Uint32Array[] {
  return Array.from({ length: count }, () => {
    const b = new Uint32Array(size);
    for (let i = 0; i < size; i++) b[i] = rng.int(0, samples - 1);
    return b;
  });
}
