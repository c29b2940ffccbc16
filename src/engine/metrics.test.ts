import { describe, expect, it } from 'vitest';
import { clusterMetric, type MetricState } from './metrics';

const state = (appliedTaus: MetricState['appliedTaus']): MetricState => ({
  now: 1000,
  windowMs: 1000,
  workers: [],
  allNodes: [],
  authoritative: 0,
  nodeVersion: () => 0,
  counters: { bytes: 0, messages: 0, dropped: 0, lostUpdates: 0, duplicateUpdates: 0 },
  appliedTaus,
});

describe('meanGradStaleness', () => {
  it('averages the applies in the window', () => {
    expect(clusterMetric(state([{ t: 500, node: 'w0', tau: 2 }, { t: 900, node: 'w1', tau: 4 }]), 'meanGradStaleness')).toBe(3);
  });
  it('leaves out a negative tau: a Kafka replica whose offset went back under the read (an unclean election gave -32)', () => {
    expect(clusterMetric(state([{ t: 500, node: 'w0', tau: -32 }, { t: 900, node: 'w1', tau: 2 }]), 'meanGradStaleness')).toBe(2);
  });
});
