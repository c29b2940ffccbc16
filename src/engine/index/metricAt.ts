import { nodeMetricNames } from '../../scenario/metricNames';
import type { MetricSample, NodeId } from '../../sim/types';
import { lastAtOrBefore } from './series';

/** A run's metric samples in time order: the history's `metrics` events (RunIndex.metrics). */
export type SampleSeries = ReadonlyArray<{ t: number; value: MetricSample }>;

const withNodeForm: ReadonlySet<string> = new Set(nodeMetricNames);

/**
 * A metric's value in one sample: the node's row where the metric has a node form, else the
 * cluster value (the engine's own fallback for metrics without one, engine/metrics.ts). null when
 * the run does not define it there.
 */
export function sampleMetric(s: MetricSample, metric: string, node?: NodeId): number | null {
  if (node !== undefined && withNodeForm.has(metric)) return s.nodes[node]?.[metric] ?? null;
  return s.cluster[metric] ?? null;
}

/**
 * The metric at simulated time t: its newest sample at or before t. `reached` is false while the
 * run has not been sampled at or after t yet (a value there is still to come); the engine samples
 * every expectation time, so a lesson's comparison times are read exactly.
 */
export function metricAt(series: SampleSeries, metric: string, node: NodeId | undefined, t: number): { reached: boolean; value: number | null } {
  const i = lastAtOrBefore(series, t, (x) => x.t);
  const reached = series.length > 0 && series[series.length - 1].t >= t;
  return { reached, value: i < 0 ? null : sampleMetric(series[i].value, metric, node) };
}
