import { describe, expect, it } from 'vitest';
import type { NodeView } from '../../engine/api';
import type { NodeDetail } from '../../protocols/strategy';
import { rowFacts, serverPanelModel, showServers, termColour, termText } from './serverModel';

function node(id: string, detail?: NodeDetail, up = true): NodeView {
  return { id, role: id.startsWith('w') ? 'worker' : id.startsWith('b') ? 'broker' : 'server', up, version: 0, synced: 0, steps: 0, slowFactor: 1, computing: false, status: '', backend: '', ...(detail ? { detail } : {}) };
}
const log = (from: number, to: number, term: number, commit: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ index: from + i, term, committed: from + i <= commit, label: `w0#${from + i}` }));

describe('servers panel model', () => {
  it('shows for Raft servers and Kafka brokers, not for SSP lines or degrade workers', () => {
    expect(showServers([node('w0', { role: 'client', lines: [] }), node('s0', { role: 'leader', term: 1, commitIndex: 0, log: [] })])).toBe(true);
    expect(showServers([node('w0', { role: 'eventual', term: 2 }), node('s0', { lines: ['min clock 3'] })])).toBe(false);
    expect(showServers([node('w0'), node('s0')])).toBe(false);
  });

  it('aligns every row on one index window ending at the newest entry', () => {
    const m = serverPanelModel([node('s0', { role: 'leader', term: 2, commitIndex: 9, log: log(1, 12, 2, 9) }), node('s1', { role: 'follower', term: 2, commitIndex: 9, log: log(1, 10, 2, 9) }), node('w0', { role: 'client' })], 5);
    expect(m.window).toEqual({ lo: 8, hi: 12 });
    expect(m.rows.map((r) => r.id)).toEqual(['s0', 's1']);
    expect(m.kafka).toBe(false);
  });

  it('marks a down server crashed and keeps its log (persistent state)', () => {
    const m = serverPanelModel([node('s0', { role: 'leader', term: 1, commitIndex: 2, log: log(1, 3, 1, 2) }, false)], 10);
    expect(m.rows[0].role).toBe('crashed');
    expect(m.rows[0].log).toHaveLength(3);
  });

  it('Kafka: brokers then consumers, labels as w#seq, ISR and offsets in the facts', () => {
    const m = serverPanelModel(
      [
        node('s0', { role: 'consumer', lines: ['offset 10, lag 2'] }),
        node('b0', { role: 'leader', term: 1, commitIndex: 10, log: [{ index: 11, term: 1, committed: false, label: 'w2:7' }], lines: ['p0 leader · LEO 12 · HW 10 · ISR {b0,b1} · epoch 1'] }),
      ],
      10,
    );
    expect(m.kafka).toBe(true);
    expect(m.rows.map((r) => r.id)).toEqual(['b0', 's0']);
    expect(m.rows[0].log[0].label).toBe('w2#7');
    expect(rowFacts(m.rows[0])).toBe('LEO 12 · HW 10 · ISR {b0,b1}');
    expect(rowFacts(m.rows[1])).toBe('offset 10, lag 2');
  });

  it('neighbouring terms get different colours with readable text', () => {
    for (let t = 1; t < 12; t++) {
      expect(termColour(t)).not.toBe(termColour(t + 1));
      expect(['#111', '#fff']).toContain(termText(t));
    }
  });
});
