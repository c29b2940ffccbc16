import type { BackendSelection, BackendTiming } from '../train/backend';
import { initialParams, modelParamCount } from '../train/layout';
import type { BackendName, Evaluation, GradientRequest, GradientResult, Trainer, TrainerSpec } from '../train/types';
import {
  COPY_MAX_ELEMENTS,
  type FaultMode,
  type GradientReply,
  type InitResult,
  type WorkerRequest,
  type WorkerResponse,
  type WorkerResult,
} from './protocol';
import { recallChoice, rememberChoice } from './choiceMemory';
import { dropSpares, newTrainWorker, takeSpare } from './spare';
import type { RequestTiming } from './requestTimings';
import { sharedClock } from './sharedClock';

/**
 * A pool of training workers serving all logical nodes (DESIGN rule 8): any worker can serve any
 * node, since parameters travel with the request. Gradient requests wait in one queue ordered by
 * priority (the simulated time their result is due) and go to a worker when it has fewer than
 * WORKER_DEPTH requests in hand — so the result the event loop needs next is computed first instead
 * of queueing behind later ones in some worker's inbox, and every worker stays busy. A worker that
 * errors is dropped; its pending requests reject with a message naming it and the cause.
 * The main thread never loads tfjs: layout and initial parameters are pure JS.
 */

/**
 * Requests in a worker's hands at once: one computing, one waiting, hiding the message latency.
 * More would let a worker compute on while the page's main thread draws, but four were no faster
 * at speed max (60 s of raft-ps ×16, twelve interleaved loads each: 3.97 s on average with two,
 * 3.91 with four), and each one more can put a later-due request before the one needed next.
 */
export const WORKER_DEPTH = 2;
/** Parameter arrays kept for reuse (more than the requests in flight at once would only hold memory). */
const MAX_SPARE_PARAMS = 16;

interface Queued {
  priority: number;
  seq: number;
  req: GradientRequest;
  resolve: (r: GradientResult) => void;
  reject: (e: Error) => void;
}

export interface WorkerPoolOptions {
  /** Number of logical training nodes; the pool has min(nodes, hardwareConcurrency) workers. */
  nodes?: number;
  /** Exact worker count (overrides `nodes`). */
  size?: number;
  /** Tests substitute their own Worker. */
  workerFactory?: () => Worker;
  /** Record each gradient request's timings (takeTimings): benchmarks. */
  timings?: boolean;
}

interface Pending {
  resolve: (r: WorkerResult) => void;
  reject: (e: Error) => void;
}

interface Slot {
  index: number;
  worker: Worker;
  backend: BackendName | null;
  fallbacks: string[];
  pending: Map<number, Pending>;
  /** Gradient requests sent to this worker and not yet answered. */
  gradients: number;
  alive: boolean;
}

export interface PoolWorkerInfo {
  index: number;
  backend: BackendName | null;
  fallbacks: string[];
  alive: boolean;
  pending: number;
}

/**
 * 'auto' decisions already measured in this page, by model shape and batch size: a restart or a
 * scenario with the same model reuses the measurement instead of timing every backend again
 * (and a later visit, through choiceMemory).
 */
const measuredChoices = new Map<string, BackendSelection>();

function shapeKey(spec: TrainerSpec): string {
  return JSON.stringify([spec.model.dataset === 'fashion-mnist' ? 'images' : '2d', spec.model.hidden, spec.model.batchSize, spec.timeSoftwareGpu ?? false]);
}

function before(a: Queued, b: Queued): boolean {
  return a.priority !== b.priority ? a.priority < b.priority : a.seq < b.seq;
}

/**
 * The caller's parameters as they travel, and what to transfer: a small array as it is
 * (postMessage copies it, COPY_MAX_ELEMENTS), a large one copied into `into`'s array, transferred.
 */
function lent(params: Float32Array, into: (length: number) => Float32Array = (n) => new Float32Array(n)): [Float32Array, ArrayBuffer[]] {
  if (params.length <= COPY_MAX_ELEMENTS) return [params, []];
  const copy = into(params.length);
  copy.set(params);
  return [copy, [copy.buffer as ArrayBuffer]];
}

function defaultWorker(): Worker {
  return takeSpare() ?? newTrainWorker();
}

export class WorkerPool implements Trainer {
  readonly paramCount: number;
  readonly samples: number;
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private rotate = 0;
  private readonly lastServed = new Map<string, Slot>();
  private readonly faults = new Map<string, FaultMode>();
  private readonly deaths: string[] = [];
  private disposed = false;
  private readonly queue: Queued[] = [];
  /** Parameter arrays the workers handed back with their gradients, for the next requests. */
  private readonly spareParams: Float32Array[] = [];
  private queueSeq = 0;
  private selectionInfo: BackendSelection | null = null;
  /** Gradient requests' timings since the last takeTimings, when recorded. */
  private timings: RequestTiming[] | null = null;

  private constructor(
    private readonly spec: TrainerSpec,
    size: number,
    factory: () => Worker,
  ) {
    this.paramCount = modelParamCount(spec.model);
    this.samples = spec.model.samples;
    for (let i = 0; i < size; i++) this.slots.push(this.spawn(i, factory));
  }

  static async create(spec: TrainerSpec, opts: WorkerPoolOptions = {}): Promise<WorkerPool> {
    const cores = (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 2;
    const size = Math.max(1, opts.size ?? Math.min(opts.nodes ?? cores, cores));
    const pool = new WorkerPool(spec, size, opts.workerFactory ?? defaultWorker);
    if (opts.timings) pool.timings = [];
    // It has taken the workers the page started early (src/boot.ts) that it needs: end the rest
    // now, before they compete with its backend timing (an idle tfjs worker holds tens of MB).
    if (!opts.workerFactory) dropSpares();
    await pool.initAll();
    if (!pool.slots.some((s) => s.alive)) {
      await pool.dispose();
      throw new Error(`no training worker started: ${pool.deaths.join('; ')}`);
    }
    return pool;
  }

  private spawn(index: number, factory: () => Worker): Slot {
    const worker = factory();
    const slot: Slot = { index, worker, backend: null, fallbacks: [], pending: new Map(), gradients: 0, alive: true };
    worker.onmessage = (e: MessageEvent<WorkerResponse>) => {
      const msg = e.data;
      const p = slot.pending.get(msg.id);
      if (!p) return;
      slot.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new Error(msg.error));
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault?.(); // handled here; keep it out of the page's console as an uncaught error
      this.kill(slot, e.message || 'uncaught error (no message; the script may have failed to load)');
    };
    worker.onmessageerror = () => this.kill(slot, 'a message could not be deserialised');
    return slot;
  }

  /**
   * 'auto': one worker times the backends on the model (alone, so the others' start-up does not
   * disturb its clock) and the rest take its choice — every worker computes on the same backend,
   * so the values do not depend on which worker served a node. A named backend: all at once.
   */
  private async initAll(): Promise<void> {
    if (this.spec.backend !== 'auto') {
      await Promise.all(this.slots.map((s) => this.init(s, this.spec)));
      const first = this.slots.find((s) => s.alive && s.backend);
      this.selectionInfo = first?.backend ? { backend: first.backend, fallbacks: first.fallbacks } : null;
      return;
    }
    const key = shapeKey(this.spec);
    let chosen = measuredChoices.get(key) ?? recallChoice(key);
    let rest = this.slots;
    if (!chosen) {
      for (const s of this.slots) {
        rest = rest.filter((r) => r !== s);
        const measured = await this.init(s, this.spec);
        if (s.alive && s.backend) {
          chosen = { backend: s.backend, fallbacks: s.fallbacks, ...(measured ? { measured } : {}) };
          measuredChoices.set(key, chosen);
          rememberChoice(key, chosen);
          break;
        }
      }
    }
    if (!chosen) return;
    this.selectionInfo = chosen;
    const named: TrainerSpec = { ...this.spec, backend: chosen.backend };
    await Promise.all(rest.map((s) => this.init(s, named)));
  }

  /** How the pool's backend was chosen; for 'auto', each backend's measured ms/step on this model. */
  backendSelection(): BackendSelection | null {
    return this.selectionInfo;
  }

  private async init(slot: Slot, spec: TrainerSpec): Promise<BackendTiming[] | undefined> {
    try {
      const r = (await this.call(slot, { id: 0, kind: 'init', spec, worker: slot.index }, [])) as InitResult;
      if (r.paramCount !== this.paramCount || r.samples !== this.samples) {
        throw new Error(`model shape mismatch (${r.paramCount} params, ${r.samples} samples)`);
      }
      slot.backend = r.backend;
      slot.fallbacks = r.fallbacks;
      return r.measured;
    } catch (e) {
      this.kill(slot, `init failed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  /** Mark dead, terminate, and reject everything it still owed. */
  private kill(slot: Slot, cause: string): void {
    if (!slot.alive) return;
    slot.alive = false;
    const err = new Error(`training worker ${slot.index}${slot.backend ? ` (${slot.backend})` : ''} died: ${cause}`);
    this.deaths.push(err.message);
    slot.worker.terminate();
    for (const p of slot.pending.values()) p.reject(err);
    slot.pending.clear();
  }

  private call(slot: Slot, req: WorkerRequest, transfer: Transferable[]): Promise<WorkerResult> {
    const id = this.nextId++;
    return new Promise<WorkerResult>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      try {
        slot.worker.postMessage({ ...req, id }, transfer);
      } catch (e) {
        slot.pending.delete(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  private liveSlots(): Slot[] {
    if (this.disposed) throw new Error('worker pool disposed');
    const live = this.slots.filter((s) => s.alive && s.backend);
    if (live.length === 0) throw new Error(`no training worker left (${this.deaths.join('; ')})`);
    return live;
  }

  /** Least-loaded live worker; ties rotate so idle workers share the load. */
  private pick(): Slot {
    const live = this.liveSlots();
    this.rotate = (this.rotate + 1) % live.length;
    let best = live[this.rotate];
    for (const s of live) if (s.pending.size < best.pending.size) best = s;
    return best;
  }

  initialParams(): Float32Array {
    return initialParams(this.spec.model, this.spec.seed);
  }

  /** req.params is copied into an array of the pool's, which travels (the caller's is left as it is). */
  gradient(req: GradientRequest): Promise<GradientResult> {
    return new Promise<GradientResult>((resolve, reject) => {
      const item: Queued = { priority: req.priority ?? Number.MAX_VALUE, seq: this.queueSeq++, req, resolve, reject };
      // Sorted insertion: the queue holds at most a few requests per logical node.
      let i = this.queue.length;
      while (i > 0 && before(item, this.queue[i - 1])) i--;
      this.queue.splice(i, 0, item);
      this.dispatch();
    });
  }

  /** Hand queued gradient requests, earliest first, to workers with room. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let live: Slot[];
      try {
        live = this.liveSlots();
      } catch (e) {
        for (const q of this.queue.splice(0)) q.reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      let slot: Slot | null = null;
      for (const s of live) if (s.gradients < WORKER_DEPTH && (!slot || s.gradients < slot.gradients)) slot = s;
      if (!slot) return; // all busy: the next answer dispatches again
      const item = this.queue.shift()!;
      this.send(slot, item);
    }
  }

  private send(slot: Slot, item: Queued): void {
    const { req } = item;
    this.lastServed.set(req.node, slot);
    const fault = this.faults.get(req.node);
    this.faults.delete(req.node);
    // A large model's parameters go in an array a worker handed back, transferred with a copy of
    // the batch; a small model's arrays as they are.
    const [params, transfer] = lent(req.params, (n) => this.paramsArray(n));
    const batch = transfer.length > 0 ? req.batch.slice() : req.batch;
    if (transfer.length > 0) transfer.push(batch.buffer as ArrayBuffer);
    const timed = this.timings !== null;
    const msg: WorkerRequest = { id: 0, kind: 'gradient', node: req.node, params, batch, fault, ...(timed ? { timed } : {}) };
    slot.gradients++;
    const sent = timed ? sharedClock() : 0;
    this.call(slot, msg, transfer).then(
      (r) => {
        slot.gradients--;
        const g = r as GradientReply;
        if (this.timings && g.at) this.timings.push({ worker: slot.index, sent, taken: g.at[0], replied: g.at[1], answered: sharedClock() });
        if (g.params && this.spareParams.length < MAX_SPARE_PARAMS) this.spareParams.push(g.params);
        item.resolve({ grad: g.grad, loss: g.loss });
        this.dispatch();
      },
      (e: unknown) => {
        slot.gradients--;
        item.reject(e instanceof Error ? e : new Error(String(e)));
        this.dispatch();
      },
    );
  }

  /** The gradient requests' timings recorded since the last call (none unless created with `timings`). */
  takeTimings(): RequestTiming[] {
    const t = this.timings ?? [];
    if (this.timings) this.timings = [];
    return t;
  }

  /** An array for a request's parameters: one a worker handed back, or a new one. */
  private paramsArray(length: number): Float32Array {
    while (this.spareParams.length > 0) {
      const a = this.spareParams.pop()!;
      if (a.length === length && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) return a;
    }
    return new Float32Array(length);
  }

  /** The caller keeps its params: a copy travels. */
  async evaluate(params: Float32Array): Promise<Evaluation> {
    const [copy, transfer] = lent(params);
    return (await this.call(this.pick(), { id: 0, kind: 'evaluate', params: copy }, transfer)) as Evaluation;
  }

  async predictGrid(params: Float32Array, res: number): Promise<Float32Array> {
    const [copy, transfer] = lent(params);
    const msg: WorkerRequest = { id: 0, kind: 'predictGrid', params: copy, res };
    return (await this.call(this.pick(), msg, transfer)) as Float32Array;
  }

  /** Backend of the worker that last served `node` (any live worker's before the first step). */
  backendFor(node: string): string {
    const slot = this.lastServed.get(node) ?? this.slots.find((s) => s.alive && s.backend);
    return slot?.backend ?? 'none';
  }

  /**
   * Test hook: the next gradient request for `node` fails inside its worker. 'throw' rejects that
   * request only; 'crash' kills the worker (uncaught error), rejecting all its pending requests.
   */
  injectFault(node: string, mode: FaultMode = 'throw'): void {
    this.faults.set(node, mode);
  }

  /**
   * Benchmark baseline: every live worker runs a bare tfjs loop over the same batches at once
   * (the parallelism the cluster gets); returns their summed steps per second.
   */
  async benchBare(batches: Uint32Array[]): Promise<number> {
    const live = this.slots.filter((s) => s.alive && s.backend);
    const rates = await Promise.all(live.map((s) => this.call(s, { id: 0, kind: 'benchBare', batches: batches.map((b) => b.slice()) }, [])));
    return (rates as number[]).reduce((a, b) => a + b, 0);
  }

  workers(): PoolWorkerInfo[] {
    return this.slots.map((s) => ({
      index: s.index,
      backend: s.backend,
      fallbacks: s.fallbacks,
      alive: s.alive,
      pending: s.pending.size,
    }));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const q of this.queue.splice(0)) q.reject(new Error('worker pool disposed'));
    for (const s of this.slots) {
      if (!s.alive) continue;
      s.alive = false;
      s.worker.terminate();
      for (const p of s.pending.values()) p.reject(new Error('worker pool disposed'));
      s.pending.clear();
    }
  }
}
