import type { InFlight, LinkView, NodeView } from '../../engine/api';
import type { MetricName, Scenario } from '../../scenario/schema';
import type { HistoryEvent } from '../../sim/types';
import type { Trainer } from '../../train/types';
import type { Simulation } from '../../engine/simulation';

/**
 * The part of the engine's Simulation (src/engine/ENGINE_API.md) the views read. Views depend on
 * this narrow surface rather than the class so that unit tests can hand them a fake.
 */
export interface SimView {
  readonly scenario: Scenario;
  readonly trainer: Pick<Trainer, 'predictGrid'>;
  readonly history: { readonly events: readonly HistoryEvent[] };
  readonly durationMs: number;
  now(): number;
  nodes(): NodeView[];
  links(): LinkView[];
  inFlight(): InFlight[];
  params(node: string): Float32Array;
  metric(name: MetricName, node?: string): number | null;
  nodesAt(t: number): NodeView[];
  inFlightAt(t: number): InFlight[];
  paramsAt(node: string, t: number): Float32Array | null;
  linksAt(t: number): LinkView[];
}

/** Is t the live edge (not a scrub cursor in the past)? */
export function isLive(sim: SimView, t: number): boolean {
  return t >= sim.now() - 1e-6;
}

/** The state to draw at t: the live objects at the live edge, else the history-derived ones. */
export function stateAt(sim: SimView, t: number): { nodes: NodeView[]; links: LinkView[]; inFlight: InFlight[] } {
  if (isLive(sim, t)) return { nodes: sim.nodes(), links: sim.links(), inFlight: sim.inFlight() };
  return { nodes: sim.nodesAt(t), links: sim.linksAt(t), inFlight: sim.inFlightAt(t) };
}

/** Compile-time check that the engine's Simulation offers everything the views read. */
export function asSimView(sim: Simulation): SimView {
  return sim;
}
