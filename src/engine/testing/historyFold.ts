import type { LogItem, NodeFacts } from '../../protocols/facts';
import type { Strategy } from '../../protocols/strategy';
import type { HistoryEvent, NodeId, SimTime } from '../../sim/types';
import type { Simulation } from '../simulation';

/**
 * Rebuilds every node's facts and replicated log from a history's `facts` and `log` events, as a
 * view scrubbed to time t would (tests: what the history says must equal what the strategy holds).
 * `bases` gives each log's index of entries[0] (1 for Raft, 0 for Kafka offsets).
 */
export function foldHistory(
  events: readonly HistoryEvent[],
  bases: ReadonlyMap<NodeId, number>,
  until: SimTime = Infinity,
): { facts: Map<NodeId, NodeFacts | null>; logs: Map<NodeId, LogItem[]> } {
  const facts = new Map<NodeId, NodeFacts | null>();
  const logs = new Map<NodeId, LogItem[]>();
  for (const e of events) {
    if (e.t > until) break;
    if (e.type === 'facts') facts.set(e.node, e.f);
    else if (e.type === 'log') {
      const base = bases.get(e.node);
      if (base === undefined) throw new Error(`log event for ${e.node}, which has no log`);
      const log = logs.get(e.node) ?? [];
      const at = e.from - base;
      if (at < 0 || at > log.length) throw new Error(`log event for ${e.node} starts at ${e.from}, past its end ${base + log.length}`);
      log.length = at;
      log.push(...e.add);
      logs.set(e.node, log);
    }
  }
  return { facts, logs };
}

/** The strategy behind a simulation (tests only). */
export function strategyOf(sim: Simulation): Strategy {
  return (sim as unknown as { strategy: Strategy }).strategy;
}

/** Every node's live log as LogItems, and the bases to fold the history with. */
export function liveLogs(sim: Simulation): { bases: Map<NodeId, number>; logs: Map<NodeId, LogItem[]> } {
  const st = strategyOf(sim);
  const bases = new Map<NodeId, number>();
  const logs = new Map<NodeId, LogItem[]>();
  for (const n of sim.nodes()) {
    const log = st.logOf?.(n.id);
    if (!log) continue;
    bases.set(n.id, log.base);
    logs.set(n.id, log.entries.map((e) => log.item(e)));
  }
  return { bases, logs };
}
