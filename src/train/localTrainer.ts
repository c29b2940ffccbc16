import { selectBackendDetailed } from './backend';
import { makeDataset, makeEvalSet, type Dataset } from './datasets';
import { initialParams } from './layout';
import { GradientComputer } from './model';
import type { BackendName, Evaluation, GradientRequest, GradientResult, Trainer, TrainerSpec } from './types';

/**
 * In-process Trainer for the CLI, tests and benchmarks. Uses the thread's one tfjs backend, so
 * all LocalTrainers of a process share it (the last create() picks it).
 */
export class LocalTrainer implements Trainer {
  readonly paramCount: number;
  readonly samples: number;
  readonly train: Dataset;
  readonly evalSet: Dataset;
  /** Why preferred backends were skipped, for display. */
  readonly fallbacks: string[];

  private constructor(
    private readonly spec: TrainerSpec,
    private readonly computer: GradientComputer,
    readonly backend: BackendName,
    fallbacks: string[],
  ) {
    this.train = makeDataset(spec.model, spec.seed);
    this.evalSet = makeEvalSet(spec.model, spec.seed);
    this.computer.setTrainingSet(this.train.x, this.train.y);
    this.paramCount = computer.paramCount;
    this.samples = this.train.n;
    this.fallbacks = fallbacks;
  }

  static async create(spec: TrainerSpec): Promise<LocalTrainer> {
    const { backend, fallbacks } = await selectBackendDetailed(spec.backend);
    return new LocalTrainer(spec, new GradientComputer(spec.model.hidden), backend, fallbacks);
  }

  initialParams(): Float32Array {
    return initialParams(this.spec.model, this.spec.seed);
  }

  /**
   * req.params is owned by the call, as with the worker pool, where it is transferred (detached).
   * Not detached here: that cost 2% of the cluster's throughput, and the pool's tests cover reuse.
   */
  async gradient(req: GradientRequest): Promise<GradientResult> {
    return this.computer.gradientAt(req.params, req.batch);
  }

  evaluate(params: Float32Array): Promise<Evaluation> {
    return this.computer.evaluate(params, this.evalSet.x, this.evalSet.y);
  }

  predictGrid(params: Float32Array, res: number): Promise<Float32Array> {
    return this.computer.predictGrid(params, this.train.bounds, res);
  }

  backendFor(_node: string): string {
    return this.backend;
  }

  async dispose(): Promise<void> {
    this.computer.dispose();
  }
}
