import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/**
 * Seeded randomness. Every draw in the simulator comes from an Rng derived from the scenario seed
 * and a stream name, so adding a draw in one stream (say, a node's batches) never shifts another
 * (the network's jitter): schedules stay comparable when a feature is added.
 */
export class Rng {
  private readonly gen: RandomGenerator;

  constructor(seed: number) {
    this.gen = xoroshiro128plus(seed | 0);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return uniformFloat64(this.gen);
  }

  /** Uniform integer in [from, to], both included. */
  int(from: number, to: number): number {
    return uniformInt(this.gen, from, to);
  }

  /** Uniform in [a, b). */
  range(a: number, b: number): number {
    return a + (b - a) * this.next();
  }

  /** True with probability p. Draws nothing when p is 0 or 1, so a lossless run draws nothing. */
  chance(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.next() < p;
  }

  /** Standard normal draw (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** FNV-1a over the stream name, mixed with the seed: a stable 32-bit seed per stream. */
export function streamSeed(seed: number, stream: string): number {
  let h = 0x811c9dc5 ^ (seed | 0);
  for (let i = 0; i < stream.length; i++) {
    h ^= stream.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= Math.floor(seed / 0x100000000) | 0;
  return h | 0;
}

export function rngFor(seed: number, stream: string): Rng {
  return new Rng(streamSeed(seed, stream));
}
