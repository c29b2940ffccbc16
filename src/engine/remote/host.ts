import { actionTable } from '../../scenario/actions';
import type { Sha256Factory } from '../../sim/history';
import { batchTransfers } from '../../sim/historyRows';
import type { ActionKind } from '../../sim/types';
import type { Trainer, TrainerSpec } from '../../train/types';
import type { FaultMode } from '../../workers/protocol';
import { loadSecurity, needsSecurity } from '../security/load';
import { Simulation } from '../simulation';
import { statusParts, type EnginePort, type FromHost, type RunFacts, type RunStatus, type RunUpdate, type StatusPart, type ToHost, type TrainerPool } from './protocol';

interface HostRun {
  sim: Simulation;
  /** The run's requests, served one at a time. */
  queue: Promise<void>;
  trainer: number;
  /** Requests queued behind the one being served. */
  waiting: number;
  /** Each status part as last sent (JSON): a part is sent again only when it changed. */
  sent: Partial<Record<StatusPart, string>>;
}

/** A trainer a host starts when the page asks for one, and can make fail (tests). */
export type HostTrainer = Trainer & { injectFault?(node: string, mode: FaultMode): void };

/** What a host starts runs with: a trainer for a spec (the worker's pools), and SHA-256 for the runs' digests. */
export interface RunResources {
  trainer(spec: TrainerSpec, pool: TrainerPool): Promise<HostTrainer>;
  sha256?: () => Sha256Factory | undefined;
  /** The checks a page may ask for by name (app/checks/table.ts): pure functions of cloneable arguments. */
  checks?: Readonly<Record<string, (...args: never[]) => unknown>>;
}

/** Actions only a strategy defines (Raft's timeout): asked of every node after each request. */
const strategyKinds: ActionKind[] = actionTable.filter((a) => a.when?.includes('strategy')).map((a) => a.do);

/**
 * The worker's end of engine/remote: runs the simulations a page asks for and answers each
 * request with the history's new rows and the run's status (protocol.ts). Requests of one run are
 * handled one at a time, in order, as the page's driver makes them; runs are independent.
 */
export class EngineHost {
  private readonly runs = new Map<number, HostRun>();
  private readonly trainers = new Map<number, Promise<HostTrainer>>();

  constructor(
    private readonly port: EnginePort<ToHost, FromHost>,
    private readonly resources: RunResources,
  ) {
    port.onmessage = (e) => void this.handle(e.data);
  }

  private async handle(m: ToHost): Promise<void> {
    switch (m.op) {
      case 'trainer':
      case 'fault':
      case 'disposeTrainer':
        return this.trainerOp(m);
      case 'prepare':
        try {
          await Simulation.loadCode(m.scenario);
          return this.port.postMessage({ req: m.req, ok: true }, []);
        } catch (e) {
          return this.fail(m.req, e);
        }
      case 'create':
        return this.create(m);
      case 'check':
        return this.check(m);
    }
    const run = this.runs.get(m.run);
    if (!run) return this.fail(m.req, new Error(`no run ${m.run} here`));
    // One request of a run at a time: an advance in flight finishes before an action is applied —
    // at once, between two instants (its slice ends when another request of its run is waiting).
    run.waiting++;
    run.queue = run.queue.then(() => {
      run.waiting--;
      return this.serve(run, m);
    });
    await run.queue;
  }

  private async trainerOp(m: Extract<ToHost, { op: 'trainer' | 'fault' | 'disposeTrainer' }>): Promise<void> {
    try {
      if (m.op === 'trainer') {
        const made = this.resources.trainer(m.spec, m.pool);
        this.trainers.set(m.trainer, made);
        await made;
      } else {
        const t = this.trainers.get(m.trainer);
        if (!t) throw new Error(`no trainer ${m.trainer} here`);
        if (m.op === 'fault') {
          const trainer = await t;
          if (!trainer.injectFault) throw new Error('this trainer cannot be made to fail');
          trainer.injectFault(m.node, m.mode);
        } else {
          // The runs made on it go with it (nothing can advance them any more).
          this.trainers.delete(m.trainer);
          for (const [id, r] of this.runs) if (r.trainer === m.trainer) this.runs.delete(id);
          await (await t).dispose();
        }
      }
      this.port.postMessage({ req: m.req, ok: true }, []);
    } catch (e) {
      this.fail(m.req, e);
    }
  }

  private check(m: Extract<ToHost, { op: 'check' }>): void {
    try {
      const fn = this.resources.checks && Object.hasOwn(this.resources.checks, m.name) ? this.resources.checks[m.name] : undefined;
      if (!fn) throw new Error(`no check "${m.name}" here`);
      this.port.postMessage({ req: m.req, ok: true, checked: (fn as (...args: unknown[]) => unknown)(...m.args) }, []);
    } catch (e) {
      this.fail(m.req, e);
    }
  }

  private async create(m: Extract<ToHost, { op: 'create' }>): Promise<void> {
    try {
      const t = this.trainers.get(m.trainer);
      if (!t) throw new Error(`no trainer ${m.trainer} here`);
      const trainer = await t;
      const sha256 = this.resources.sha256?.();
      const sim = await Simulation.create(m.scenario, { trainer, ...(sha256 ? { sha256 } : {}), ...(m.sampleEveryMs === undefined ? {} : { sampleEveryMs: m.sampleEveryMs }) });
      const run: HostRun = { sim, queue: Promise.resolve(), trainer: m.trainer, waiting: 0, sent: {} };
      this.runs.set(m.run, run);
      const created: RunFacts = { durationMs: sim.durationMs, cap: sim.cap, strategyKind: sim.strategyKind, runStatic: sim.runStatic() };
      this.answer(m.req, run, { created });
    } catch (e) {
      this.fail(m.req, e);
    }
  }

  private async serve(run: HostRun, m: Extract<ToHost, { run: number }>): Promise<void> {
    const sim = run.sim;
    try {
      switch (m.op) {
        case 'advance':
          await sim.advanceTo(m.until, { ...(m.wallBudgetMs === undefined ? {} : { wallBudgetMs: m.wallBudgetMs }), interrupt: () => run.waiting > 0 });
          return this.answer(m.req, run, {});
        case 'step':
          await sim.stepEvent();
          return this.answer(m.req, run, {});
        case 'apply':
          // A tamper or a Byzantine worker runs the security code, loaded on first use.
          if (needsSecurity(m.action)) await loadSecurity();
          return this.answer(m.req, run, { result: m.at === undefined ? sim.apply(m.action, 'user') : sim.schedule(m.action, m.at) });
        case 'digests':
          return this.answer(m.req, run, { digests: await sim.digests() });
        case 'summary':
          return this.answer(m.req, run, { summary: await sim.summaryAsync() });
        case 'grid':
          return this.answer(m.req, run, { grid: await sim.gridAt(m.node, m.t, m.res) });
        case 'evaluation':
          return this.answer(m.req, run, { evaluation: sim.evaluationAt(m.node, m.t) });
        case 'dispose':
          // Its trainer stays: the page lets go of it (another run may share it).
          this.runs.delete(m.run);
          return this.answer(m.req, run, {});
      }
    } catch (e) {
      this.fail(m.req, e);
    }
  }

  private answer(req: number, run: HostRun, extra: Omit<Extract<FromHost, { ok: true }>, 'req' | 'ok' | 'update'>): void {
    const update: RunUpdate = { rows: run.sim.history.takeRows(), status: changed(run, status(run.sim)) };
    // The page keeps the run's history (it draws, indexes and exports it): this copy keeps only
    // what is still to be taken, so the run's memory is not held twice.
    run.sim.history.forgetTaken();
    // The rows are this answer's own copies; a grid (res² floats, small) is copied, not taken from the trainer.
    this.port.postMessage({ req, ok: true, update, ...extra }, batchTransfers(update.rows));
  }

  private fail(req: number, e: unknown): void {
    this.port.postMessage({ req, ok: false, error: e instanceof Error ? e.message : String(e) }, []);
  }
}

/** The status with each seldom-changing part left out where it is the one sent last. */
function changed(run: HostRun, st: RunStatus): RunUpdate['status'] {
  const out: RunUpdate['status'] = { ...st };
  for (const part of statusParts) {
    const json = JSON.stringify(st[part]);
    if (run.sent[part] === json) delete out[part];
    else run.sent[part] = json;
  }
  return out;
}

function status(sim: Simulation): RunStatus {
  const nodes = sim.nodes();
  return {
    now: sim.now(),
    done: sim.done,
    failure: sim.failure,
    nextEventTime: sim.nextEventTime(),
    eventsProcessed: sim.eventsProcessed,
    nodes,
    expectations: sim.expectations(),
    userActions: sim.userActions(),
    accepts: nodes.map((n) => [n.id, strategyKinds.filter((k) => sim.acceptsAction(k, n.id))]),
  };
}
