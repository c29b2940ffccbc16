import { selectBackendDetailed } from '../train/backend';
import { makeDataset, makeEvalSet, type Dataset } from '../train/datasets';
import { GradientComputer } from '../train/model';
import { bareTrainingLoop } from '../train/bareLoop';
import type { TrainerSpec } from '../train/types';
import type { WorkerRequest, WorkerResponse } from './protocol';

/**
 * The worker's request handling, free of worker globals so Vitest can drive it in-process.
 * `post` sends a reply with its transfer list; `crash` raises an uncaught error in the thread.
 */
export function createHandler(
  post: (msg: WorkerResponse, transfer: Transferable[]) => void,
  crash: (err: Error) => void,
): (req: WorkerRequest) => Promise<void> {
  let computer: GradientComputer | null = null;
  let train: Dataset | null = null;
  let evalSet: Dataset | null = null;
  let self = -1;
  let spec: TrainerSpec | null = null;

  const ready = (): { computer: GradientComputer; train: Dataset; evalSet: Dataset } => {
    if (!computer || !train || !evalSet) throw new Error('worker not initialised');
    return { computer, train, evalSet };
  };

  return async (req) => {
    try {
      switch (req.kind) {
        case 'init': {
          self = req.worker;
          spec = req.spec;
          const { backend, fallbacks } = await selectBackendDetailed(req.spec.backend);
          train = makeDataset(req.spec.model, req.spec.seed);
          evalSet = makeEvalSet(req.spec.model, req.spec.seed);
          computer?.dispose();
          computer = new GradientComputer(req.spec.model.hidden);
          computer.setTrainingSet(train.x, train.y);
          const result = { backend, fallbacks, paramCount: computer.paramCount, samples: train.n };
          post({ id: req.id, ok: true, result }, []);
          return;
        }
        case 'gradient': {
          if (req.fault === 'crash') {
            crash(new Error(`injected crash in worker ${self} (node ${req.node})`));
            return; // no reply: the pool learns of it through the worker's error event
          }
          if (req.fault === 'throw') throw new Error(`injected fault in worker ${self} (node ${req.node})`);
          const { grad, loss } = await ready().computer.gradientAt(req.params, req.batch);
          post({ id: req.id, ok: true, result: { grad, loss } }, [grad.buffer as ArrayBuffer]);
          return;
        }
        case 'evaluate': {
          const r = ready();
          post({ id: req.id, ok: true, result: await r.computer.evaluate(req.params, r.evalSet.x, r.evalSet.y) }, []);
          return;
        }
        case 'predictGrid': {
          const r = ready();
          const grid = await r.computer.predictGrid(req.params, r.train.bounds, req.res);
          post({ id: req.id, ok: true, result: grid }, [grid.buffer as ArrayBuffer]);
          return;
        }
        case 'benchBare': {
          const r = ready();
          if (!spec) throw new Error('worker not initialised');
          const stepsPerSec = await bareTrainingLoop(spec.model, r.train, req.batches, spec.seed);
          post({ id: req.id, ok: true, result: stepsPerSec }, []);
          return;
        }
      }
    } catch (e) {
      post({ id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) }, []);
    }
  };
}
