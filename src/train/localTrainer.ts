import type { BackendSelection } from './backend';
import { initialParams } from './layout';
import type { GradientComputer } from './model';
import type { ModelData } from './modelData';
import { prepareTraining } from './prepare';
import type { BackendName, Evaluation, GradientRequest, GradientResult, Trainer, TrainerSpec } from './types';

/**
 * In-process Trainer for the CLI, tests and benchmarks. Uses the thread's one tfjs backend, so
 * all LocalTrainers of a process share it (the last create() picks it).
 */
export class LocalTrainer implements Trainer {
  readonly paramCount: number;
  readonly samples: number;
  readonly data: ModelData;
  readonly backend: BackendName;
  /** Why preferred backends were skipped, for display. */
  readonly fallbacks: string[];

  private constructor(
    private readonly spec: TrainerSpec,
    private readonly computer: GradientComputer,
    data: ModelData,
    private readonly selection: BackendSelection,
  ) {
    this.data = data;
    this.paramCount = computer.paramCount;
    this.samples = data.train.n;
    this.backend = selection.backend;
    this.fallbacks = selection.fallbacks;
  }

  static async create(spec: TrainerSpec): Promise<LocalTrainer> {
    const { data, computer, selection } = await prepareTraining(spec);
    return new LocalTrainer(spec, computer, data, selection);
  }

  initialParams(): Float32Array {
    return initialParams(this.spec.model, this.spec.seed);
  }

  /**
   * req.params is lent for the call (types.ts): tfjs reads it here, it is neither kept nor changed.
   */
  async gradient(req: GradientRequest): Promise<GradientResult> {
    return this.computer.gradientAt(req.params, req.batch);
  }

  evaluate(params: Float32Array): Promise<Evaluation> {
    return this.computer.evaluate(params, this.data.evalSet.x, this.data.evalSet.y);
  }

  async predictGrid(params: Float32Array, res: number): Promise<Float32Array> {
    if (!this.data.bounds) throw new Error(`predictGrid: dataset "${this.spec.model.dataset}" has no 2-D decision boundary`);
    return this.computer.predictGrid(params, this.data.bounds, res);
  }

  backendFor(_node: string): string {
    return this.backend;
  }

  backendSelection(): BackendSelection {
    return this.selection;
  }

  async dispose(): Promise<void> {
    this.computer.dispose();
  }
}
