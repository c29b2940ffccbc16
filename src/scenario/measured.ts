import { strategyInfo } from '../protocols/registry';
import { coreMetricNames, type MetricName } from './metricNames';
import type { ProblemFact } from './problems';
import type { Scenario } from './schema';

/**
 * Which metrics a run of a scenario gives a value to: the engine's own (every run, CONTRACTS §1;
 * `leaders` is 0 where nothing elects), its strategy's (the registry's `metrics`), its
 * coordination service's, and those derived from the run's shape. An expectation on any other
 * metric could only fail with no value ("—"): the validator refuses it, and an edit leaves it out.
 */

/** The engine's metrics of every run. */
const everyRun: readonly MetricName[] = [
  ...coreMetricNames,
  // targets.ts: null until the loss target is reached; the security counters stay 0 without security.
  'timeToTarget',
  'stepsToTarget',
  'tamperedAccepted',
  'tamperedRejected',
  'replayRejected',
];

/** A coordination service (etcd's Raft, ZooKeeper's Zab) on the coord nodes (coord/service.ts); it elects a leader too. */
const coordinationMetrics: readonly MetricName[] = ['staleReads', 'term', 'commitIndex', 'logLength', 'overwrittenEntries'];

/** Lock-step rounds (rounds.ts): what each worker sends per round and how long a round waits. */
const roundMetrics: readonly MetricName[] = ['sentPerRound', 'syncMs'];

export function measuredMetrics(s: Pick<Scenario, 'strategy' | 'cluster' | 'compute'>): ReadonlySet<MetricName> {
  const info = strategyInfo(s.strategy.kind);
  const out = new Set<MetricName>(everyRun);
  for (const m of info?.metrics(s.strategy) ?? []) out.add(m);
  if (s.cluster.coord > 0) for (const m of coordinationMetrics) out.add(m);
  if (info?.capOf(s.strategy).consistency === 'lockstep') {
    for (const m of roundMetrics) out.add(m);
    // The engine's own count of delayed rounds needs transient slowdowns to delay one.
    if (s.compute.transient) out.add('delayedRounds');
  }
  return out;
}

/** The validator's fact for an expectation on `metric` in this run, or null where the run measures it. */
export function notMeasuredFact(s: Pick<Scenario, 'strategy' | 'cluster' | 'compute'>, metric: MetricName, variant?: string): ProblemFact | null {
  const measured = measuredMetrics(s);
  if (measured.has(metric)) return null;
  const own = [...measured].filter((m) => !everyRun.includes(m));
  return { kind: 'notMeasured', metric, strategy: s.strategy.kind, own, ...(variant === undefined ? {} : { variant }) };
}

/**
 * Whether some node of the run can lead (the strategy's servers, or a coordination service): where
 * none can, `leaders` is always 0, and an expectation on it was written for another strategy.
 */
export function electsLeader(s: Pick<Scenario, 'strategy' | 'cluster'>): boolean {
  return s.cluster.coord > 0 || (strategyInfo(s.strategy.kind)?.metrics(s.strategy).includes('leaders') ?? false);
}
