import { describe, expect, it } from 'vitest';
import { actionKinds, actionSchemas } from './schema';
import { actionSpec, actionTable, actionsForKey, type Condition } from './actions';
import { schemaFieldNames } from './actionSchemas';
import { describeAction } from './describeAction';
import { parseAction } from './parseAction';
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

  it('choice fields offer exactly the values their schema accepts, each labelled', () => {
    for (const spec of actionTable) {
      for (const f of spec.fields.filter((x) => x.kind === 'choice')) {
        const field = (actionSchemas[spec.do].shape as Record<string, { options?: readonly string[] }>)[f.name];
        expect(f.options!.map((o) => o.value), `${spec.do}.${f.name}`).toEqual([...field.options!]);
        for (const o of f.options!) expect(o.label.length).toBeGreaterThan(0);
      }
    }
    expect(actionSpec('tamper').fields.find((f) => f.name === 'attack')!.options!.map((o) => o.value)).toEqual(['flip', 'scale', 'noise', 'replay']);
  });

  it('every entry has a label and a hint, and each field a label (in English: app/words/actionWords.test.ts checks the other languages)', () => {
    for (const spec of actionTable) for (const t of [spec.label, spec.hint, ...spec.fields.map((f) => f.label)]) expect(t.length, spec.do).toBeGreaterThan(0);
  });

  it('keys: toggles share a key with their inverse, everything else is unique', () => {
    expect(actionsForKey('c').map((a) => a.do)).toEqual(['cut', 'restore']);
    expect(actionsForKey('X').map((a) => a.do)).toEqual(['crash', 'restart']);
    expect(actionsForKey('p').map((a) => a.do)).toEqual(['partition']);
    expect(actionsForKey('h').map((a) => a.do)).toEqual(['heal']);
    expect(actionsForKey('s').map((a) => a.do)).toEqual(['slow']);
    expect(actionsForKey('m').map((a) => a.do)).toEqual(['tamper', 'untamper']);
    expect(actionsForKey('y').map((a) => a.do)).toEqual(['byzantine', 'honest']);
    expect(actionsForKey('t').map((a) => a.do)).toEqual(['timeout']);
    expect(actionsForKey('l').map((a) => a.do)).toEqual(['link']);
    expect(actionsForKey('g').map((a) => a.do)).toEqual(['pause']);
    expect(actionsForKey('w').map((a) => a.do)).toEqual(['putMeta']);
    // Every action has a key (REVIEW: `timeout` had none reachable); the app's own keys stay free.
    for (const spec of actionTable) expect(spec.key, spec.do).toMatch(/^[a-z]$/);
    for (const reserved of ['b', ' ']) expect(actionsForKey(reserved)).toEqual([]);
    // A toggle's two entries apply in opposite states, so one key press picks at most one: each
    // holds a condition whose opposite the other holds (a tamper also needs a strategy with
    // updates on the wire; making a worker Byzantine also needs it up).
    const opposite: Partial<Record<Condition, Condition>> = { up: 'down', down: 'up', intact: 'cut', cut: 'intact', faithful: 'byzantine', byzantine: 'faithful', untampered: 'tampered', tampered: 'untampered' };
    for (const spec of actionTable) {
      const same = spec.key ? actionsForKey(spec.key).filter((o) => o !== spec) : [];
      for (const other of same) expect((spec.when ?? []).some((c) => opposite[c] !== undefined && other.when?.includes(opposite[c]!)), `${spec.do}/${other.do}`).toBe(true);
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
        for (const c of spec.fields) if (c.kind === 'choice') sample[c.name] = c.options![0].value;
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
      { do: 'tamper', from: 'w1', to: 's0', attack: 'flip', scale: 10 },
      { do: 'tamper', from: 's0', to: 'w1', attack: 'replay', count: 20 },
      { do: 'untamper', from: 'w1', to: 's0' },
      { do: 'byzantine', node: 'w3', attack: 'alie' },
      { do: 'honest', node: 'w3' },
    ];
    for (const a of good) expect(parseAction(a, nodes)).toEqual({ ok: true, action: a });
  });

  it('rejects with the same words as a scenario timeline', () => {
    const cases: Array<[unknown, string]> = [
      [{ do: 'partition', groups: [['w0'], ['w9']] }, 'groups: node "w9" does not exist (cluster has w0-w3, s0)'],
      [{ do: 'partition', groups: [['w0', 'w1'], ['w1']] }, 'groups: node "w1" is listed more than once'],
      [{ do: 'cut', from: 'w1', to: 'w1' }, 'to: "from" and "to" are the same node ("w1"); a link joins two nodes'],
      [{ do: 'crash', node: 'w7' }, 'node: node "w7" does not exist (cluster has w0-w3, s0)'],
      [{ do: 'explode' }, 'do: unknown action "explode"; valid actions: partition, heal, cut, restore, crash, restart, slow, timeout, link, pause, putMeta, tamper, untamper, byzantine, honest, submit, network'],
      [{ do: 'heal', at: 5 }, 'action: unknown field "at"'],
      [{ do: 'slow', node: 'w0', factor: 'big' }, 'factor: expected a number, got a string ("big")'],
      [{ do: 'slow', node: 'w0' }, 'factor: missing (expected a number)'],
      [{ do: 'crash', nod: 'w0' }, 'node: missing (expected a string); action: unknown field "nod" (did you mean "node"?)'],
      ['crash', 'action: expected an object, got a string ("crash")'],
      [{ do: 'byzantine', node: 's0', attack: 'sign-flip' }, 'node: expected a worker id such as "w0" (only a worker computes gradients), got "s0"'],
      [{ do: 'byzantine', node: 'w9', attack: 'sign-flip' }, 'node: node "w9" does not exist (cluster has w0-w3, s0)'],
      [{ do: 'tamper', from: 'w1', to: 's0', attack: 'drop' }, 'attack: expected one of "flip", "scale", "noise", "replay", got "drop"'],
      [{ do: 'tamper', from: 'w1', to: 'w1', attack: 'flip' }, 'to: "from" and "to" are the same node ("w1"); a link joins two nodes'],
      [{ do: 'tamper', from: 'w1', to: 's0', attack: 'flip', scale: 1e9 }, 'scale: must be <= 1000000, got 1000000000'],
    ];
    for (const [input, error] of cases) {
      const r = parseAction(input, nodes);
      expect(r.ok ? null : r.error, JSON.stringify(input)).toBe(error);
    }
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
    [{ do: 'tamper', from: 'w1', to: 's0', attack: 'flip', scale: 10 }, 'tamper w1→s0: flip ×10', '篡改 w1→s0：取反 ×10'],
    [{ do: 'tamper', from: 'w1', to: 's0', attack: 'replay', count: 20 }, 'tamper w1→s0: replay 20 messages', '篡改 w1→s0：重放 20 条'],
    [{ do: 'untamper', from: 'w1', to: 's0' }, 'remove the attacker from w1→s0', '撤除 w1→s0 上的中间人'],
    [{ do: 'byzantine', node: 'w6', attack: 'sign-flip', scale: 10 }, 'w6 turns Byzantine: sign flip ×10', 'w6 变为拜占庭节点：符号翻转 ×10'],
    [{ do: 'honest', node: 'w6' }, 'w6 is honest again', 'w6 恢复诚实'],
  ];
  it.each(cases)('%j', (a, en, zh) => {
    expect(describeAction(a, 'en')).toBe(en);
    expect(describeAction(a, 'zh')).toBe(zh);
  });
});
