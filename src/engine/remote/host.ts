import { actionTable } from '../../scenario/actions';
import type { Scenario } from '../../scenario/schema';
import type { Sha256Factory } from '../../sim/history';
import { batchTransfers } from '../../sim/historyRows';
import type { ActionKind } from '../../sim/types';
import type { BackendChoice, Trainer } from '../../train/types';
import { Simulation } from '../simulation';
import type { EnginePort, FromHost, RunFacts, RunStatus, RunUpdate, ToHost } from './protocol';

/** What a host needs to start a run: its trainer (the worker's pool) and SHA-256, and how to let them go when the run is disposed. */
export type RunResources = (scenario: Scenario, backend: BackendChoice | undefined) => Promise<{ trainer: Trainer; sha256?: Sha256Factory; release?: () => Promise<void> }>;

/** Actions only a strategy defines (Raft's timeout): asked of every node after each request. */
const strategyKinds: ActionKind[] = actionTable.filter((a) => a.when?.includes('strategy')).map((a) => a.do);

/**
 * The worker's end of engine/remote: runs the simulations a page asks for and answers each
 * request with the history's new rows and the run's status (protocol.ts). Requests of one run are
 * handled one at a time, in order, as the page's driver makes them; runs are independent.
 */
export class EngineHost {
  private readonly runs = new Map<number, { sim: Simulation; queue: Promise<void>; release?: () => Promise<void> }>();

  constructor(
    private readonly port: EnginePort<ToHost, FromHost>,
    private readonly resources: RunResources,
  ) {
    port.onmessage = (e) => void this.handle(e.data);
  }

  private async handle(m: ToHost): Promise<void> {
    if (m.op === 'create') {
      try {
        const { trainer, sha256, release } = await this.resources(m.scenario, m.backend);
        const sim = await Simulation.create(m.scenario, { trainer, sha256, ...(m.sampleEveryMs === undefined ? {} : { sampleEveryMs: m.sampleEveryMs }) });
        this.runs.set(m.run, { sim, queue: Promise.resolve(), release });
        const created: RunFacts = { durationMs: sim.durationMs, cap: sim.cap, strategyKind: sim.strategyKind, runStatic: sim.runStatic() };
        this.answer(m.req, sim, { created });
      } catch (e) {
        this.fail(m.req, e);
      }
      return;
    }
    const run = this.runs.get(m.run);
    if (!run) return this.fail(m.req, new Error(`no run ${m.run} here`));
    // One request of a run at a time: an advance in flight finishes before an action is applied.
    run.queue = run.queue.then(() => this.serve(run.sim, m, run.release));
    await run.queue;
  }

  private async serve(sim: Simulation, m: Exclude<ToHost, { op: 'create' }>, release?: () => Promise<void>): Promise<void> {
    try {
      switch (m.op) {
        case 'advance':
          await sim.advanceTo(m.until, m.wallBudgetMs === undefined ? {} : { wallBudgetMs: m.wallBudgetMs });
          return this.answer(m.req, sim, {});
        case 'step':
          await sim.stepEvent();
          return this.answer(m.req, sim, {});
        case 'apply':
          return this.answer(m.req, sim, { result: m.at === undefined ? sim.apply(m.action, 'user') : sim.schedule(m.action, m.at) });
        case 'digests':
          return this.answer(m.req, sim, { digests: await sim.digests() });
        case 'grid':
          return this.answer(m.req, sim, { grid: await sim.gridAt(m.node, m.t, m.res) });
        case 'evaluation':
          return this.answer(m.req, sim, { evaluation: sim.evaluationAt(m.node, m.t) });
        case 'dispose':
          this.runs.delete(m.run);
          await release?.();
          return this.answer(m.req, sim, {});
      }
    } catch (e) {
      this.fail(m.req, e);
    }
  }

  private answer(req: number, sim: Simulation, extra: Omit<Extract<FromHost, { ok: true }>, 'req' | 'ok' | 'update'>): void {
    const update: RunUpdate = { rows: sim.history.takeRows(), status: status(sim) };
    // The rows are this answer's own copies; a grid (res² floats, small) is copied, not taken from the trainer.
    this.port.postMessage({ req, ok: true, update, ...extra }, batchTransfers(update.rows));
  }

  private fail(req: number, e: unknown): void {
    this.port.postMessage({ req, ok: false, error: e instanceof Error ? e.message : String(e) }, []);
  }
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
    links: sim.links(),
    metricSample: sim.metricSample(),
    expectations: sim.expectations(),
    userActions: sim.userActions(),
    accepts: nodes.map((n) => [n.id, strategyKinds.filter((k) => sim.acceptsAction(k, n.id))]),
  };
}
