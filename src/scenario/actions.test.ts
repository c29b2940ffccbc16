import { describe, expect, it } from 'vitest';
import { actionKinds } from './schema';
import { actionSpec, actionTable, actionsForKey, describeAction, parseAction, schemaFieldNames } from './actions';
import type { Action } from '../sim/types';

const nodes = ['w0', 'w1', 'w2', 'w3', 's0'];

describe('action table', () => {
  it('has exactly one entry per action schema, in schema order', () => {
    expect(actionTable.map((a) => a.do)).toEqual(actionKinds);
  });

  it("each entry's fields are exactly its schema's fields", () => {
    for (const spec of actionTable) {
      expect(spec.fields.map((f) => f.name).sort(), spec.do).toEqual(schemaFieldNames(spec.do).sort());
    }
  });

  it('every entry has labels and hints in both languages', () => {
    for (const spec of actionTable) {
      for (const t of [spec.label, spec.hint, ...spec.fields.map((f) => f.label)]) {
        expect(t.en.length).toBeGreaterThan(0);
        expect(t.zh.length).toBeGreaterThan(0);
      }
    }
  });

  it('keys: toggles share a key with their inverse, everything else is unique', () => {
    expect(actionsForKey('c').map((a) => a.do)).toEqual(['cut', 'restore']);
    expect(actionsForKey('X').map((a) => a.do)).toEqual(['crash', 'restart']);
    expect(actionsForKey('p').map((a) => a.do)).toEqual(['partition']);
    expect(actionsForKey('h').map((a) => a.do)).toEqual(['heal']);
    expect(actionsForKey('s').map((a) => a.do)).toEqual(['slow']);
    expect(actionsForKey('t').map((a) => a.do)).toEqual(['timeout']);
    expect(actionsForKey('l').map((a) => a.do)).toEqual(['link']);
    expect(actionsForKey('g').map((a) => a.do)).toEqual(['pause']);
    expect(actionsForKey('m').map((a) => a.do)).toEqual(['putMeta']);
    // Every action has a key (REVIEW: `timeout` had none reachable); the app's own keys stay free.
    for (const spec of actionTable) expect(spec.key, spec.do).toMatch(/^[a-z]$/);
    for (const reserved of ['b', ' ']) expect(actionsForKey(reserved)).toEqual([]);
    // A toggle's two entries apply in opposite states, so one key press picks exactly one.
    const opposite: Record<string, string> = { up: 'down', down: 'up', intact: 'cut', cut: 'intact' };
    for (const spec of actionTable) {
      const same = spec.key ? actionsForKey(spec.key).filter((o) => o !== spec) : [];
      for (const other of same) expect(other.when?.map((c) => opposite[c] ?? c), `${spec.do}/${other.do}`).toEqual(spec.when);
    }
    for (const spec of actionTable) {
      if (!spec.key) continue;
      const same = actionsForKey(spec.key);
      if (same.length > 1) for (const other of same) if (other !== spec) expect(spec.inverse).toBe(other.do);
    }
    for (const spec of actionTable) if (spec.inverse) expect(actionSpec(spec.inverse)).toBeDefined();
  });

  it('number field defaults pass the schema', () => {
    for (const spec of actionTable) {
      for (const f of spec.fields) {
        if (f.kind !== 'number' || f.default === undefined) continue;
        const sample: Record<string, unknown> = { do: spec.do, node: 'w0', from: 'w0', to: 'w1', [f.name]: f.default };
        for (const k of Object.keys(sample)) if (k !== 'do' && k !== f.name && !schemaFieldNames(spec.do).includes(k)) delete sample[k];
        expect(parseAction(sample, nodes), `${spec.do}.${f.name}`).toMatchObject({ ok: true });
      }
    }
  });
});

describe('parseAction', () => {
  it('accepts valid actions', () => {
    const good: Action[] = [
      { do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] },
      { do: 'heal' },
      { do: 'cut', from: 'w1', to: 'w2' },
      { do: 'restore', from: 'w1', to: 'w2', oneWay: true },
      { do: 'crash', node: 's0' },
      { do: 'restart', node: 's0' },
      { do: 'slow', node: 'w3', factor: 4 },
      { do: 'link', from: 'w0', to: 's0', latencyMs: 50, loss: 0.1 },
    ];
    for (const a of good) expect(parseAction(a, nodes)).toEqual({ ok: true, action: a });
  });

  it('rejects with the same words as a scenario timeline', () => {
    const cases: Array<[unknown, string]> = [
      [{ do: 'partition', groups: [['w0'], ['w9']] }, 'groups: node "w9" does not exist (cluster has w0-w3, s0)'],
      [{ do: 'partition', groups: [['w0', 'w1'], ['w1']] }, 'groups: node "w1" is listed more than once'],
      [{ do: 'cut', from: 'w1', to: 'w1' }, 'to: "from" and "to" are the same node ("w1"); a link joins two nodes'],
      [{ do: 'crash', node: 'w7' }, 'node: node "w7" does not exist (cluster has w0-w3, s0)'],
      [{ do: 'explode' }, 'do: unknown action "explode"; valid actions: partition, heal, cut, restore, crash, restart, slow, timeout, link, pause, putMeta'],
      [{ do: 'heal', at: 5 }, 'action: unknown field "at"'],
      [{ do: 'slow', node: 'w0', factor: 'big' }, 'factor: expected a number, got a string ("big")'],
      [{ do: 'slow', node: 'w0' }, 'factor: missing (expected a number)'],
      [{ do: 'crash', nod: 'w0' }, 'node: missing (expected a string); action: unknown field "nod" (did you mean "node"?)'],
      ['crash', 'action: expected an object, got a string ("crash")'],
    ];
    for (const [input, error] of cases) expect(parseAction(input, nodes), JSON.stringify(input)).toEqual({ ok: false, error });
  });
});

describe('describeAction', () => {
  const cases: Array<[Action, string, string]> = [
    [{ do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] }, 'partition {w0,w1} | {w2,w3}', '网络分区 {w0,w1} | {w2,w3}'],
    [{ do: 'heal' }, 'heal', '修复网络'],
    [{ do: 'cut', from: 'w1', to: 'w2', oneWay: true }, 'cut w1→w2', '切断 w1→w2'],
    [{ do: 'cut', from: 'w1', to: 'w2' }, 'cut w1↔w2', '切断 w1↔w2'],
    [{ do: 'restore', from: 'w1', to: 'w2' }, 'restore w1↔w2', '恢复 w1↔w2'],
    [{ do: 'crash', node: 'w3' }, 'crash w3', '崩溃 w3'],
    [{ do: 'restart', node: 'w3' }, 'restart w3', '重启 w3'],
    [{ do: 'slow', node: 'w2', factor: 4 }, 'slow w2 ×4', '减速 w2 ×4'],
    [{ do: 'slow', node: 'w2', factor: 1 }, 'w2 back to normal speed', 'w2 恢复正常速度'],
    [{ do: 'link', from: 'w0', to: 's0', latencyMs: 50, loss: 0.1 }, 'link w0↔s0: latency 50 ms, loss 10%', '链路 w0↔s0：延迟 50 ms，丢包率 10%'],
    [{ do: 'link', from: 'w0', to: 's0' }, 'link w0↔s0: no change', '链路 w0↔s0：无变化'],
  ];
  it.each(cases)('%j', (a, en, zh) => {
    expect(describeAction(a, 'en')).toBe(en);
    expect(describeAction(a, 'zh')).toBe(zh);
  });
});
