import { coreMetricNames, nodeMetricNames, strategyMetricNames, type MetricName } from '../scenario/schema';
import type { MetricSample, NodeId, SimTime } from '../sim/types';
import type { RunDigests } from '../sim/history';
import type { ExpectationResult, LinkView, NodeView, RunSummary } from './api';
import type { EngineCore } from './core';
import { runIndexFor, type RunIndex } from './index/runIndex';
import { runStateAt, type NodeState, type RunState, type RunStatic } from './index/runState';
import { clusterMetric, nodeMetric, type MetricState } from './metrics';
import { factsSource } from './ports';
import { RoundTracker } from './rounds';
import { SnapshotSeries } from './snapshots';
import { LossTracker, RoundDelays } from './targets';
import type { Evaluation } from '../train/types';

/**
 * What the run shows: metrics (the engine's, the strategy's, the coordination service's, and
 * those derived from loss samples and step draws), node and link views, the summary, and the
 * history-derived read model (the index and the state at any t). It also keeps the books the event
 * loop feeds it: expectation results, parameter snapshots, applied staleness, loss samples.
 */
export class ReadModel {
  readonly results: ExpectationResult[];
  readonly snapshots = new Map<NodeId, SnapshotSeries>();
  readonly appliedTaus: Array<{ t: number; node: NodeId; tau: number }> = [];
  readonly losses: LossTracker;
  readonly roundDelays = new RoundDelays();
  /** sentPerRound and syncMs of lock-step strategies (rounds.ts); null for the others. */
  readonly rounds: RoundTracker | null;

  constructor(
    private readonly c: EngineCore,
    results: ExpectationResult[],
  ) {
    this.results = results;
    this.losses = new LossTracker(c.scenario.model.targetLoss, 10 * c.scenario.compute.stepMs);
    this.rounds = c.cap.consistency === 'lockstep' ? new RoundTracker(c.workerIds) : null;
  }

  // ---------------------------------------------------------------- metrics

  private metricState(): MetricState {
    const c = this.c;
    const windowMs = 10 * c.scenario.compute.stepMs;
    this.forgetOldTaus(c.t - windowMs);
    return {
      now: c.t,
      windowMs,
      workers: c.workerIds.map((id) => c.node(id)),
      authoritative: c.strategy.authoritativeVersion(),
      nodeVersion: (id) => this.nodeVersion(id),
      allNodes: [...c.rt.values()],
      counters: {
        bytes: c.bytes,
        messages: c.messages,
        dropped: c.dropped,
        lostUpdates: c.strategy.lostUpdates(),
        // Replays an attacker got accepted are old updates applied again.
        duplicateUpdates: c.strategy.duplicateUpdates() + c.security.replaysAccepted,
      },
      appliedTaus: this.appliedTaus,
    };
  }

  /**
   * Staleness is averaged over the last window only (meanTau reads back to now − window, and now
   * never goes back): older entries are dropped here, in batches, so a long run keeps a window's.
   */
  private forgetOldTaus(from: number): void {
    const a = this.appliedTaus;
    if (a.length < 1024 || a[511].t > from) return;
    let k = 512;
    while (k < a.length && a[k].t <= from) k++;
    a.splice(0, k);
  }

  /** Parameter version a node holds: its replica (workers), the strategy's (servers), none (coordination nodes). */
  nodeVersion(id: NodeId): number {
    const role = this.c.node(id).role;
    if (role === 'worker') return this.c.node(id).replica.version;
    return role === 'coord' ? 0 : this.c.strategy.nodeVersion(id);
  }

  /** The metric state, built on first use and then reused: for many metrics read at one instant. */
  private oneMetricState(): () => MetricState {
    let st: MetricState | null = null;
    return () => (st ??= this.metricState());
  }

  metric(name: MetricName, node?: NodeId): number | null {
    return this.metricIn(() => this.metricState(), name, node);
  }

  /** A metric, with the engine's state built by `state` only if a generic metric needs it. */
  private metricIn(state: () => MetricState, name: MetricName, node?: NodeId): number | null {
    const c = this.c;
    if (node) c.node(node); // unknown node: fail loudly
    if (name === 'violations') return c.violations;
    const own = node && c.isCoordNode(node) ? undefined : c.strategy.metric?.(name, node);
    if (own !== undefined) return own;
    const svc = c.coord?.metric(name, node);
    if (svc !== undefined) return svc;
    const derived = this.derivedMetric(name, node);
    if (derived !== undefined) return derived;
    const st = state();
    return node ? nodeMetric(st, name, c.node(node)) : clusterMetric(st, name);
  }

  /** Metrics derived from loss samples and step draws (targets.ts); undefined for other names. */
  private derivedMetric(name: MetricName, node?: NodeId): number | null | undefined {
    switch (name) {
      case 'sentPerRound':
        return this.rounds ? this.rounds.sentPerRound(node) : undefined;
      case 'syncMs':
        return this.rounds ? this.rounds.syncMs() : undefined;
      case 'timeToTarget':
        return this.losses.timeToTarget();
      case 'stepsToTarget':
        return this.losses.stepsToTarget();
      case 'mergeLossSpike':
        return this.losses.mergeLossSpike();
      case 'tamperedAccepted':
        return this.c.security.tamperedAccepted;
      case 'tamperedRejected':
        return this.c.security.tamperedRejected;
      case 'replayRejected':
        return this.c.security.replayRejected;
      case 'delayedRounds':
        // Lock-step rounds (all-reduce): round r is computed on version r by every worker.
        return this.c.cap.consistency === 'lockstep' && this.c.scenario.compute.transient ? this.roundDelays.fraction(this.c.strategy.authoritativeVersion()) : undefined;
      default:
        return undefined;
    }
  }

  metrics(state?: () => MetricState): Partial<Record<MetricName, number | null>> {
    const st = state ?? this.oneMetricState();
    const out: Partial<Record<MetricName, number | null>> = {};
    for (const m of coreMetricNames) out[m] = this.metricIn(st, m);
    for (const m of strategyMetricNames) {
      if (out[m] !== undefined) continue;
      // A strategy's null ("none yet") stands: only undefined ("not mine") asks the service.
      const mine = this.c.strategy.metric?.(m);
      const own = mine !== undefined ? mine : this.c.coord?.metric(m);
      const v = own !== undefined ? own : this.derivedMetric(m);
      if (v !== undefined) out[m] = v;
    }
    return out;
  }

  /** Every metric the run defines now: cluster-wide, and per node where the metric has a node form. */
  metricSample(): MetricSample {
    // One instant: the engine's state (and the strategy's counters) is read once for every metric.
    const st = this.oneMetricState();
    const cluster: Record<string, number | null> = {};
    const all = this.metrics(st);
    for (const k of Object.keys(all) as MetricName[]) cluster[k] = all[k] ?? null;
    const nodes: Record<NodeId, Record<string, number | null>> = {};
    for (const id of this.c.rt.keys()) {
      const row: Record<string, number | null> = {};
      for (const m of nodeMetricNames) {
        const v = this.metricIn(st, m, id);
        if (v !== null) row[m] = v;
      }
      nodes[id] = row;
    }
    return { cluster, nodes };
  }

  // ---------------------------------------------------------------- live views

  nodes(): NodeView[] {
    const c = this.c;
    return [...c.rt.values()].map((n) => ({
      id: n.id,
      role: n.role,
      up: n.up,
      ...(n.failed ? { failed: n.failed } : {}),
      version: this.nodeVersion(n.id),
      synced: n.replica.synced,
      steps: n.steps,
      slowFactor: n.slowFactor * n.straggler,
      computing: n.computing,
      backend: n.role === 'worker' ? c.trainer.backendFor(n.id) : '',
      ...byzantineOf(c, n.id),
    }));
  }

  links(): LinkView[] {
    const net = this.c.network;
    const out: LinkView[] = [];
    for (const [a, b] of this.edges()) {
      for (const [from, to] of [
        [a, b],
        [b, a],
      ]) {
        const tamper = net.tamper(from, to);
        out.push({ from, to, cut: net.isCut(from, to), partitioned: net.isPartitioned(from, to), props: { ...net.props(from, to) }, ...(tamper ? { tamper: { ...tamper } } : {}) });
      }
    }
    return out;
  }

  /** The strategy's links and the coordination service's (clients to their servers, servers among themselves). */
  private edges(): Array<[NodeId, NodeId]> {
    const c = this.c;
    return c.coord ? [...c.strategy.topology(), ...c.coord.topology()] : c.strategy.topology();
  }

  /** The parameters a worker held at its newest loss sample at or before t (the replica tiles). */
  paramsAt(node: NodeId, t: SimTime): Float32Array | null {
    const best = this.snapshots.get(node)?.at(t);
    return best ? best.params.slice() : null;
  }

  /** The evaluation taken with that snapshot: per-class accuracy and sample predictions on an image dataset. */
  evaluationAt(node: NodeId, t: SimTime): Evaluation | null {
    return this.snapshots.get(node)?.at(t)?.eval ?? null;
  }

  // ---------------------------------------------------------------- the history-derived read model

  private staticMemo: RunStatic | null = null;

  /**
   * What the history index needs beyond the history itself (cluster, strategy links, defaults):
   * fixed for the run, so built once (one object: state at t memoises the links per value of it).
   */
  runStatic(): RunStatic {
    if (this.staticMemo) return this.staticMemo;
    const c = this.c;
    return (this.staticMemo = {
      nodes: [...c.rt.values()].map((n) => ({ id: n.id, role: n.role })),
      edges: this.edges(),
      // The links' defaults, as the Network got them: nicMbps is a per-node capacity, no link property.
      network: linkDefaultsOf(c.scenario.network),
      stragglers: c.scenario.compute.stragglers,
    });
  }

  /** The history, indexed (kept up to date incrementally). Views read the run at any t from here. */
  index(): RunIndex {
    return runIndexFor(this.c.history, [...this.c.rt.keys()]);
  }

  /** The run's state at t, from the history alone (t = now is the live screen). */
  stateAt(t: SimTime): RunState {
    return runStateAt(this.index(), this.runStatic(), t);
  }

  /**
   * The engine's own live node states, built from its runtime objects rather than the history:
   * tests compare them with `stateAt(now)` to prove the history holds everything a view shows.
   */
  liveNodeStates(): Array<Omit<NodeState, 'computing'> & { computing: boolean }> {
    const live = factsSource(this.c);
    return [...this.c.rt.values()].map((n) => ({
      id: n.id,
      role: n.role,
      up: n.up,
      ...(n.failed ? { failed: n.failed } : {}),
      version: n.replica.version,
      synced: n.replica.synced,
      steps: n.steps,
      slowFactor: n.slowFactor * n.straggler,
      computing: n.computing,
      facts: live.facts(n.id),
      ...byzantineOf(this.c, n.id),
      ...(n.paused ? { paused: { since: n.paused.from } } : {}),
    }));
  }

  /** Terms of the node's live replicated log (tests compare them with the history's). */
  liveLog(node: NodeId): number[] | null {
    const l = factsSource(this.c).logOf(node);
    return l ? l.entries.map((e) => l.item(e).term) : null;
  }

  /** With `digests` from the caller, or read from the history where its SHA-256 answers at once. */
  summary(digests?: RunDigests): RunSummary {
    const c = this.c;
    const metrics: RunSummary['metrics'] = {};
    const m = this.metrics();
    for (const k of Object.keys(m) as MetricName[]) {
      const v = m[k];
      if (v !== null && v !== undefined) metrics[k] = v;
    }
    const expectations = this.results.map((r) => ({
      at: r.at,
      metric: r.metric,
      ...(r.node ? { node: r.node } : {}),
      op: r.op,
      value: r.value,
      ...(r.tolerance !== undefined ? { tolerance: r.tolerance } : {}),
      actual: r.actual,
      pass: r.pass === true,
    }));
    return {
      scenario: c.scenario.id,
      seed: c.scenario.seed,
      strategy: c.scenario.strategy.kind,
      simTimeMs: c.t,
      events: c.history.length,
      params: c.init.length,
      scheduleHash: digests?.scheduleHash ?? c.history.scheduleHash(),
      eventLogHash: digests?.eventLogHash ?? c.history.eventLogHash(),
      metrics,
      nodes: [...c.rt.values()].map((n) => ({
        id: n.id,
        role: n.role,
        up: n.up,
        version: this.nodeVersion(n.id),
        steps: n.steps,
        ...(n.role === 'worker' && n.eval ? { loss: n.eval.loss, accuracy: n.eval.accuracy } : {}),
      })),
      expectations,
      pass: expectations.every((e) => e.pass),
    };
  }
}

/** A worker the engine drives as Byzantine: its attack (views and the history-derived state show it). */
function byzantineOf(c: EngineCore, id: NodeId) {
  const spec = c.adversaries.spec(id);
  return spec ? { byzantine: { ...spec } } : {};
}

function linkDefaultsOf(n: EngineCore['scenario']['network']): Omit<EngineCore['scenario']['network'], 'nicMbps'> {
  const { nicMbps: _nic, ...rest } = n;
  return rest;
}
