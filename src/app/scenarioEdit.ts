import { clusterNodeIds } from '../scenario/nodes';
import type { Scenario, StrategyConfig, TimelineEntry } from '../scenario/schema';

/**
 * Edits the form controls make to the loaded scenario. Pure: each returns a new scenario (the
 * caller validates it and keeps the old one if it is rejected) plus how many timeline or
 * expectation entries had to go because they named nodes the new cluster no longer has.
 */

export interface Edit {
  scenario: Scenario;
  pruned: number;
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

export function referencedNodes(sc: Scenario): Set<string> {
  const out = new Set<string>();
  mentions(sc.timeline, out);
  mentions(sc.expect, out);
  mentions(sc.compute.stragglers, out);
  return out;
}

/** Drops what names a node outside the cluster; partition groups lose just the missing nodes. */
export function prune(sc: Scenario): Edit {
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
