/**
 * The metrics a scenario may name (part of schema.ts: expectations, lesson values, charts,
 * per-node samples): plain name lists, no schema code.
 */

/** Metrics the engine defines for every strategy (CONTRACTS.md §1). */
export const coreMetricNames = [
  'divergence',
  'relDivergence',
  'versionConflicts',
  'staleness',
  'version',
  'steps',
  'loss',
  'accuracy',
  'availability',
  'lostUpdates',
  'duplicateUpdates',
  'bytes',
  'messages',
  'dropped',
  'leaders',
  'meanGradStaleness',
  'violations',
] as const;

/** Metrics some strategies define (CURRICULUM §C.4); null where the strategy does not. */
export const strategyMetricNames = [
  'term',
  'commitIndex',
  'logLength',
  'maxCommitGapMs',
  'overwrittenEntries',
  'staleReads',
  'consumerLag',
  'serverConflicts',
  'isrSize',
  'rejectedWrites',
  'uncleanElections',
  'degradedWorkers',
  'lostWork',
  'mergeLossSpike',
  'fencedWrites',
  'staleWritesAccepted',
  'maxClockGap',
  'waitFraction',
  'delayedRounds',
  'timeToTarget',
  'stepsToTarget',
  'lastFencedToken',
  'inDoubt',
  'tamperedAccepted',
  'tamperedRejected',
  'replayRejected',
  'sentPerRound',
  'syncMs',
] as const;

export const metricNames = [...coreMetricNames, ...strategyMetricNames] as const;

/** Metrics with a per-node form (CONTRACTS §1, CURRICULUM §C.4/§C.5): the engine samples these per node. */
export const nodeMetricNames = [
  'version',
  'steps',
  'staleness',
  'loss',
  'accuracy',
  'availability',
  'bytes',
  'meanGradStaleness',
  'leaders',
  'term',
  'commitIndex',
  'logLength',
  'overwrittenEntries',
  'staleReads',
  'consumerLag',
  'waitFraction',
  'sentPerRound',
] as const satisfies readonly (typeof coreMetricNames[number] | typeof strategyMetricNames[number])[];
export type MetricName = (typeof metricNames)[number];
