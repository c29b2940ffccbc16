import { strategyInfo } from '../protocols';
import { clusterNodeIds } from '../scenario/nodes';
import type { Scenario, StrategyConfig, TimelineEntry } from '../scenario/schema';
import { defaultStrategy } from './knobs';
import { resolveVariant } from '../scenario/validate';

/**
 * Edits the form controls make to the loaded scenario. Pure: each returns a new scenario (the
 * caller validates it and keeps the old one if it is rejected) plus how many timeline or
 * expectation entries had to go because they named nodes the new cluster no longer has.
 */

export interface Edit {
  scenario: Scenario;
  pruned: number;
  /** Variants a strategy switch left out: they set knobs the new strategy does not have. */
  droppedVariants?: string[];
}

function nodeIds(sc: Scenario): Set<string> {
  return new Set(clusterNodeIds(sc.cluster));
}

/** A node id ("w3", "c0"), not a selector ("@leader"), which resolves when its action fires. */
const isNodeId = (s: string): boolean => /^[wsbc]\d+$/.test(s);

function mentions(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    if (isNodeId(value)) out.add(value);
  } else if (Array.isArray(value)) value.forEach((v) => mentions(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => mentions(v, out));
}

function referencedNodes(sc: Scenario): Set<string> {
  const out = new Set<string>();
  mentions(sc.timeline, out);
  mentions(sc.expect, out);
  mentions(sc.compute.stragglers, out);
  return out;
}

/** Drops what names a node outside the cluster; partition groups lose just the missing nodes. */
function prune(sc: Scenario): Edit {
  const ids = nodeIds(sc);
  let pruned = 0;
  const timeline: TimelineEntry[] = [];
  for (const entry of sc.timeline) {
    if (entry.do === 'partition') {
      // A selector stays: "@leader" with w0, w1 still isolates whoever leads then.
      const groups = entry.groups.map((g) => g.filter((n) => !isNodeId(n) || ids.has(n))).filter((g) => g.length > 0);
      if (groups.length >= 2) {
        if (groups.flat().length !== entry.groups.flat().length) pruned++;
        timeline.push({ ...entry, groups });
      } else pruned++;
      continue;
    }
    const used = new Set<string>();
    mentions(entry, used);
    if ([...used].every((n) => ids.has(n))) timeline.push(entry);
    else pruned++;
  }
  const expect = sc.expect.filter((e) => !e.node || ids.has(e.node));
  pruned += sc.expect.length - expect.length;
  const stragglers = sc.compute.stragglers.filter((st) => ids.has(st.node));
  pruned += sc.compute.stragglers.length - stragglers.length;
  return { scenario: { ...sc, timeline, expect, compute: { ...sc.compute, stragglers } }, pruned };
}

/**
 * Switches strategy, every knob at its default. The cluster grows to what the strategy needs
 * (from the strategy registry: ps-async gets s0 if there is no server); servers the strategy would
 * leave idle (all of them for a ring, all but s0 for a single parameter server) go, unless the
 * scenario names them.
 */
export function withStrategy(sc: Scenario, kind: string): Edit | null {
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
  const kept = applicableVariants(edit.scenario);
  return { ...edit, scenario: kept.scenario, droppedVariants: kept.dropped };
}

/**
 * The variants that still make a run after a strategy switch: one that replaces the strategy
 * (Paxos → 2PC) or sets a knob the new one has stays; one that sets the old strategy's knobs
 * (raft-ps-majority's readMode under ps-sync) cannot, and goes, with the expectations that name
 * it. A lesson's script (acts, narration, its charts' shapes) walks through its variants: with one
 * gone it tells another strategy's story, so it goes too — the run is the user's own now.
 */
function applicableVariants(sc: Scenario): { scenario: Scenario; dropped: string[] } {
  const dropped = (sc.variants ?? []).filter((v) => !resolveVariant(sc, v.id).ok).map((v) => v.id);
  if (dropped.length === 0) return { scenario: sc, dropped };
  const gone = new Set(dropped);
  const variants = sc.variants!.filter((v) => !gone.has(v.id));
  const expect = sc.expect.filter((e) => !(e.variant !== undefined && gone.has(e.variant)) && !(e.than !== undefined && gone.has(e.than)));
  const { acts: _acts, narration: _narration, lesson: _lesson, shapes: _shapes, ...run } = sc;
  return { scenario: { ...run, variants, expect }, dropped };
}

export function withStrategyConfig(sc: Scenario, strategy: StrategyConfig): Scenario {
  return { ...sc, strategy };
}

export const minWorkers = 2;
export const maxWorkers = 16;

export function withWorkers(sc: Scenario, workers: number): Edit {
  const n = Math.max(minWorkers, Math.min(maxWorkers, Math.round(workers)));
  return prune({ ...sc, cluster: { ...sc.cluster, workers: n } });
}

export function withDataset(sc: Scenario, dataset: Scenario['model']['dataset']): Scenario {
  return { ...sc, model: { ...sc.model, dataset } };
}
