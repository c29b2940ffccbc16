import { describe, expect, it } from 'vitest';
import { rngFor } from '../../sim/rng';
import { Adversaries } from './adversaries';
import { alieZ, maliciousGradient, normalQuantile } from './byzantine';
import { loadSecurity } from './load';

const g = Float32Array.from([1, -2, 0.5]);
const rng = () => rngFor(1, 'test');

describe('Byzantine gradients', () => {
  it('Φ⁻¹ matches known quantiles', () => {
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.8413447460685429)).toBeCloseTo(1, 6);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 5);
    expect(normalQuantile(0.999)).toBeCloseTo(3.090232, 5);
  });

  it('ALIE z: s = ⌊n/2 + 1⌋ − m supporters, z = Φ⁻¹((n − s)/n) (Baruch et al. 2019)', () => {
    // n = 7, m = 1: s = 3, z = Φ⁻¹(4/7) ≈ 0.18
    expect(alieZ(7, 1)).toBeCloseTo(normalQuantile(4 / 7), 12);
    expect(alieZ(7, 1)).toBeCloseTo(0.18, 2);
    // n = 50, m = 12: s = 14, z = Φ⁻¹(36/50) ≈ 0.58
    expect(alieZ(50, 12)).toBeCloseTo(0.583, 2);
  });

  it('sign-flip, large-norm and random replace the gradient as specified', () => {
    expect([...maliciousGradient({ attack: 'sign-flip', scale: 10 }, g, [], 7, 1, rng())]).toEqual([-10, 20, -5]);
    expect([...maliciousGradient({ attack: 'sign-flip' }, g, [], 7, 1, rng())]).toEqual([-1, 2, -0.5]);
    expect([...maliciousGradient({ attack: 'large-norm' }, g, [], 7, 1, rng())]).toEqual([100, -200, 50]);
    const r = maliciousGradient({ attack: 'random', scale: 3 }, g, [], 7, 1, rng());
    expect([...r]).toEqual([...maliciousGradient({ attack: 'random', scale: 3 }, g, [], 7, 1, rng())]); // seeded
    expect([...r]).not.toEqual([...g]);
  });

  it('ALIE sends μ − z·σ of the honest gradients', () => {
    const honest = [Float32Array.from([1, 0]), Float32Array.from([3, 0]), Float32Array.from([2, 6])];
    const out = maliciousGradient({ attack: 'alie', scale: 1 }, g.subarray(0, 2), honest, 4, 1, rng());
    // μ = (2, 2); σ (population) = (√(2/3), √8)
    expect(out[0]).toBeCloseTo(2 - Math.sqrt(2 / 3), 5);
    expect(out[1]).toBeCloseTo(2 - Math.sqrt(8), 5);
  });

  it('the engine replaces only a Byzantine worker’s gradient, and ALIE reads the honest workers’ latest', async () => {
    await loadSecurity(); // the attacks load on demand (load.ts), as a byzantine action waits for them
    const adv = new Adversaries(['w0', 'w1', 'w2'], (n) => rngFor(1, n));
    const a = Float32Array.from([1]);
    const b = Float32Array.from([3]);
    expect(adv.gradient('w0', a)).toBe(a);
    expect(adv.gradient('w1', b)).toBe(b);
    adv.set('w2', { attack: 'alie', scale: 1 });
    expect(adv.isByzantine('w2')).toBe(true);
    expect(adv.gradient('w2', Float32Array.from([100]))[0]).toBeCloseTo(2 - 1, 6); // μ = 2, σ = 1
    adv.clear('w2');
    const own = Float32Array.from([100]);
    expect(adv.gradient('w2', own)).toBe(own);
  });
});
