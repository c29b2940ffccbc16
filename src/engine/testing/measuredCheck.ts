import { electsLeader, measuredMetrics } from '../../scenario/measured';
import type { Scenario } from '../../scenario/schema';
import type { SampleSeries } from '../index/metricAt';

/**
 * The metrics a run gave a value to that the validator would call unmeasured (scenario/measured.ts):
 * any non-null value, cluster-wide or on a node. And `leaders` above 0 where `electsLeader` says
 * nothing can lead (a switch would drop an expectation on it as written for another strategy).
 */
export function valuedButUnmeasured(scenario: Scenario, samples: SampleSeries): string[] {
  const measured: ReadonlySet<string> = measuredMetrics(scenario);
  const leads = electsLeader(scenario);
  const out = new Set<string>();
  const look = (row: Record<string, number | null>) => {
    for (const [m, v] of Object.entries(row)) if (v !== null && (!measured.has(m) || (m === 'leaders' && v > 0 && !leads))) out.add(m);
  };
  for (const { value } of samples) {
    look(value.cluster);
    Object.values(value.nodes).forEach(look);
  }
  return [...out];
}
