import { selectBackendDetailed, type BackendSelection, type StepProbe } from './backend';
import { initialParams } from './layout';
import { GradientComputer } from './model';
import { loadModelData, type ModelData } from './modelData';
import type { TrainerSpec } from './types';

/**
 * What a training thread needs before its first step, in one place for the worker and for
 * LocalTrainer: the data (a dataset file is loaded only here, on first use), the backend (for
 * 'auto', the fastest at a few real steps of this very model), and the model on that backend.
 */
export interface PreparedTraining {
  data: ModelData;
  computer: GradientComputer;
  selection: BackendSelection;
}

export async function prepareTraining(spec: TrainerSpec): Promise<PreparedTraining> {
  const data = await loadModelData(spec.model, spec.seed);
  const selection = await selectBackendDetailed(spec.backend, () => stepProbe(spec, data), { timeSoftware: spec.timeSoftwareGpu });
  const computer = new GradientComputer(spec.model.hidden, data.io);
  computer.setTrainingSet(data.train.x, data.train.y);
  return { data, computer, selection };
}

/** One real training step of the scenario's model (its batch size, its data) on the current backend. */
export function stepProbe(spec: TrainerSpec, data: ModelData): StepProbe {
  const computer = new GradientComputer(spec.model.hidden, data.io);
  computer.setTrainingSet(data.train.x, data.train.y);
  const params = initialParams(spec.model, spec.seed);
  const batch = Uint32Array.from({ length: Math.min(spec.model.batchSize, data.train.n) }, (_, i) => i);
  return {
    step: async () => {
      await computer.gradientAt(params, batch);
    },
    dispose: () => computer.dispose(),
  };
}
