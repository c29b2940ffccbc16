import type { ModelSpec } from '../scenario/schema';
import type { BackendSelection } from './backend';

/** The one seam between the simulator and real tfjs training (DESIGN rule 2: values are real). */
export type BackendName = 'webgpu' | 'webgl' | 'wasm' | 'cpu';
export type BackendChoice = 'auto' | BackendName;

export interface TrainerSpec {
  model: ModelSpec;
  /** Scenario seed: the dataset, the evaluation set and the initial parameters derive from it. */
  seed: number;
  backend: BackendChoice;
  /** 'auto': time software-emulated GPUs too instead of skipping them (benchmarks report them). */
  timeSoftwareGpu?: boolean;
}

export interface GradientRequest {
  node: string;
  /**
   * Flat parameters the step starts from (length = paramCount). Lent for the call: no one changes
   * them meanwhile (the engine passes a replica's parameters, which it never changes in place),
   * and a trainer copies what it keeps or sends (the pool into an array its workers hand back).
   */
  params: Float32Array;
  /** Indices into the training set, drawn by the simulator's seeded RNG. */
  batch: Uint32Array;
  /**
   * When the simulator will need the result (the step's modelled completion time): a pool serves
   * the earliest first, so the value the event loop waits on next is not stuck behind others.
   */
  priority?: number;
}

export interface GradientResult {
  grad: Float32Array; // flat, same layout as params
  loss: number; // mini-batch loss before the update
}

/** One evaluation image with the model's answer (multi-class datasets), for replica tiles. */
export interface SamplePrediction {
  /** Index into the fixed evaluation set: the same images at every evaluation. */
  index: number;
  label: number;
  predicted: number;
  /** Softmax probability of `predicted`. */
  confidence: number;
  /** 28×28 grey pixels, row-major, 0 = background (Fashion-MNIST's own encoding). */
  image: Uint8Array;
}

export interface Evaluation {
  loss: number;
  accuracy: number;
  /** Multi-class datasets: accuracy on each class of the evaluation set (index = class). */
  perClass?: number[];
  /** Multi-class datasets: the first few evaluation images, one per class, with predictions. */
  samples?: SamplePrediction[];
}

export interface Trainer {
  /** Number of float32 parameters of one replica. */
  readonly paramCount: number;
  /** Number of training samples (the batch indices range over 0…samples-1). */
  readonly samples: number;
  /** Seeded initial parameters, broadcast to every replica. */
  initialParams(): Float32Array;
  gradient(req: GradientRequest): Promise<GradientResult>;
  evaluate(params: Float32Array): Promise<Evaluation>;
  /** Class-1 probability on a res×res grid over the data's bounding box, row-major, y from top. */
  predictGrid(params: Float32Array, res: number): Promise<Float32Array>;
  /** Backend actually in use for a node (after fallback), for display. */
  backendFor(node: string): string;
  /** How the backend was chosen: for 'auto', each backend's measured ms/step (for display). */
  backendSelection?(): BackendSelection | null;
  dispose(): Promise<void>;
}
