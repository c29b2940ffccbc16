import type { MetricName } from '../scenario/schema';
import type { NodeId, NodeRole } from '../sim/types';
import { equalVectors, l2Distance, l2Norm } from '../sim/vectors';
import type { Evaluation } from '../train/types';

/**
 * Metrics of CONTRACTS.md §1 as pure functions of the engine's current state.
 * Cluster forms range over *live* workers, as the contract says.
 */
export interface MetricNode {
  id: NodeId;
  role: NodeRole;
  up: boolean;
  steps: number;
  replica: { params: Float32Array; version: number; synced: number; onLineage: boolean };
  counted: number[];
  eval?: Evaluation;
  bytesSent: number;
}

export interface MetricState {
  now: number;
  /** Availability window: 10 × stepMs. */
  windowMs: number;
  workers: MetricNode[];
  allNodes: MetricNode[];
  authoritative: number;
  nodeVersion(id: NodeId): number;
  counters: { bytes: number; messages: number; dropped: number; lostUpdates: number; duplicateUpdates: number };
  appliedTaus: ReadonlyArray<{ t: number; node: NodeId; tau: number }>;
}

export function clusterMetric(st: MetricState, name: MetricName): number | null {
  const live = st.workers.filter((w) => w.up);
  switch (name) {
    case 'divergence':
      return maxPairwise(live);
    case 'relDivergence': {
      if (live.length < 2) return 0;
      const meanNorm = live.reduce((a, w) => a + l2Norm(w.replica.params), 0) / live.length;
      return meanNorm > 0 ? maxPairwise(live) / meanNorm : 0;
    }
    case 'versionConflicts':
      return versionConflicts(live);
    case 'staleness':
      return live.reduce((m, w) => Math.max(m, staleness(st, w)), 0);
    case 'version':
      return Math.max(st.authoritative, ...st.allNodes.filter((n) => n.up).map((n) => st.nodeVersion(n.id)), 0);
    case 'steps':
      return st.workers.reduce((a, w) => a + w.steps, 0);
    case 'loss':
    case 'accuracy': {
      const evals = live.map((w) => w.eval).filter((e): e is Evaluation => !!e);
      if (evals.length === 0) return null;
      return evals.reduce((a, e) => a + e[name], 0) / evals.length;
    }
    case 'availability':
      if (live.length === 0) return 0;
      return live.filter((w) => available(st, w)).length / live.length;
    case 'lostUpdates':
    case 'duplicateUpdates':
    case 'bytes':
    case 'messages':
    case 'dropped':
      return st.counters[name];
    case 'leaders':
      return 0; // no strategy here elects leaders yet
    case 'meanGradStaleness':
      return meanTau(st);
    default:
      return null; // defined by some strategies only; the engine asks the strategy first
  }
}

export function nodeMetric(st: MetricState, name: MetricName, n: MetricNode): number | null {
  switch (name) {
    case 'staleness':
      return n.role === 'worker' ? staleness(st, n) : 0;
    case 'version':
      return st.nodeVersion(n.id);
    case 'steps':
      return n.steps;
    case 'loss':
    case 'accuracy':
      return n.eval ? n.eval[name] : null;
    case 'availability':
      return n.up && available(st, n) ? 1 : 0;
    case 'bytes':
      return n.bytesSent;
    case 'meanGradStaleness':
      return meanTau(st, n.id);
    case 'leaders':
      return 0;
    default:
      // Pairwise and counter metrics have no per-node form: fall back to the cluster value.
      return clusterMetric(st, name);
  }
}

function staleness(st: MetricState, w: MetricNode): number {
  return Math.max(0, st.authoritative - w.replica.synced);
}

function available(st: MetricState, w: MetricNode): boolean {
  const c = w.counted;
  return c.length > 0 && c[c.length - 1] > st.now - st.windowMs;
}

/**
 * Largest distance between two live replicas that have forked. Two replicas that each hold a state
 * of the one authoritative lineage (one is an earlier version of the other) are lagging, not
 * divergent: their gap is staleness, reported there. So all-reduce mid-round, a BSP barrier or
 * Raft reads of different committed versions read 0, and local steps nobody else has (async PS
 * cut off, degrade's local SGD, a Kafka replica fed a truncated log) count in full.
 */
function maxPairwise(ws: MetricNode[]): number {
  let m = 0;
  for (let i = 0; i < ws.length; i++)
    for (let j = i + 1; j < ws.length; j++) {
      if (ws[i].replica.onLineage && ws[j].replica.onLineage) continue;
      m = Math.max(m, l2Distance(ws[i].replica.params, ws[j].replica.params));
    }
  return m;
}

function versionConflicts(ws: MetricNode[]): number {
  let c = 0;
  for (let i = 0; i < ws.length; i++)
    for (let j = i + 1; j < ws.length; j++) {
      const a = ws[i].replica;
      const b = ws[j].replica;
      if (a.version === b.version && !equalVectors(a.params, b.params)) c++;
    }
  return c;
}

function meanTau(st: MetricState, node?: NodeId): number {
  const from = st.now - st.windowMs;
  let sum = 0;
  let n = 0;
  for (let i = st.appliedTaus.length - 1; i >= 0; i--) {
    const a = st.appliedTaus[i];
    if (a.t <= from) break;
    if (node && a.node !== node) continue;
    // A negative tau is no staleness: a Kafka replica's offset went back under the gradient's read
    // (a truncated log), so its version numbers start over below it.
    if (a.tau < 0) continue;
    sum += a.tau;
    n++;
  }
  return n ? sum / n : 0;
}
