import type { Strategy } from '../protocols';
import { CLIENT_TIMER } from '../protocols/coord/api';
import type { StepResult } from '../protocols/strategy';
import { quantize } from '../sim/network';
import type { NodeId, SimTime } from '../sim/types';
import type { GradientResult } from '../train/types';
import type { EngineCore } from './core';
import type { FaultInjection } from './faultInjection';
import { checkInvariants } from './ports';
import type { ReadModel } from './readModel';
import { stretched, type Ev } from './runtime';
import { checkExpectation, evaluateWorkers, takeSample } from './sampling';

/**
 * The discrete-event loop (DESIGN "The co-simulation loop"): it pops events in order, hands each
 * to its handler — the network's deliveries, timers, completed steps, actions, samples, the end —
 * and after each one records the facts that changed and checks the invariants. Simulation
 * (simulation.ts) drives it and reads its state: busy, ended, failure.
 */
export class EventLoop {
  /** An advance (or a step waiting for its value) is in flight: nothing else may process events. */
  busy = false;
  ended = false;
  failure: string | null = null;

  constructor(
    private readonly c: EngineCore,
    private readonly strategy: Strategy,
    private readonly faults: FaultInjection,
    private readonly read: ReadModel,
    private readonly verifyFacts: boolean,
  ) {}

  /** See Simulation.advanceTo. */
  async advanceTo(until: SimTime, opts: { wallBudgetMs?: number; interrupt?: () => boolean } = {}): Promise<void> {
    if (this.busy || this.ended || this.failure) return;
    this.busy = true;
    const c = this.c;
    const target = quantize(Math.min(until, c.durationMs));
    const budget = opts.wallBudgetMs ?? Infinity;
    const interrupt = opts.interrupt;
    const start = wallNow();
    try {
      let n = 0;
      let overBudget = false;
      for (;;) {
        const next = c.queue.peek();
        if (!next || next.time > target) {
          if (target > c.t) c.t = target;
          break;
        }
        // Out of budget: stop, but only between two instants, never inside one — then every event
        // at or before now has run whenever the user can act (see PRIO_USER).
        if (overBudget && next.time > c.t) break;
        const pending = this.processNext();
        // An event that waited for a worker may have taken a frame's worth of wall time alone:
        // look at the clock after each one (reading it after every cheap event would cost more).
        if (pending) await pending;
        if (this.ended || this.failure) break;
        if ((++n % 16 === 0 || pending) && (wallNow() - start > budget || interrupt?.())) overBudget = true;
      }
    } finally {
      this.busy = false;
    }
  }

  /** Process exactly one event (the single-step control). */
  async stepEvent(): Promise<void> {
    if (this.busy || this.ended || this.failure) return;
    this.busy = true;
    try {
      const pending = this.processNext();
      if (pending) await pending;
    } finally {
      this.busy = false;
    }
  }

  /** Runs what is due at the current instant (the action just queued, and what it causes now). */
  drainNow(): void {
    const q = this.c.queue;
    for (let next = q.peek(); next && next.time <= this.c.t && !this.ended && !this.failure; next = q.peek()) {
      const pending = this.processNext();
      if (pending) {
        // Only a completed step waits for a value, and none is due in the instant of an action;
        // should one be, the next advance finishes it in order.
        this.busy = true;
        void pending.finally(() => (this.busy = false));
        return;
      }
    }
  }

  /**
   * Processes one event. Most events are handled synchronously; only those that wait for a tfjs
   * value return a promise — awaiting every event would cost a microtask turn each.
   */
  private processNext(): void | Promise<void> {
    const item = this.c.queue.pop();
    if (!item) return;
    this.c.t = item.time;
    this.c.eventSeq++;
    let pending: void | Promise<void>;
    try {
      pending = this.handle(item.event);
    } catch (err) {
      return this.fail(err);
    }
    if (pending) return pending.then(() => this.afterEvent(), (err: unknown) => this.fail(err));
    this.afterEvent();
  }

  private afterEvent(): void {
    const c = this.c;
    try {
      c.recorder.flush(c.t);
      if (this.verifyFacts) c.recorder.verifyAll(c.t);
      if (this.strategy.checkInvariants || c.coord) checkInvariants(c);
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.failure = `simulation error at t=${Math.round(this.c.t)} ms: ${err instanceof Error ? err.message : String(err)}`;
  }

  private handle(ev: Ev): void | Promise<void> {
    const c = this.c;
    switch (ev.k) {
      case 'action':
        this.faults.applyNow(ev.action, ev.source, ev.on);
        return;
      case 'deliver': {
        const { msg } = ev;
        if (!ev.arrived) {
          const blocked = c.network.blocked(msg.from, msg.to);
          if (blocked) return c.drop(msg, blocked); // the partition began while it was in flight
        }
        const to = c.node(msg.to);
        if (!to.up) return c.drop(msg, 'down');
        if (to.paused) return void to.paused.held.push({ ...ev, arrived: true }); // in its socket buffer until it resumes
        // Checked once, when the process takes it (a held message is checked on resume, in order).
        const verdict = c.security.incoming(msg);
        if (verdict !== 'ok') return c.drop(msg, verdict); // refused by its integrity check or replay protection
        c.inflight.delete(msg.id);
        c.history.append({ t: c.t, type: 'deliver', id: msg.id, from: msg.from, to: msg.to, kind: msg.kind, sentAt: msg.sentAt });
        c.recorder.touch(msg.to);
        if (c.coord && (c.node(msg.to).role === 'coord' || c.node(msg.from).role === 'coord')) c.coord.onMessage(msg);
        else this.strategy.onMessage(msg);
        return;
      }
      case 'lost':
        return c.drop(ev.msg, 'loss');
      case 'timer': {
        const n = c.node(ev.node);
        if (n.up && n.inc === ev.inc) {
          if (n.paused) return void n.paused.held.push(ev); // its timers fire late, after it resumes
          c.recorder.touch(ev.node);
          if (c.coord && (n.role === 'coord' || ev.tag.startsWith(CLIENT_TIMER))) c.coord.onTimer(ev.node, ev.tag, ev.data);
          else this.strategy.onTimer(ev.node, ev.tag, ev.data);
        }
        return;
      }
      case 'resume':
        return this.faults.resume(ev.node, ev.inc);
      case 'forced':
        return this.faults.forced(ev.action, ev.inc);
      case 'stepDone': {
        const n = c.node(ev.node);
        if (n.up && n.inc === ev.inc) {
          if (n.paused) return void n.paused.held.push(ev); // a frozen process computes nothing
          // A pause during the computation stretches it by the time the process stood still.
          const done = stretched(ev.startedAt, ev.due, n.pauses);
          if (done > c.t) return void c.queue.push(done, ev);
        }
        return this.completeStep(ev);
      }
      case 'sample':
        return takeSample(c, this.read);
      case 'expect':
        return checkExpectation(c, this.read, ev.index);
      case 'end':
        return evaluateWorkers(c).then(() => {
          c.history.append({ t: c.t, type: 'end' });
          this.ended = true;
        });
    }
  }

  private async completeStep(ev: Extract<Ev, { k: 'stepDone' }>): Promise<void> {
    const c = this.c;
    const n = c.node(ev.node);
    if (!n.up || n.inc !== ev.inc) return; // the node crashed meanwhile: the result is lost with it
    let r: GradientResult;
    try {
      r = await ev.pending;
    } catch (err) {
      this.failNode(ev.node, err instanceof Error ? err.message : String(err));
      return;
    }
    n.computing = false;
    n.steps = ev.step;
    c.history.append({ t: c.t, type: 'stepDone', node: ev.node, step: ev.step, version: ev.basedOn, v: { loss: r.loss } });
    c.recorder.touch(ev.node);
    // A Byzantine worker's program sends the attack's gradient instead of the true one.
    const grad = c.adversaries.gradient(ev.node, r.grad);
    const result: StepResult = { step: ev.step, grad, loss: r.loss, basedOn: ev.basedOn, ...(ev.transient ? { transient: true } : {}) };
    this.read.roundDelays.onStep(ev.node, ev.basedOn, ev.transient);
    this.strategy.onStepDone(ev.node, result);
  }

  /** A worker whose training code threw: mark it failed (and down) and carry on without it. */
  private failNode(id: NodeId, message: string): void {
    const n = this.c.node(id);
    n.failed = message;
    this.faults.crash(id, message);
  }
}

/** Wall clock for time-slicing only: it decides how much work fits in a frame, never what happens. */
function wallNow(): number {
  return globalThis.performance ? globalThis.performance.now() : Date.now();
}
