import { bareTrainingLoop } from '../train/bareLoop';
import type { GradientComputer } from '../train/model';
import type { ModelData } from '../train/modelData';
import { prepareTraining } from '../train/prepare';
import type { TrainerSpec } from '../train/types';
import { COPY_MAX_ELEMENTS, type InitResult, type WorkerRequest, type WorkerResponse } from './protocol';
import { sharedClock } from './sharedClock';

/**
 * The worker's request handling, free of worker globals so Vitest can drive it in-process.
 * `post` sends a reply with its transfer list; `crash` raises an uncaught error in the thread.
 */
export function createHandler(
  post: (msg: WorkerResponse, transfer: Transferable[]) => void,
  crash: (err: Error) => void,
): (req: WorkerRequest) => Promise<void> {
  let computer: GradientComputer | null = null;
  let data: ModelData | null = null;
  let self = -1;
  let spec: TrainerSpec | null = null;
  /** Whether a request's parameters may go back after its gradient (see 'gradient'). */
  let handBack = false;

  const ready = (): { computer: GradientComputer; data: ModelData; spec: TrainerSpec } => {
    if (!computer || !data || !spec) throw new Error('worker not initialised');
    return { computer, data, spec };
  };

  return async (req) => {
    try {
      switch (req.kind) {
        case 'init': {
          self = req.worker;
          spec = req.spec;
          computer?.dispose();
          computer = null;
          const prepared = await prepareTraining(req.spec);
          computer = prepared.computer;
          data = prepared.data;
          const { backend, fallbacks, measured } = prepared.selection;
          // The cpu backend keeps the variables' values as views of the parameters it was given
          // (no copy) until the next step assigns new ones: those must stay here.
          handBack = backend !== 'cpu';
          const result: InitResult = { backend, fallbacks, paramCount: computer.paramCount, samples: data.train.n, ...(measured ? { measured } : {}) };
          post({ id: req.id, ok: true, result }, []);
          return;
        }
        case 'gradient': {
          const taken = req.timed ? sharedClock() : 0;
          if (req.fault === 'crash') {
            crash(new Error(`injected crash in worker ${self} (node ${req.node})`));
            return; // no reply: the pool learns of it through the worker's error event
          }
          if (req.fault === 'throw') throw new Error(`injected fault in worker ${self} (node ${req.node})`);
          const { grad, loss } = await ready().computer.gradientAt(req.params, req.batch);
          // A large gradient is transferred and the parameters go back too: the pool copies the next
          // request's into them, since a fresh 100 k-float array costs the page's main thread about
          // 1.5 ms. A small one is copied (COPY_MAX_ELEMENTS).
          const small = grad.length <= COPY_MAX_ELEMENTS;
          const back = !small && handBack && req.params.buffer !== grad.buffer ? req.params : undefined;
          const transfer = small ? [] : back ? [grad.buffer as ArrayBuffer, back.buffer as ArrayBuffer] : [grad.buffer as ArrayBuffer];
          post({ id: req.id, ok: true, result: { grad, loss, ...(back ? { params: back } : {}), ...(req.timed ? { at: [taken, sharedClock()] } : {}) } }, transfer);
          return;
        }
        case 'evaluate': {
          const r = ready();
          const e = await r.computer.evaluate(req.params, r.data.evalSet.x, r.data.evalSet.y);
          post({ id: req.id, ok: true, result: e }, (e.samples ?? []).map((s) => s.image.buffer as ArrayBuffer));
          return;
        }
        case 'predictGrid': {
          const r = ready();
          if (!r.data.bounds) throw new Error(`predictGrid: dataset "${r.spec.model.dataset}" has no 2-D decision boundary`);
          const grid = await r.computer.predictGrid(req.params, r.data.bounds, req.res);
          post({ id: req.id, ok: true, result: grid }, [grid.buffer as ArrayBuffer]);
          return;
        }
        case 'benchBare': {
          const r = ready();
          const stepsPerSec = await bareTrainingLoop(r.spec.model, r.data.train, req.batches, r.spec.seed);
          post({ id: req.id, ok: true, result: stepsPerSec }, []);
          return;
        }
      }
    } catch (e) {
      post({ id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) }, []);
    }
  };
}
