import { describe, expect, it } from 'vitest';
import type { NodeState } from '../../engine/index/runState';
import type { NodeFacts } from '../../protocols/facts';
import { labelledVersions, nodeLabel, type NodeDatum } from './topologyNodes';

const node = (id: string, role: NodeState['role'], version: number, facts: NodeFacts | null = null): NodeState => ({
  id,
  role,
  up: true,
  version,
  synced: version,
  steps: version,
  slowFactor: 1,
  computing: null,
  facts,
});

describe('labelledVersions', () => {
  // ZooKeeper's zxid: the epoch in the high 32 bits.
  const zxid = 1 * 2 ** 32 + 39;
  const coord: NodeFacts = { kind: 'coord-server', service: 'zookeeper', role: 'leader', term: 1, leader: 'c0', commit: zxid, revision: zxid, leases: [], locks: [], meta: [] };

  it("sizes the labels by the drawn versions only: a coordination server's ten-digit zxid is not drawn and does not widen them", () => {
    const nodes = [node('w0', 'worker', 15), node('s0', 'server', 0, { kind: 'ps-server', version: 14 }), node('c0', 'coord', 0, coord)];
    const { shown, digits } = labelledVersions(nodes, () => undefined);
    expect(digits).toBe(3);
    // Still the node's version for its tooltip and aria-label.
    expect(shown.get('c0')).toBe(zxid);
    expect(shown.get('s0')).toBe(14);
  });

  it('grows with a drawn version that gains a digit (worker or parameter server)', () => {
    expect(labelledVersions([node('w0', 'worker', 12345)], () => undefined).digits).toBe(5);
    expect(labelledVersions([node('s0', 'server', 0, { kind: 'ps-server', version: 1234 }), node('w0', 'worker', 9)], () => undefined).digits).toBe(4);
    // A server without facts (crashed) falls back to the engine's sample.
    expect(labelledVersions([node('s0', 'server', 0)], (id) => (id === 's0' ? 123456 : null)).digits).toBe(6);
  });
});

describe('nodeLabel (a node\'s aria-label)', () => {
  const datum = (n: NodeState, isWorker: boolean, term: number | null): NodeDatum => ({ id: n.id, node: n, role: n.role, term, version: n.version, backend: isWorker ? 'wasm' : '', p: { x: 0, y: 0 }, colour: '#000', isWorker, out: { x: 1, y: 0 } });
  const zk = (role: 'leader' | 'follower'): NodeFacts => ({ kind: 'coord-server', service: 'zookeeper', role, term: 1, leader: 'c0', commit: 2 ** 32 + 8, revision: 2 ** 32 + 8, leases: [], locks: [], meta: [] });

  it('a coordination server says what its glyph shows: its epoch and whether it leads, not a ten-digit zxid as a version', () => {
    expect(nodeLabel(datum(node('c0', 'coord', 0, zk('leader')), false, 1), 'en', true)).toBe('c0 epoch 1: leader');
    expect(nodeLabel(datum(node('c1', 'coord', 0, zk('follower')), false, 1), 'zh', true)).not.toMatch(/v\d/);
  });

  it('a worker and a Raft server keep their version (and backend, term and role)', () => {
    expect(nodeLabel(datum(node('w0', 'worker', 12), true, null), 'en', true)).toBe('w0 v12 wasm');
    const raft: NodeFacts = { kind: 'raft-server', role: 'leader', term: 3, votedFor: 's0', leader: 's0', commitIndex: 7, lastApplied: 7, version: 7 };
    expect(nodeLabel(datum(node('s0', 'server', 7, raft), false, 3), 'en', true)).toBe('s0 v7 term 3: leader');
  });
});
