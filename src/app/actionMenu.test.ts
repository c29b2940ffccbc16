import { describe, expect, it } from 'vitest';
import { actionTable, type ActionSpec } from '../scenario/actions';
import { parseAction } from '../scenario/parseAction';
import type { Action, ActionKind } from '../sim/types';
import { applies, choiceLabel, choicesFor, keyChoice, type Choice, type ClusterTarget, type LinkTarget, type NodeTarget, type Target } from './actionMenu';

const nodes = ['w0', 'w1', 'w2', 'w3', 's0', 's1', 's2'];

const node = (over: Partial<NodeTarget> = {}): NodeTarget => ({ kind: 'node', id: 's1', up: true, values: { factor: 1 }, accepts: new Set(), ...over });
const link = (over: Partial<LinkTarget> = {}): LinkTarget => ({ kind: 'link', from: 'w1', to: 's0', cut: false, ...over });
const draft: Action = { do: 'partition', groups: [['w0', 'w1', 's0'], ['w2', 'w3', 's1', 's2']] };
const cluster = (partition: Action | null = null, coordination = false): ClusterTarget => ({ kind: 'cluster', partition, coordination });

const actionOf = (c: Choice | null): Action | 'form' | null => (c === null ? null : 'action' in c ? c.action : 'form');

/** A target on which the entry applies: its `when` conditions read off backwards. */
function suitable(spec: ActionSpec): Target {
  const when = spec.when ?? [];
  if (spec.target === 'node') return node({ id: when.includes('worker') ? 'w1' : 's1', up: !when.includes('down'), accepts: new Set<ActionKind>(when.includes('strategy') ? [spec.do] : []), worker: when.includes('worker'), byzantine: when.includes('byzantine') });
  if (spec.target === 'link') return link({ cut: when.includes('cut'), tampered: when.includes('tampered'), wire: when.includes('wire') });
  return cluster(spec.target === 'groups' ? draft : null, when.includes('coordination'));
}

describe('every key of the action table', () => {
  it('each keyed entry is produced by its key on a suitable selection, as a valid action or its form', () => {
    const keyed = actionTable.filter((s) => s.key);
    // Every action is reachable by key (REVIEW: `timeout` was not).
    expect(keyed.map((s) => s.do).sort()).toEqual(actionTable.map((s) => s.do).sort());
    for (const spec of keyed) {
      const t = suitable(spec);
      const c = keyChoice(spec.key!, t.kind === 'cluster' ? null : t, t.kind === 'cluster' ? t : cluster());
      expect(c?.spec.do, `${spec.key} → ${spec.do}`).toBe(spec.do);
      if (c && 'action' in c) expect(parseAction(c.action, nodes), spec.do).toEqual({ ok: true, action: c.action });
    }
  });

  const cases: Array<[string, string, NodeTarget | LinkTarget | null, ClusterTarget, Action | 'form' | null]> = [
    ['p', 'applies the partition draft', null, cluster(draft), draft],
    ['p', 'opens the partition tool without a complete draft', null, cluster(), 'form'],
    ['h', 'heals whatever is selected', node(), cluster(), { do: 'heal' }],
    ['c', 'cuts an intact link', link(), cluster(), { do: 'cut', from: 'w1', to: 's0' }],
    ['c', 'restores a cut link', link({ cut: true }), cluster(), { do: 'restore', from: 'w1', to: 's0' }],
    ['c', 'does nothing on a node', node(), cluster(), null],
    ['x', 'crashes a live node', node(), cluster(), { do: 'crash', node: 's1' }],
    ['X', 'restarts a crashed node (either case)', node({ up: false }), cluster(), { do: 'restart', node: 's1' }],
    ['s', 'slows a node by the default factor', node({ id: 'w2' }), cluster(), { do: 'slow', node: 'w2', factor: 4 }],
    ['s', 'returns a slowed node to normal speed', node({ id: 'w2', values: { factor: 8 } }), cluster(), { do: 'slow', node: 'w2', factor: 1 }],
    ['s', 'does nothing on a crashed node', node({ up: false }), cluster(), null],
    ['t', 'fires the election timer of a Raft server', node({ accepts: new Set(['timeout']) }), cluster(), { do: 'timeout', node: 's1' }],
    ['t', 'does nothing where the strategy has no election timer', node({ id: 'w0' }), cluster(), null],
    ['t', 'does nothing on a crashed server', node({ up: false, accepts: new Set(['timeout']) }), cluster(), null],
    ['g', 'pauses a live node for 2 s (a GC pause)', node({ id: 'w0' }), cluster(), { do: 'pause', node: 'w0', ms: 2000 }],
    ['g', 'does nothing on a crashed node', node({ up: false }), cluster(), null],
    ['w', 'opens the metadata form where a coordination service runs', node(), cluster(null, true), 'form'],
    ['w', 'does nothing without a coordination service', node(), cluster(), null],
    ['l', 'opens the link settings of a link', link(), cluster(), 'form'],
    ['l', 'does nothing without a link', null, cluster(), null],
    ['q', 'an unbound key does nothing', node(), cluster(draft), null],
    ['m', 'puts a man-in-the-middle (flip ×10) on a parameter-server link', link({ wire: true }), cluster(), { do: 'tamper', from: 'w1', to: 's0', attack: 'flip', scale: 10 }],
    ['m', 'takes it off again', link({ wire: true, tampered: true }), cluster(), { do: 'untamper', from: 'w1', to: 's0' }],
    ['m', 'does nothing on a ring link (no parameter-server updates to alter)', link(), cluster(), null],
    ['y', 'makes a live worker Byzantine (sign flip ×10)', node({ id: 'w2', worker: true }), cluster(), { do: 'byzantine', node: 'w2', attack: 'sign-flip', scale: 10 }],
    ['y', 'makes it honest again, up or down', node({ id: 'w2', worker: true, byzantine: true, up: false }), cluster(), { do: 'honest', node: 'w2' }],
    ['y', 'does nothing on a server', node(), cluster(), null],
  ];
  it.each(cases)('%s %s', (key, _what, sel, cl, expected) => {
    expect(actionOf(keyChoice(key, sel, cl))).toEqual(expected);
  });
});

describe('menus from the table', () => {
  const items = (t: Target) => choicesFor(t).map((c) => choiceLabel(c, 'en'));

  it('a live Raft server: crash, slow ×1…×8, election timeout, pause', () => {
    expect(items(node({ accepts: new Set(['timeout']) }))).toEqual(['crash s1', 's1 back to normal speed', 'slow s1 ×2', 'slow s1 ×4', 'slow s1 ×8', 'election timeout on s1', 'pause s1 2 s (GC)']);
  });

  it('a crashed node: restart only; a worker: no election timeout', () => {
    expect(items(node({ up: false, accepts: new Set(['timeout']) }))).toEqual(['restart s1']);
    expect(items(node({ id: 'w0' }))).not.toContain('election timeout on w0');
  });

  it('links: cut or restore, and the settings form; the cluster: partition and heal', () => {
    expect(items(link())).toEqual(['cut w1↔s0', 'Link settings…']);
    expect(items(link({ cut: true }))).toEqual(['restore w1↔s0', 'Link settings…']);
    expect(items(cluster())).toEqual(['Partition…', 'heal', 'Whole network…']);
    expect(items(cluster(draft))).toEqual(['partition {w0,w1,s0} | {w2,w3,s1,s2}', 'heal', 'Whole network…']);
    expect(choicesFor(cluster()).map((c) => choiceLabel(c, 'zh'))).toEqual(['网络分区…', '修复网络', '整个网络…']);
    // With a coordination service, metadata is written from a form (key and value to type).
    expect(items(cluster(null, true))).toEqual(['Partition…', 'heal', 'Write metadata…', 'Whole network…']);
  });

  it('a worker: one item per attack; a parameter-server link: one tamper item per attack', () => {
    expect(items(node({ id: 'w2', worker: true }))).toEqual([
      'crash w2',
      'w2 back to normal speed',
      'slow w2 ×2',
      'slow w2 ×4',
      'slow w2 ×8',
      'pause w2 2 s (GC)',
      'w2 turns Byzantine: sign flip ×10',
      'w2 turns Byzantine: huge gradient ×10',
      'w2 turns Byzantine: random noise ×10',
      'w2 turns Byzantine: "A Little Is Enough" ×10',
    ]);
    expect(items(node({ id: 'w2', worker: true, byzantine: true }))).toContain('w2 is honest again');
    expect(items(link({ wire: true }))).toEqual(['cut w1↔s0', 'Link settings…', 'tamper w1→s0: flip ×10', 'tamper w1→s0: scale ×10', 'tamper w1→s0: noise ×10', 'tamper w1→s0: replay ×10']);
    expect(items(link({ wire: true, tampered: true }))).toEqual(['cut w1↔s0', 'Link settings…', 'remove the attacker from w1→s0']);
    for (const c of [...choicesFor(node({ id: 'w2', worker: true })), ...choicesFor(link({ wire: true }))]) if ('action' in c) expect(parseAction(c.action, nodes).ok, c.spec.do).toBe(true);
  });

  it('every table entry is offered on some target (reachable by mouse)', () => {
    for (const spec of actionTable) expect(choicesFor(suitable(spec)).some((c) => c.spec.do === spec.do), spec.do).toBe(true);
    expect(applies(actionTable.find((s) => s.do === 'timeout')!, node())).toBe(false);
  });
});
