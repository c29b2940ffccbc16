import type { Rng } from '../../sim/rng';
import type { NodeId } from '../../sim/types';
import type { ByzantineSpec } from './byzantine';
import { requireSecurity } from './load';

/**
 * The Byzantine workers of a run and what each knows (engine-side: the attacker is a modified
 * worker program, so its gradient is replaced before the strategy's worker code sends it). The
 * attacks themselves (byzantine.ts) load with the security code, which a `byzantine` action waits for.
 */
export class Adversaries {
  private readonly byz = new Map<NodeId, ByzantineSpec>();
  /** Every worker's most recent true gradient (what the omniscient ALIE attacker reads). */
  private readonly latest = new Map<NodeId, Float32Array>();

  constructor(
    private readonly workers: readonly NodeId[],
    private readonly rngOf: (node: NodeId) => Rng,
  ) {}

  set(node: NodeId, spec: ByzantineSpec): void {
    this.byz.set(node, spec);
  }

  clear(node: NodeId): void {
    this.byz.delete(node);
  }

  spec(node: NodeId): ByzantineSpec | null {
    return this.byz.get(node) ?? null;
  }

  isByzantine(node: NodeId): boolean {
    return this.byz.has(node);
  }

  /** The gradient the worker's program sends: its true one, or the attack's. */
  gradient(node: NodeId, grad: Float32Array): Float32Array {
    this.latest.set(node, grad);
    const spec = this.byz.get(node);
    if (!spec) return grad;
    const honest: Float32Array[] = [];
    for (const w of this.workers) {
      const g = this.latest.get(w);
      if (g && !this.byz.has(w)) honest.push(g);
    }
    return requireSecurity().maliciousGradient(spec, grad, honest, this.workers.length, this.byz.size, this.rngOf(node));
  }
}
