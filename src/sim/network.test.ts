import { describe, expect, it } from 'vitest';
import { Network } from './network';
import { rngFor } from './rng';
import type { LinkProps } from './types';

const base: LinkProps = { latencyMs: 10, jitterMs: 0, bandwidthMbps: 8, loss: 0, duplicate: 0 };
const nodes = ['w0', 'w1', 'w2', 'w3', 's0'];
const net = (p: Partial<LinkProps> = {}, seed = 1) => new Network(nodes, { ...base, ...p }, rngFor(seed, 'network'));

describe('Network timing', () => {
  it('transmission time = bytes·8 / bandwidth, plus latency', () => {
    // 8 Mbps = 8000 bits/ms = 1000 bytes/ms: 4000 bytes take 4 ms on the wire, then 10 ms latency.
    expect(net().transmit('w0', 'w1', 4000, 100).due).toBeCloseTo(114, 9);
  });

  it('is FIFO per directed link: messages queue behind each other', () => {
    const n = net();
    const a = n.transmit('w0', 'w1', 4000, 0).due; // tx 0–4, arrives 14
    const b = n.transmit('w0', 'w1', 1000, 1).due; // waits until 4, tx 4–5, arrives 15
    expect(a).toBeCloseTo(14, 9);
    expect(b).toBeCloseTo(15, 9);
    // The reverse direction and other links are independent pipes.
    expect(n.transmit('w1', 'w0', 1000, 1).due).toBeCloseTo(12, 9);
  });

  it('never reorders a link even with large jitter', () => {
    const n = net({ jitterMs: 50, latencyMs: 5, bandwidthMbps: 1000 });
    let last = -Infinity;
    for (let i = 0; i < 500; i++) {
      const d = n.transmit('w0', 'w1', 10, i * 0.5).due;
      expect(d).toBeGreaterThanOrEqual(last);
      last = d;
    }
  });

  it('jitter stays within ±jitterMs of the latency', () => {
    const n = net({ jitterMs: 3, latencyMs: 10, bandwidthMbps: 1e9 });
    for (let i = 0; i < 200; i++) {
      const d = n.transmit('w2', 'w3', 0, i * 100).due - i * 100;
      expect(d).toBeGreaterThanOrEqual(7 - 1e-9);
      expect(d).toBeLessThanOrEqual(13 + 1e-9);
    }
  });
});

describe('Network faults', () => {
  it('loses about `loss` of the messages, seeded', () => {
    const n = net({ loss: 0.3 }, 42);
    let lost = 0;
    for (let i = 0; i < 4000; i++) if (n.transmit('w0', 'w1', 10, i).dropped === 'loss') lost++;
    expect(lost / 4000).toBeGreaterThan(0.27);
    expect(lost / 4000).toBeLessThan(0.33);
    const again = net({ loss: 0.3 }, 42);
    let lost2 = 0;
    for (let i = 0; i < 4000; i++) if (again.transmit('w0', 'w1', 10, i).dropped === 'loss') lost2++;
    expect(lost2).toBe(lost);
  });

  it('duplicates about `duplicate` of the messages, the copy arriving after the original', () => {
    const n = net({ duplicate: 0.5 }, 3);
    let dup = 0;
    for (let i = 0; i < 1000; i++) {
      const tx = n.transmit('w0', 'w1', 10, i * 20);
      if (tx.duplicateDue !== undefined) {
        dup++;
        expect(tx.duplicateDue).toBeGreaterThanOrEqual(tx.due);
      }
    }
    expect(dup).toBeGreaterThan(430);
    expect(dup).toBeLessThan(570);
  });

  it('a one-way cut blocks only that direction', () => {
    const n = net();
    n.cut('w0', 'w1');
    expect(n.transmit('w0', 'w1', 10, 0).dropped).toBe('cut');
    expect(n.transmit('w1', 'w0', 10, 0).dropped).toBeUndefined();
    n.restore('w0', 'w1');
    expect(n.transmit('w0', 'w1', 10, 0).dropped).toBeUndefined();
  });

  it('partitions separate groups; unlisted nodes join the first group; heal clears cuts too', () => {
    const n = net();
    n.partition([['w0', 'w1'], ['w2', 'w3']]);
    expect(n.blocked('w0', 'w1')).toBeNull();
    expect(n.blocked('w1', 'w2')).toBe('partition');
    expect(n.blocked('w3', 'w0')).toBe('partition');
    expect(n.blocked('s0', 'w0')).toBeNull(); // s0 joined the first group
    expect(n.blocked('s0', 'w3')).toBe('partition');
    expect(n.partitionGroups()).toEqual([['w0', 'w1', 's0'], ['w2', 'w3']]);
    n.cut('w0', 'w1');
    n.heal();
    expect(n.blocked('w1', 'w2')).toBeNull();
    expect(n.blocked('w0', 'w1')).toBeNull();
    expect(n.partitionGroups()).toBeNull();
  });

  it('a new partition replaces the old one', () => {
    const n = net();
    n.partition([['w0'], ['w1', 'w2', 'w3']]);
    n.partition([['w0', 'w1'], ['w2', 'w3']]);
    expect(n.blocked('w0', 'w1')).toBeNull();
    expect(n.blocked('w1', 'w2')).toBe('partition');
  });

  it('link settings apply per direction and survive heal', () => {
    const n = net();
    n.apply({ do: 'link', from: 'w0', to: 'w1', oneWay: true, latencyMs: 100 });
    n.heal();
    expect(n.props('w0', 'w1').latencyMs).toBe(100);
    expect(n.props('w1', 'w0').latencyMs).toBe(10);
  });
});

describe('NIC capacity (network.nicMbps, CURRICULUM §C.1)', () => {
  // 8 Mbps = 1000 bytes/ms; links are ten times faster, so only the NICs limit.
  const nic = () => new Network(nodes, { ...base, latencyMs: 1, bandwidthMbps: 80 }, rngFor(1, 'network'), 8);

  it('a node’s outgoing links share its NIC: two sends at once take twice as long', () => {
    const n = nic();
    expect(n.transmit('w0', 'w1', 1000, 0).due).toBeCloseTo(2, 9); // 1 ms on the NIC + 1 ms latency
    expect(n.transmit('w0', 'w2', 1000, 0).due).toBeCloseTo(3, 9); // waits for w0's NIC
    // Without a NIC limit the second link is its own pipe (at the link's 80 Mbps).
    const free = new Network(nodes, { ...base, latencyMs: 1, bandwidthMbps: 8 }, rngFor(1, 'network'));
    expect(free.transmit('w0', 'w1', 1000, 0).due).toBeCloseTo(2, 9);
    expect(free.transmit('w0', 'w2', 1000, 0).due).toBeCloseTo(2, 9);
  });

  it('a node’s incoming links share its NIC too, separately from its outgoing one', () => {
    const n = nic();
    expect(n.transmit('w0', 's0', 1000, 0).due).toBeCloseTo(2, 9);
    expect(n.transmit('w1', 's0', 1000, 0).due).toBeCloseTo(3, 9);
    expect(n.transmit('s0', 'w2', 1000, 0).due).toBeCloseTo(2, 9); // s0's outgoing NIC is free
  });

  it('a single parameter server: N gradients in, N parameter copies out, T ≈ 2·N·M/B', () => {
    for (const N of [2, 4]) {
      const workers = nodes.slice(0, N);
      const n = nic();
      const M = 5000; // 5 ms per message on a NIC
      const heard = Math.max(...workers.map((w) => n.transmit(w, 's0', M, 0).due));
      const done = Math.max(...workers.map((w) => n.transmit('s0', w, M, heard).due));
      const B = 1000; // bytes per ms
      expect(done).toBeCloseTo((2 * N * M) / B + 2, 6); // plus one latency each way
    }
  });
});
