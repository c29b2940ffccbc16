import { nodeMetricNames } from '../../scenario/metricNames';
import type { MetricSample, NodeId } from '../../sim/types';
import type { SampleSeries } from './metricSamples';

export type { SampleSeries } from './metricSamples';

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
  const i = series.lastAtOrBefore(t);
  const reached = series.length > 0 && series.t(series.length - 1) >= t;
  return { reached, value: i < 0 ? null : sampleMetric(series.value(i), metric, node) };
}
