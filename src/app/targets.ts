import type { RunReader } from '../engine/runReader';
import { actionTable } from '../scenario/actions';
import { tamperFact } from '../scenario/wireFacts';
import type { ActionKind, NodeId } from '../sim/types';
import type { ClusterTarget, LinkTarget, NodeTarget } from './actionMenu';
import { parseSelection } from './act';
import { partitionFromDraft } from './partition';
import type { Side } from './store';

/**
 * The action menu's targets, read from the run at the time the action would apply: the cursor
 * when scrubbed back (acting there forks the run), else now.
 */

/** Actions that only a strategy defines (Raft's timeout): offered where the strategy accepts them. */
const strategyKinds: ActionKind[] = actionTable.filter((a) => a.when?.includes('strategy')).map((a) => a.do);

export function nodeTarget(sim: RunReader, id: NodeId, t: number): NodeTarget | null {
  const n = sim.stateAt(t).nodes.find((x) => x.id === id);
  if (!n) return null;
  // The slow factor `slow` actions set, without the scenario's persistent straggler factor.
  const straggler = sim.scenario.compute.stragglers.filter((s) => s.node === id).reduce((a, s) => a * s.slowdown, 1);
  return {
    kind: 'node',
    id,
    up: n.up,
    values: { factor: n.slowFactor / straggler },
    accepts: new Set(strategyKinds.filter((k) => sim.acceptsAction(k, id))),
    worker: n.role === 'worker',
    byzantine: n.byzantine !== undefined,
  };
}

/** `wire`: a tamper here has updates to alter (not on a ring, not on the coordination service's links). */
export function linkTarget(sim: RunReader, from: NodeId, to: NodeId, t: number): LinkTarget | null {
  const l = sim.stateAt(t).links.find((x) => x.from === from && x.to === to);
  return l ? { kind: 'link', from, to, cut: l.cut, tampered: l.tamper !== undefined, wire: tamperFact(sim.strategyKind, from, to) === null } : null;
}

export function clusterTarget(sim: RunReader, draft: Record<string, Side>): ClusterTarget {
  return { kind: 'cluster', partition: partitionFromDraft(draft, sim.nodes().map((n) => n.id)), coordination: sim.scenario.cluster.coord > 0 };
}

/** The selection (a node id or `from-to`) as a target, or null. */
export function selectionTarget(sim: RunReader, sel: string | null, t: number): NodeTarget | LinkTarget | null {
  const p = parseSelection(sel);
  if (!p) return null;
  return 'node' in p ? nodeTarget(sim, p.node, t) : linkTarget(sim, p.from, p.to, t);
}
