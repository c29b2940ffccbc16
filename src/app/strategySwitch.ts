import { strategyInfo } from '../protocols';
import { strategyMetricNames } from '../scenario/metricNames';
import type { Scenario } from '../scenario/schema';
import { resolveVariant } from '../scenario/validate';
import { defaultStrategy } from './knobs';
import { prune, referencedNodes, type Edit } from './scenarioEdit';

/** A strategy switch: the edit, and what of the scenario was written for the old strategy and left out. */
export interface StrategySwitch extends Edit {
  /** Variants that set knobs the new strategy does not have. */
  droppedVariants: string[];
  /** The strategy metrics of the expectations left out (each once). */
  droppedChecks: string[];
  /** How many expectations on those metrics went. */
  droppedCheckCount: number;
}

const strategyMetrics: ReadonlySet<string> = new Set(strategyMetricNames);

/**
 * Switches strategy, every knob at its default. The cluster grows to what the strategy needs
 * (from the strategy registry: ps-async gets s0 if there is no server); servers the strategy would
 * leave idle (all of them for a ring, all but s0 for a single parameter server) go, unless the
 * scenario names them. What was written for the old strategy goes too (see `forNewStrategy`).
 */
export function withStrategy(sc: Scenario, kind: string): StrategySwitch | null {
  const strategy = defaultStrategy(kind);
  if (!strategy) return null;
  const info = strategyInfo(kind);
  const needs = info?.needs ?? {};
  // A fresh switch builds the suggested cluster (Kafka: 3 brokers so replication means something).
  const want = { ...needs, ...info?.suggested };
  let servers = Math.max(sc.cluster.servers ?? 0, want.servers ?? 0);
  const brokers = Math.max(sc.cluster.brokers ?? 0, want.brokers ?? 0);
  const workers = Math.max(sc.cluster.workers, needs.workers ?? 0);
  // Servers it would leave idle go unless the scenario names them (an idle s1…s4 after Raft only confused).
  if (info?.usesServers !== undefined && servers > info.usesServers) {
    const named = [...referencedNodes(sc)].filter((n) => n.startsWith('s')).map((n) => Number(n.slice(1)) + 1);
    servers = Math.max(info.usesServers, needs.servers ?? 0, ...named);
  }
  const edit = prune({ ...sc, strategy, cluster: { ...sc.cluster, workers, servers, brokers } });
  return { ...forNewStrategy(edit.scenario, sc), pruned: edit.pruned };
}

/**
 * What of a scenario still applies under the strategy it was switched to (`sc`; `before` is the
 * scenario as written):
 * - a variant that replaces the strategy (Paxos → 2PC) or sets a knob the new one has stays; one
 *   that sets the old strategy's knobs (raft-ps-majority's readMode under ps-sync) goes, with the
 *   expectations that name it;
 * - an expectation on a strategy's own metric (maxCommitGapMs, consumerLag …) was a claim about
 *   the old strategy: it goes, unless it belongs to a variant whose run replaces the strategy and
 *   is the same as before. Expectations on the engine's metrics (availability, lost updates …)
 *   stay: they compare the two strategies on the same faults;
 * - the lesson's script (acts, narration, its charts' shapes) tells the old strategy's story: it
 *   goes, and the run is the user's own.
 */
function forNewStrategy(sc: Scenario, before: Scenario): Omit<StrategySwitch, 'pruned'> {
  const droppedVariants = (sc.variants ?? []).filter((v) => !resolveVariant(sc, v.id).ok).map((v) => v.id);
  const gone = new Set(droppedVariants);
  const replacing = new Set((before.variants ?? []).filter((v) => isRecord(v.patch.strategy) && 'kind' in v.patch.strategy).map((v) => v.id));
  const droppedChecks = new Set<string>();
  let droppedCheckCount = 0;
  const expect = sc.expect.filter((e) => {
    if ((e.variant !== undefined && gone.has(e.variant)) || (e.than !== undefined && gone.has(e.than))) return false;
    if (!strategyMetrics.has(e.metric) || (e.variant !== undefined && replacing.has(e.variant))) return true;
    droppedChecks.add(e.metric);
    droppedCheckCount++;
    return false;
  });
  const { acts: _acts, narration: _narration, lesson: _lesson, shapes: _shapes, ...run } = sc;
  const variants = sc.variants?.filter((v) => !gone.has(v.id));
  return { scenario: { ...run, expect, ...(variants ? { variants } : {}) }, droppedVariants, droppedChecks: [...droppedChecks], droppedCheckCount };
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
