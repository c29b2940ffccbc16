import { applyNetAction, isNetAction, isPartitioned, linkKey, linkProps, noFaults, type NetFaults } from '../sim/faults';
import type { HistoryEvent, LinkProps, NodeId } from '../sim/types';
import type { InFlight, LinkView, NodeView } from './api';

/**
 * Scrubbing (DESIGN rule 4): the views at an earlier time t are rebuilt from the history alone.
 * One pass over the events up to t; the result is cached per (history length, t).
 */
export interface ReplaySource {
  readonly history: { readonly events: readonly HistoryEvent[] };
  readonly scenario: { network: LinkProps & Record<string, unknown>; compute: { stragglers: ReadonlyArray<{ node: string; slowdown: number }> } };
  nodes(): NodeView[];
  links(): LinkView[];
}

export interface ReplayState {
  nodes: NodeView[];
  inFlight: InFlight[];
  links: LinkView[];
}

const cache = new WeakMap<ReplaySource, { len: number; t: number; state: ReplayState }>();

export function replayAt(src: ReplaySource, t: number): ReplayState {
  const events = src.history.events;
  const hit = cache.get(src);
  if (hit && hit.t === t && hit.len === events.length) return hit.state;

  const nodes = new Map<NodeId, NodeView>(
    src.nodes().map((n) => [
      n.id,
      { ...n, up: true, failed: undefined, version: 0, synced: 0, steps: 0, slowFactor: 1, computing: false, status: '' },
    ]),
  );
  // Persistent stragglers multiply every `slow` factor (as in the engine).
  const slowBase = new Map<NodeId, number>();
  for (const s of src.scenario.compute.stragglers) slowBase.set(s.node, (slowBase.get(s.node) ?? 1) * s.slowdown);
  const inFlight = new Map<number, InFlight>();
  // The network's faults come from the one function that defines an action's effect (sim/faults.ts).
  let faults: NetFaults = noFaults;
  const nodeIds = [...nodes.keys()];
  const net = src.scenario.network;
  const base: LinkProps = { latencyMs: net.latencyMs, jitterMs: net.jitterMs, bandwidthMbps: net.bandwidthMbps, loss: net.loss, duplicate: net.duplicate };

  for (const [id, f] of slowBase) {
    const n = nodes.get(id);
    if (n) n.slowFactor = f;
  }
  for (const e of events) {
    if (e.t > t) break;
    switch (e.type) {
      case 'version': {
        const n = nodes.get(e.node);
        if (n) Object.assign(n, { version: e.version, synced: e.synced });
        break;
      }
      case 'stepStart': {
        const n = nodes.get(e.node);
        if (n) n.computing = true;
        break;
      }
      case 'stepDone': {
        const n = nodes.get(e.node);
        if (n) Object.assign(n, { computing: false, steps: e.step });
        break;
      }
      case 'crash': {
        const n = nodes.get(e.node);
        if (n) Object.assign(n, { up: false, computing: false, status: e.error ?? 'crashed', ...(e.error ? { failed: e.error } : {}) });
        break;
      }
      case 'restart': {
        const n = nodes.get(e.node);
        if (n) Object.assign(n, { up: true, failed: undefined, status: '' });
        break;
      }
      case 'send':
        inFlight.set(e.id, { id: e.id, from: e.from, to: e.to, kind: e.kind, bytes: e.bytes, sentAt: e.t, due: e.due });
        break;
      case 'deliver':
      case 'drop':
        inFlight.delete(e.id);
        break;
      case 'action': {
        const a = e.action;
        if (isNetAction(a)) {
          faults = applyNetAction(faults, a, nodeIds);
        } else if (a.do === 'slow') {
          const n = nodes.get(a.node);
          if (n) n.slowFactor = a.factor * (slowBase.get(a.node) ?? 1);
        }
        break;
      }
      default:
        break;
    }
  }
  // Messages whose delivery time is past t but whose delivery event is not in the prefix are in flight.
  const flying = [...inFlight.values()].filter((m) => m.due > t || m.sentAt === t);
  const links = src.links().map((l) => ({
    ...l,
    cut: faults.cuts.has(linkKey(l.from, l.to)),
    partitioned: isPartitioned(faults, l.from, l.to),
    props: linkProps(faults, base, l.from, l.to),
  }));
  const state = { nodes: [...nodes.values()], inFlight: flying, links };
  cache.set(src, { len: events.length, t, state });
  return state;
}
