import { clusterNodeIds } from '../scenario/nodes';
import type { MetricName, Scenario, StrategyConfig, TimelineEntry } from '../scenario/schema';
import { measuredMetrics } from '../scenario/measured';
import { resolveVariant, validateScenario } from '../scenario/validate';
import { isBaseId } from '../scenario/variants';
import { maxWorkers, minWorkers } from './plainEdits';

/**
 * Edits the form controls make to the loaded scenario. Pure: each returns a new scenario (the
 * caller validates it and keeps the old one if it is rejected) and what had to go for it to be one:
 * entries naming nodes the new cluster no longer has, variants that no longer make a run, and a
 * lesson script that no longer fits (the page's notice names each).
 */

export interface Edit {
  scenario: Scenario;
  pruned: number;
  /** Variants that no longer make a run (they set knobs the strategy lacks, or need more workers). */
  droppedVariants: string[];
  /** Whether a lesson's script (acts, narration, its charts' shapes) went: it told of another run. */
  droppedLesson: boolean;
  /** The metrics of the expectations that went because their run no longer measures them (each once; a switch adds the old strategy's). */
  droppedChecks: string[];
  /** How many expectations went for that. */
  droppedCheckCount: number;
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

/**
 * Fits an edited scenario: drops what names a node outside the cluster (partition groups lose just
 * the missing nodes; session and readFrom maps their entries) and the expectations on a metric
 * their run no longer measures (a knob turned off what measured it: raft-ps's maxRequestBytes and
 * rejectedWrites), then the variants that no longer resolve, then the lesson script if it no
 * longer fits.
 */
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
  // Node maps: coordination sessions (worker → server) and Kafka's readFrom (worker → PS replica).
  const inCluster = (m: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(m).filter(([k, v]) => ids.has(k) && ids.has(v)));
  let coordination = sc.coordination;
  if (coordination?.sessions) {
    const sessions = inCluster(coordination.sessions);
    pruned += Object.keys(coordination.sessions).length - Object.keys(sessions).length;
    coordination = { ...coordination, sessions };
  }
  let strategy = sc.strategy;
  if (strategy.kind === 'kafka-ps' && strategy.readFrom) {
    const readFrom = inCluster(strategy.readFrom);
    pruned += Object.keys(strategy.readFrom).length - Object.keys(readFrom).length;
    strategy = { ...strategy, readFrom };
  }
  const checked = measuredChecks({ ...sc, timeline, expect, compute: { ...sc.compute, stragglers }, strategy, ...(coordination ? { coordination } : {}) });
  const fitted = fitVariants(checked.scenario);
  // A lesson walks through its variants and names its nodes: with either gone it tells of another run.
  const script = new Set<string>();
  mentions([fitted.scenario.acts, fitted.scenario.narration, fitted.scenario.shapes], script);
  let lesson = { scenario: fitted.scenario, dropped: false };
  if (lesson.scenario.acts || lesson.scenario.narration) {
    const bare = withoutLesson(fitted.scenario);
    // Checked by the validator as well (a step's focus on a node one variant's cluster lacks).
    if (fitted.dropped.length > 0 || [...script].some((n) => !ids.has(n)) || (!validateScenario(fitted.scenario).ok && validateScenario(bare.scenario).ok)) lesson = bare;
  }
  return { scenario: lesson.scenario, pruned, droppedVariants: fitted.dropped, droppedLesson: lesson.dropped, droppedChecks: checked.metrics, droppedCheckCount: checked.count };
}

/** The expectations whose run measures their metric (scenario/measured.ts); a variant that makes no run is left to `fitVariants`. */
function measuredChecks(sc: Scenario): { scenario: Scenario; metrics: string[]; count: number } {
  const runs = new Map<string, Scenario | null>();
  const runOf = (variant: string | undefined): Scenario | null => {
    if (variant === undefined || variant === '*' || isBaseId(sc, variant)) return sc;
    if (!runs.has(variant)) {
      const r = resolveVariant({ ...sc, expect: [] }, variant);
      runs.set(variant, r.ok ? r.scenario : null);
    }
    return runs.get(variant) ?? null;
  };
  const metrics = new Set<string>();
  const measuredIn = (variant: string | undefined, metric: MetricName): boolean => {
    const run = runOf(variant);
    return run === null || measuredMetrics(run).has(metric);
  };
  const expect = sc.expect.filter((e) => {
    // A comparison reads the metric in the run it compares with, too.
    if (measuredIn(e.variant, e.metric) && (e.than === undefined || measuredIn(e.than, e.metric))) return true;
    metrics.add(e.metric);
    return false;
  });
  return { scenario: { ...sc, expect }, metrics: [...metrics], count: sc.expect.length - expect.length };
}

/** The variants that still make a run (each validated as its own scenario); the others go, with the expectations that name them. */
function fitVariants(sc: Scenario): { scenario: Scenario; dropped: string[] } {
  const dropped = (sc.variants ?? []).filter((v) => !resolveVariant(sc, v.id).ok).map((v) => v.id);
  if (dropped.length === 0) return { scenario: sc, dropped };
  const gone = new Set(dropped);
  const variants = sc.variants!.filter((v) => !gone.has(v.id));
  const expect = sc.expect.filter((e) => !(e.variant !== undefined && gone.has(e.variant)) && !(e.than !== undefined && gone.has(e.than)));
  return { scenario: { ...sc, variants, expect }, dropped };
}

/** The scenario without its lesson script (acts, narration, lesson facts, the charts' shapes); `dropped`: it had one. */
export function withoutLesson(sc: Scenario): { scenario: Scenario; dropped: boolean } {
  const { acts, narration, lesson, shapes, ...run } = sc;
  return { scenario: run, dropped: acts !== undefined || narration !== undefined || lesson !== undefined || shapes !== undefined };
}

/** New knobs for the same strategy; variants that no longer fit them go (`prune`). */
export function withStrategyConfig(sc: Scenario, strategy: StrategyConfig): Edit {
  return prune({ ...sc, strategy });
}


export function withWorkers(sc: Scenario, workers: number): Edit {
  const n = Math.max(minWorkers, Math.min(maxWorkers, Math.round(workers)));
  return prune({ ...sc, cluster: { ...sc.cluster, workers: n } });
}
