import { strategyInfo } from '../protocols/registry';
import { electsLeader } from '../scenario/measured';
import { strategyMetricNames } from '../scenario/metricNames';
import type { Scenario } from '../scenario/schema';
import { defaultStrategy } from './knobs';
import { prune, withoutLesson, type Edit } from './scenarioEdit';

const strategyMetrics: ReadonlySet<string> = new Set(strategyMetricNames);

/**
 * Switches strategy, every knob at its default. The cluster grows to what the strategy needs
 * (from the strategy registry: ps-async gets s0 if there is no server); nodes the strategy would
 * leave idle go (servers: all of them for a ring, all but s0 for a single parameter server;
 * brokers: all but for Kafka), with the entries that name them. Variants that set the old
 * strategy's knobs go (`prune`: raft-ps-majority's readMode under ps-sync), and so does what was
 * written for the old strategy (`forNewStrategy`, and the lesson script). The edit's left-out
 * checks are both kinds: those the new run does not measure and those on the old strategy's metrics.
 */
export function withStrategy(sc: Scenario, kind: string): Edit | null {
  const strategy = defaultStrategy(kind);
  if (!strategy) return null;
  const info = strategyInfo(kind);
  const needs = info?.needs ?? {};
  // A fresh switch builds the suggested cluster (Kafka: 3 brokers so replication means something).
  const want = { ...needs, ...info?.suggested };
  // Nodes it would leave idle go, and the entries naming them (`prune`): four idle servers after
  // Raft, or Kafka's brokers under Raft, only confused (and the brokers' crashes were no fault of Raft's).
  let servers = Math.max(sc.cluster.servers ?? 0, want.servers ?? 0);
  if (info?.usesServers !== undefined) servers = Math.min(servers, Math.max(info.usesServers, needs.servers ?? 0));
  const brokers = needs.brokers ? Math.max(sc.cluster.brokers ?? 0, want.brokers ?? 0) : 0;
  const workers = Math.max(sc.cluster.workers, needs.workers ?? 0);
  const edit = prune({ ...sc, strategy, cluster: { ...sc.cluster, workers, servers, brokers } });
  const checks = forNewStrategy(edit.scenario, sc);
  const lesson = withoutLesson(checks.scenario);
  const droppedChecks = [...new Set([...edit.droppedChecks, ...checks.metrics])];
  return { ...edit, scenario: lesson.scenario, droppedLesson: edit.droppedLesson || lesson.dropped, droppedChecks, droppedCheckCount: edit.droppedCheckCount + checks.count };
}

/**
 * An expectation on a strategy's own metric (maxCommitGapMs, consumerLag …) was a claim about the
 * old strategy: it goes, unless it belongs to a variant whose run replaces the strategy and is the
 * same as before (Paxos vs 2PC's 2pc variant and its inDoubt). Expectations on the engine's
 * metrics (availability, lost updates …) stay: they compare the two strategies on the same faults —
 * but for `leaders` where nothing in the new run can lead (it would read 0 whatever happened).
 * (The lesson script goes too, in `withStrategy`: its story is the old strategy's.)
 */
function forNewStrategy(sc: Scenario, before: Scenario): { scenario: Scenario; metrics: string[]; count: number } {
  const replacing = new Set((before.variants ?? []).filter((v) => isRecord(v.patch.strategy) && 'kind' in v.patch.strategy).map((v) => v.id));
  const leaderless = !electsLeader(sc);
  const metrics = new Set<string>();
  let count = 0;
  const expect = sc.expect.filter((e) => {
    // A comparison stays only if the run it compares with replaces the strategy too.
    const keptRuns = e.variant !== undefined && replacing.has(e.variant) && (e.than === undefined || replacing.has(e.than));
    const claim = strategyMetrics.has(e.metric) || (e.metric === 'leaders' && leaderless);
    if (!claim || keptRuns) return true;
    metrics.add(e.metric);
    count++;
    return false;
  });
  return { scenario: { ...sc, expect }, metrics: [...metrics], count };
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
