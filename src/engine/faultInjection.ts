import { actionProblems, parseAction, type ParsedAction } from '../scenario/parseAction';
import type { ScenarioProblem } from '../scenario/problems';
import { tamperFact } from '../scenario/wireFacts';
import { quantize } from '../sim/network';
import type { Action, HistoryEvent, NodeId, SimTime } from '../sim/types';
import type { ActionRefusal } from './api';
import type { EngineCore } from './core';
import { needsSecurity, securityCode } from './security/load';
import { PRIO_TRIGGERED, type Trigger } from './runtime';

/**
 * What actions do (DESIGN rule 5), whoever applies them — the timeline, a timeline `on` trigger or
 * a user: selectors resolve when an action fires, network faults go to the network, crashes and
 * restarts to the node and the protocols, `pause` freezes a process, `putMeta` writes through the
 * coordination service, `timeout` goes to the strategy, `tamper` puts a man-in-the-middle on a link
 * (the security layer acts), `byzantine` / `honest` switch a worker's attack.
 */
export class FaultInjection {
  /** Timeline entries waiting for their `on` event; each fires once, at the first match. */
  private readonly triggers: Array<{ on: Trigger; action: Action; fired: boolean }> = [];
  /** The user's actions as recorded in the history (`action` events with source 'user'). */
  private readonly userActionLog: Array<{ t: SimTime; action: Action }> = [];

  constructor(private readonly c: EngineCore) {}

  /** The user's actions so far, with the simulated times they applied (for export and share). */
  userActions(): Array<{ t: SimTime; action: Action }> {
    // Kept as they are recorded: the share dialog asks on every frame, and the history grows.
    return this.userActionLog.map((a) => ({ ...a }));
  }

  addTrigger(on: Trigger, action: Action): void {
    this.triggers.push({ on, action, fired: false });
  }

  get hasTriggers(): boolean {
    return this.triggers.length > 0;
  }

  /**
   * Timeline `on` (CURRICULUM §C.1): a note named `event`, or an action event `action:<do>`, on
   * `node` if given, at or after `after`, fires the entry once; it runs at this simulated time,
   * right after the event being handled. Deterministic, because the history is.
   */
  fireTriggers(e: Extract<HistoryEvent, { type: 'note' } | { type: 'action' }>): void {
    const name = e.type === 'note' ? e.what : `action:${e.action.do}`;
    const node = e.type === 'note' ? e.node : 'node' in e.action ? e.action.node : undefined;
    for (const tr of this.triggers) {
      if (tr.fired || tr.on.event !== name || e.t < (tr.on.after ?? 0)) continue;
      if (tr.on.node !== undefined && tr.on.node !== node) continue;
      tr.fired = true;
      this.c.queue.push(this.c.t, { k: 'action', action: tr.action, source: 'timeline', on: tr.on }, PRIO_TRIGGERED);
    }
  }

  /** A user's or a test's action, checked now against the nodes as they are: the action, or why not. */
  validate(action: Action): Checked {
    const resolved = this.resolveSelectors(action);
    if ('refusal' in resolved) return { ok: false, error: refusalEnglish(resolved), refusal: resolved };
    return this.checked(parseAction(resolved, [...this.c.rt.keys()]));
  }

  /**
   * An action to apply later (sim.schedule): checked now as a timeline entry would be, its node
   * selectors left to resolve when it fires.
   */
  validateDeferred(action: Action): Checked {
    return this.checked(parseAction(action, [...this.c.rt.keys()]));
  }

  /** The engine's own refusals of a parsed live action: a tamper it cannot apply, or one whose code has not arrived. */
  private checked(parsed: ParsedAction): Checked {
    if (!parsed.ok) return invalid(parsed.problems);
    const a = parsed.action;
    if (a.do === 'tamper') {
      const problem = tamperFact(this.c.strategy.kind, a.from, a.to);
      if (problem) return invalid([{ path: [], root: 'tamper', fact: problem[1] }]);
    }
    // The app waits for it (act.ts); a caller that did not gets a refusal, not a half-applied action.
    if (needsSecurity(a) && !securityCode()) return { ok: false, error: `${a.do}: the security code has not loaded yet (await loadSecurity())`, refusal: { refusal: 'loading', action: a.do } };
    return parsed;
  }

  /** Node selectors such as "@leader" resolve when the action fires (CURRICULUM §C.1). */
  private resolveSelectors(action: Action): Action | Unresolved {
    if (action.do === 'partition') {
      const groups: NodeId[][] = [];
      for (const g of action.groups) {
        const resolved: NodeId[] = [];
        for (const id of g) {
          const r = id.startsWith('@') ? this.resolveOne(id) : id;
          if (r === null) return { refusal: 'no-match', selector: id };
          if (!groups.some((x) => x.includes(r)) && !resolved.includes(r)) resolved.push(r);
        }
        groups.push(resolved);
      }
      return { ...action, groups };
    }
    if (action.do === 'cut' || action.do === 'restore' || action.do === 'link') {
      const from = action.from.startsWith('@') ? this.resolveOne(action.from) : action.from;
      if (from === null) return { refusal: 'no-match', selector: action.from };
      const to = action.to.startsWith('@') ? this.resolveOne(action.to) : action.to;
      if (to === null) return { refusal: 'no-match', selector: action.to };
      if (from === to) return { refusal: 'same-node', from: action.from, to: action.to, node: from };
      return { ...action, from, to };
    }
    if (!('node' in action) || typeof action.node !== 'string' || !action.node.startsWith('@')) return action;
    const r = this.resolveOne(action.node);
    return r === null ? { refusal: 'no-match', selector: action.node } : { ...action, node: r };
  }

  /** The node a selector names now, or null when it matches nothing. */
  private resolveOne(sel: string): NodeId | null {
    const c = this.c;
    if (sel === '@crashed') return [...c.rt.values()].find((n) => !n.up)?.id ?? null;
    // With a coordination service, the strategy's leader comes first (raft-ps, Kafka); else the service's.
    if (sel === '@leader' && c.coord) return c.strategy.resolveSelector?.(sel) ?? c.coord.leader() ?? null;
    return c.strategy.resolveSelector?.(sel) ?? null;
  }

  /** The action takes effect now (its event is being handled). */
  applyNow(requested: Action, source: 'user' | 'timeline', on?: Trigger): void {
    const c = this.c;
    const resolved = this.resolveSelectors(requested);
    if ('refusal' in resolved) {
      c.history.append({ t: c.t, type: 'note', what: 'actionSkipped', data: { selector: selectorOf(requested) } });
      return;
    }
    const action = resolved;
    c.history.append(on ? { t: c.t, type: 'action', action, source, on } : { t: c.t, type: 'action', action, source });
    if (source === 'user') this.userActionLog.push({ t: c.t, action });
    switch (action.do) {
      case 'partition':
      case 'heal':
      case 'cut':
      case 'restore':
      case 'link':
      case 'network':
      case 'untamper':
        return c.network.apply(action);
      case 'tamper':
        c.network.apply(action);
        c.security.onTamper(action.from, action.to);
        return;
      case 'byzantine':
        c.adversaries.set(action.node, { attack: action.attack, ...(action.scale !== undefined ? { scale: action.scale } : {}) });
        c.recorder.touch(action.node);
        return;
      case 'honest':
        c.adversaries.clear(action.node);
        c.recorder.touch(action.node);
        return;
      case 'crash':
        return this.crash(action.node);
      case 'restart':
        return this.restart(action.node);
      case 'slow':
        c.node(action.node).slowFactor = action.factor;
        return;
      case 'timeout':
      case 'submit':
        return this.forced(action, c.node(action.node).inc);
      case 'pause':
        return this.pause(action.node, action.ms);
      case 'putMeta': {
        const why = !c.coord ? 'no-coordination-service' : c.coord.putMeta(action.key, action.value) ? null : 'no-leader';
        if (why) c.history.append({ t: c.t, type: 'note', what: 'actionIgnored', data: { reason: why } });
        return;
      }
    }
  }

  /**
   * Fires a node's election timer now (`timeout`) or makes a manual client send (`submit`). A
   * paused process does neither until it resumes, as with its own timers: it ran for election while
   * frozen (a run's s0 sent RequestVotes from inside a pause) — the action is recorded when it was
   * taken, and takes effect at the resume. Lost if the process crashes first (`inc` changed).
   */
  forced(action: Extract<Action, { do: 'timeout' | 'submit' }>, inc: number): void {
    const c = this.c;
    const n = c.node(action.node);
    if (n.inc !== inc) return; // crashed since it reached the paused process
    if (n.up && n.paused) return void n.paused.held.push({ k: 'forced', action, inc });
    c.recorder.touch(action.node);
    if (n.up && !c.strategy.onAction?.(action)) {
      c.history.append({ t: c.t, type: 'note', node: action.node, what: 'actionIgnored', data: { reason: action.do === 'timeout' ? 'no-election-timer' : 'no-manual-client' } });
    }
  }

  /**
   * Freezes a process (a GC pause): it handles nothing until `ms` later; what reaches it waits in
   * its queue; its computation stands still. Its state is untouched. A pause of a paused process
   * extends it.
   */
  private pause(id: NodeId, ms: number): void {
    const c = this.c;
    const n = c.node(id);
    if (!n.up) return;
    const until = quantize(c.t + ms);
    if (n.paused) {
      if (until <= n.paused.until) return;
      n.paused.until = until;
      n.pauses[n.pauses.length - 1].until = until;
    } else {
      n.paused = { from: c.t, until, held: [] };
      n.pauses.push({ from: c.t, until });
    }
    c.recorder.touch(id);
    c.queue.push(until, { k: 'resume', node: id, inc: n.inc });
  }

  /** The pause is over: the process handles what queued up, in arrival order, now. */
  resume(id: NodeId, inc: number): void {
    const c = this.c;
    const n = c.node(id);
    if (!n.paused || n.inc !== inc || n.paused.until !== c.t) return; // superseded by a longer pause, or crashed
    const { from, held } = n.paused;
    n.paused = null;
    c.history.append({ t: c.t, type: 'note', node: id, what: 'resumed', data: { pausedMs: quantize(c.t - from), queued: held.length } });
    c.recorder.touch(id);
    for (const ev of held) c.queue.push(c.t, ev);
  }

  crash(id: NodeId, error?: string): void {
    const c = this.c;
    const n = c.node(id);
    if (!n.up) return;
    n.up = false;
    n.inc++;
    n.computing = false;
    // A crash ends a pause: what waited in its queue is lost with the process (delivered to a dead node: dropped).
    const held = n.paused?.held ?? [];
    n.paused = null;
    n.pauses = [];
    for (const ev of held) c.queue.push(c.t, ev);
    c.history.append(error ? { t: c.t, type: 'crash', node: id, error } : { t: c.t, type: 'crash', node: id });
    c.recorder.touch(id);
    if (n.role === 'coord') c.coord?.onCrash(id);
    else {
      c.coord?.onCrash(id);
      c.strategy.onCrash(id);
    }
  }

  private restart(id: NodeId): void {
    const c = this.c;
    const n = c.node(id);
    if (n.up) return;
    n.up = true;
    n.failed = undefined;
    n.inc++;
    // The process starts empty: the strategy fetches state for it.
    n.replica = { params: c.init.slice(), version: 0, synced: 0, onLineage: true, hash: c.lineage.get(0)! };
    c.history.append({ t: c.t, type: 'restart', node: id });
    c.security.onRestart(id);
    // The empty replica is a version change like any other: the history says so explicitly.
    if (n.role === 'worker') c.history.append({ t: c.t, type: 'version', node: id, version: 0, synced: 0, v: { hash: c.lineage.get(0)! } });
    c.recorder.touch(id);
    if (n.role === 'coord') c.coord?.onRestart(id);
    else {
      c.coord?.onRestart(id);
      c.strategy.onRestart(id);
    }
  }
}

/** The selector an action named where it takes a node (for the actionSkipped note). */
type Checked = { ok: true; action: Action } | { ok: false; error: string; refusal: ActionRefusal };
type Unresolved = Extract<ActionRefusal, { refusal: 'no-match' | 'same-node' }>;
/** An action's problems as the engine's refusal, with their English line. */
function invalid(problems: ScenarioProblem[]): Checked {
  const { error } = actionProblems(problems);
  return { ok: false, error, refusal: { refusal: 'invalid', problems } };
}

/** A selector's refusal in English, for `error` (the app words `refusal` itself). */
function refusalEnglish(r: Unresolved): string {
  if (r.refusal === 'same-node') return `to: "${r.from}" and "${r.to}" are the same node now (${r.node}); a link joins two nodes`;
  return r.selector === '@crashed' ? 'no crashed node for "@crashed"' : `no node matches "${r.selector}" now`;
}

function selectorOf(a: Action): string {
  if ('node' in a && typeof a.node === 'string' && a.node.startsWith('@')) return a.node;
  if (a.do === 'partition') return a.groups.flat().find((id) => id.startsWith('@')) ?? '';
  if (a.do === 'cut' || a.do === 'restore' || a.do === 'link') return [a.from, a.to].find((id) => id.startsWith('@')) ?? '';
  return '';
}
