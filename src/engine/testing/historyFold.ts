import type { LogItem, NodeFacts } from '../../protocols/facts';
import type { Strategy } from '../../protocols/strategy';
import type { HistoryEvent, NodeId, SimTime } from '../../sim/types';
import type { Simulation } from '../simulation';

/**
 * Rebuilds every node's facts and replicated log from a history's `facts` and `log` events, as a
 * view scrubbed to time t would (tests: what the history says must equal what the strategy holds).
 * `bases` gives each log's index of entries[0] now (1 for Raft, 0 for Kafka offsets; a Raft log
 * that compacted starts after its snapshot), and each folded log is given from there. A log event
 * may start past the end of what was folded: a follower that installed a snapshot (Raft §7)
 * replaced its log from after the snapshot.
 */
export function foldHistory(
  events: readonly HistoryEvent[],
  bases: ReadonlyMap<NodeId, number>,
  until: SimTime = Infinity,
): { facts: Map<NodeId, NodeFacts | null>; logs: Map<NodeId, LogItem[]> } {
  const facts = new Map<NodeId, NodeFacts | null>();
  // By absolute index (holes where a snapshot's install skipped what the node never held).
  const byIndex = new Map<NodeId, Array<LogItem | undefined>>();
  for (const e of events) {
    if (e.t > until) break;
    if (e.type === 'facts') facts.set(e.node, e.f);
    else if (e.type === 'log') {
      if (!bases.has(e.node)) throw new Error(`log event for ${e.node}, which has no log`);
      const log = byIndex.get(e.node) ?? [];
      if (e.from < 0) throw new Error(`log event for ${e.node} starts at ${e.from}`);
      log.length = e.from;
      log.push(...e.add);
      byIndex.set(e.node, log);
    }
  }
  const logs = new Map<NodeId, LogItem[]>();
  for (const [node, log] of byIndex) {
    const items: LogItem[] = [];
    for (let i = bases.get(node)!; i < log.length; i++) {
      const x = log[i]; // a hole reads as undefined (Array.prototype.some would skip it)
      if (x === undefined) throw new Error(`the history leaves a hole at ${node}'s index ${i}, after its base`);
      items.push(x);
    }
    logs.set(node, items);
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
