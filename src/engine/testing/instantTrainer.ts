import type { Evaluation, GradientRequest, GradientResult, Trainer } from '../../train/types';

/**
 * A stand-in Trainer for measuring and testing the simulator core alone: its "gradient" is a cheap
 * deterministic function of the parameters and the batch (pulling parameters towards a fixed
 * target), so protocol and network logic can be exercised at full speed. Never used by the app or
 * the CLI, which always train real tfjs models.
 */
export class InstantTrainer implements Trainer {
  constructor(
    readonly paramCount = 105,
    readonly samples = 400,
    /** Nodes whose gradient call throws, to test worker failures. */
    private readonly failing: ReadonlySet<string> = new Set(),
  ) {}

  initialParams(): Float32Array {
    const p = new Float32Array(this.paramCount);
    for (let i = 0; i < p.length; i++) p[i] = Math.sin(i + 1) * 0.5;
    return p;
  }

  async gradient(req: GradientRequest): Promise<GradientResult> {
    if (this.failing.has(req.node)) throw new Error(`injected fault in ${req.node}`);
    const g = new Float32Array(this.paramCount);
    let loss = 0;
    const b = req.batch.length ? req.batch[0] / this.samples : 0;
    for (let i = 0; i < g.length; i++) {
      const d = req.params[i] - b;
      g[i] = d;
      loss += d * d;
    }
    return { grad: g, loss: loss / g.length };
  }

  async evaluate(params: Float32Array): Promise<Evaluation> {
    let s = 0;
    for (let i = 0; i < params.length; i++) s += params[i] * params[i];
    return { loss: s / params.length, accuracy: 0 };
  }

  async predictGrid(_params: Float32Array, res: number): Promise<Float32Array> {
    return new Float32Array(res * res);
  }

  backendFor(): string {
    return 'instant';
  }

  async dispose(): Promise<void> {}
}
