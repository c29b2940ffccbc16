import { selectBackend } from '../src/train/backend';
import { makeDataset } from '../src/train/datasets';
import { LocalTrainer } from '../src/train/localTrainer';
import { bareTrainingLoop } from '../src/train/bareLoop';
import { benchBatches } from './batches';
import type { BackendName } from '../src/train/types';
import type { ModelSpec } from '../src/scenario/schema';
import { rngFor } from '../src/sim/rng';

/**
 * Per-step overhead of the Trainer seam: LocalTrainer.gradient + a JS-side SGD apply, against a
 * bare tfjs loop (same graph, optimizer.minimize on tf variables). Both draw the same batches.
 */
export interface TrainerBenchOptions {
  steps?: number;
  warmup?: number;
  backend?: BackendName;
  hidden?: number[];
  batchSize?: number;
  /** Alternate the two loops this many times and keep each one's best run (less noise). */
  rounds?: number;
}

export interface TrainerBenchResult {
  backend: BackendName;
  steps: number;
  bareStepsPerSec: number;
  trainerStepsPerSec: number;
  ratio: number;
}

const SEED = 7;

function batches(count: number, size: number, samples: number): Uint32Array[] {
  return benchBatches(count, size, samples, rngFor(SEED, 'bench-batches'));
}

function bareLoop(model: ModelSpec, draws: Uint32Array[]): Promise<number> {
  return bareTrainingLoop(model, makeDataset(model, SEED), draws, SEED); // a 2-D dataset: generated at once
}

async function trainerLoop(model: ModelSpec, backend: BackendName, draws: Uint32Array[]): Promise<number> {
  const trainer = await LocalTrainer.create({ model, seed: SEED, backend });
  const params = trainer.initialParams();
  const lr = model.learningRate;
  const t0 = performance.now();
  for (const batch of draws) {
    // The request's params are transferred (detached), so a replica sends a copy of its own.
    const { grad } = await trainer.gradient({ node: 'w0', params: params.slice(), batch });
    for (let i = 0; i < grad.length; i++) params[i] -= lr * grad[i]; // what a protocol does
  }
  const dt = performance.now() - t0;
  await trainer.dispose();
  return (draws.length / dt) * 1000;
}

export async function benchTrainerVsBare(opts: TrainerBenchOptions = {}): Promise<TrainerBenchResult> {
  const steps = opts.steps ?? 2000;
  const warmup = opts.warmup ?? 200;
  const rounds = opts.rounds ?? 3;
  const model: ModelSpec = {
    dataset: 'spiral',
    hidden: opts.hidden ?? [8, 8],
    batchSize: opts.batchSize ?? 16,
    learningRate: 0.03,
    samples: 600,
    noise: 0.1,
  };
  const backend = await selectBackend(opts.backend ?? 'cpu');
  const draws = batches(steps, model.batchSize, model.samples);
  const warm = draws.slice(0, warmup);
  await bareLoop(model, warm);
  await trainerLoop(model, backend, warm);
  let bare = 0;
  let trainer = 0;
  for (let r = 0; r < rounds; r++) {
    bare = Math.max(bare, await bareLoop(model, draws));
    trainer = Math.max(trainer, await trainerLoop(model, backend, draws));
  }
  return { backend, steps, bareStepsPerSec: bare, trainerStepsPerSec: trainer, ratio: trainer / bare };
}
