import { describe, expect, it } from 'vitest';
import type { LinkView, NodeView } from '../engine/api';
import { deriveExplainState, explain, RepairTracker, type ExplainInput } from './explain';
import type { HistoryEvent } from '../sim/types';

const props = { latencyMs: 5, jitterMs: 1, bandwidthMbps: 100, loss: 0, duplicate: 0 };

function node(id: string, over: Partial<NodeView> = {}): NodeView {
  return {
    id,
    role: id.startsWith('w') ? 'worker' : 'server',
    up: true,
    version: 10,
    synced: 10,
    steps: 10,
    slowFactor: 1,
    computing: false,
    status: '',
    backend: 'cpu',
    ...over,
  };
}

function link(from: string, to: string, over: Partial<LinkView> = {}): LinkView {
  return { from, to, cut: false, partitioned: false, props, ...over };
}

const ring = ['w0', 'w1', 'w2', 'w3'];
const ringLinks = ring.flatMap((a, i) => [link(a, ring[(i + 1) % 4]), link(ring[(i + 1) % 4], a)]);

function input(over: Partial<ExplainInput>): ExplainInput {
  return {
    strategy: 'allreduce',
    now: 8000,
    done: false,
    nodes: ring.map((id) => node(id)),
    links: ringLinks,
    lastRepairAt: null,
    metrics: { availability: 1, staleness: 0, versionConflicts: 0, divergence: 0 },
    ...over,
  };
}

describe('explain', () => {
  it('all-reduce under a partition: keeps C, gives up A, and is not "CA"', () => {
    const links = ringLinks.map((l) => (l.from === 'w1' && l.to === 'w2') || (l.from === 'w3' && l.to === 'w0') ? { ...l, partitioned: true } : l);
    const st = deriveExplainState(input({ links, metrics: { availability: 0, versionConflicts: 0 } }));
    const en = explain(st, 'en');
    expect(en).toContain('The ring is cut');
    expect(en).toContain('keeps C');
    expect(en).toContain('gives up A (availability 0)');
    expect(en).toContain('not "CA"');
    const zh = explain(st, 'zh');
    expect(zh).toContain('环被切断');
    expect(zh).toContain('放弃了 A');
    expect(zh).toContain('并不是“CA”');
  });

  it('never calls all-reduce CA in any state', () => {
    const states = [
      input({}),
      input({ now: 0 }),
      input({ nodes: ring.map((id) => node(id, { up: id !== 'w2' })) }),
      input({ nodes: ring.map((id) => node(id, { slowFactor: id === 'w3' ? 4 : 1 })) }),
      input({ lastRepairAt: 7000 }),
    ];
    for (const st of states)
      for (const lang of ['en', 'zh'] as const) {
        const text = explain(deriveExplainState(st), lang);
        expect(text).not.toMatch(/\bis CA\b|是 ?CA|（CA）/);
      }
  });

  it('all-reduce healthy mentions PC/EC; slow worker mentions EC; after heal nothing to reconcile', () => {
    expect(explain(deriveExplainState(input({})), 'en')).toContain('PC/EC');
    const slow = explain(deriveExplainState(input({ nodes: ring.map((id) => node(id, { slowFactor: id === 'w3' ? 4 : 1 })) })), 'en');
    expect(slow).toContain('w3 is slow (×4)');
    expect(explain(deriveExplainState(input({ lastRepairAt: 7000 })), 'en')).toContain('nothing to reconcile');
    // The heal sentence fades once the window has passed.
    expect(explain(deriveExplainState(input({ lastRepairAt: 1000 })), 'en')).toContain('Healthy ring');
  });

  it('all-reduce with a crashed worker blocks everyone', () => {
    const text = explain(deriveExplainState(input({ nodes: ring.map((id) => node(id, { up: id !== 'w2' })), metrics: { availability: 0 } })), 'en');
    expect(text).toContain('w2 crashed');
    expect(text).toContain('A lost (availability 0)');
  });

  it('ps-async partitioned: names the cut-off workers, A kept, C lost', () => {
    const nodes = [...ring.map((id) => node(id)), node('s0')];
    const links = ring.flatMap((w) => {
      const cut = w === 'w2' || w === 'w3';
      return [link(w, 's0', { partitioned: cut }), link('s0', w, { partitioned: cut })];
    });
    const st = deriveExplainState(input({ strategy: 'ps-async', nodes, links, metrics: { availability: 1, staleness: 40 } }));
    expect(st.isolated).toEqual(['w2', 'w3']);
    const en = explain(st, 'en');
    expect(en).toBe(
      "Both sides keep training (availability 1) but w2, w3 no longer see the server's updates: staleness and divergence grow — A kept, C lost.",
    );
    expect(explain(st, 'zh')).toContain('w2、w3');
    expect(explain(st, 'zh')).toContain('保住了 A，放弃了 C');
  });

  it('ps-async healthy says PA/EL; done prefixes the finish', () => {
    const nodes = [...ring.map((id) => node(id)), node('s0')];
    const links = ring.flatMap((w) => [link(w, 's0'), link('s0', w)]);
    const st = deriveExplainState(input({ strategy: 'ps-async', nodes, links, done: true, metrics: { availability: 1, staleness: 3 } }));
    const en = explain(st, 'en');
    expect(en.startsWith('Run finished.')).toBe(true);
    expect(en).toContain('PA/EL');
  });

  it('an unknown strategy reads its metrics honestly', () => {
    const text = explain(deriveExplainState(input({ strategy: 'some-future-kind', metrics: { availability: 0 }, nodes: ring.map((id) => node(id, { up: id !== 'w1' })) })), 'en');
    expect(text).toContain('C over A');
  });
});

describe('RepairTracker', () => {
  it('finds the last heal incrementally as the history grows', () => {
    const events: HistoryEvent[] = [{ t: 100, type: 'action', action: { do: 'partition', groups: [['w0'], ['w1']] }, source: 'user' }];
    const tr = new RepairTracker();
    expect(tr.lastRepairAt(events)).toBeNull();
    events.push({ t: 500, type: 'action', action: { do: 'heal' }, source: 'timeline' });
    expect(tr.lastRepairAt(events)).toBe(500);
    events.push({ t: 900, type: 'restart', node: 'w1' });
    expect(tr.lastRepairAt(events)).toBe(900);
  });
});
