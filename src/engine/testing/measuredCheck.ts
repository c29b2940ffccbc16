import { measuredMetrics } from '../../scenario/measured';
import type { Scenario } from '../../scenario/schema';
import type { SampleSeries } from '../index/metricAt';

/**
 * The metrics a run gave a value to that the validator would call unmeasured (scenario/measured.ts):
 * any non-null value, cluster-wide or on a node; for `leaders`, which the engine reports as 0
 * where nothing elects, a leader counted.
 */
export function valuedButUnmeasured(scenario: Scenario, samples: SampleSeries): string[] {
  const measured: ReadonlySet<string> = measuredMetrics(scenario);
  const out = new Set<string>();
  const look = (row: Record<string, number | null>) => {
    for (const [m, v] of Object.entries(row)) if (v !== null && !(m === 'leaders' && v === 0) && !measured.has(m)) out.add(m);
  };
  for (const { value } of samples) {
    look(value.cluster);
    Object.values(value.nodes).forEach(look);
  }
  return [...out];
}
