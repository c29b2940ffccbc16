import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClient } from '../../engine/remote/client';
import { EngineHost } from '../../engine/remote/host';
import type { EnginePort, FromHost, ToHost } from '../../engine/remote/protocol';
import { strategies } from '../../protocols/registry';
import { checkBuiltinText, parseScenarioText } from '../../scenario/loader';
import { parseAction } from '../../scenario/parseAction';
import type { Scenario } from '../../scenario/schema';
import { applyKnob, defaultStrategy, knobControls } from '../knobs';
import { withStrategy } from '../strategySwitch';
import { checks, type CheckName, type Checks } from './table';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** The page's end of a host that has the checks, over a MessageChannel (structured clones, as to a worker). */
function connected(withChecks = true): EngineClient {
  const ch = new MessageChannel();
  channels.push(ch);
  new EngineHost(ch.port1 as unknown as EnginePort<ToHost, FromHost>, { trainer: () => Promise.reject(new Error('no trainers in this test')), ...(withChecks ? { checks } : {}) });
  return new EngineClient(ch.port2 as unknown as EnginePort<FromHost, ToHost>);
}

function ask<K extends CheckName>(c: EngineClient, name: K, ...args: Parameters<Checks[K]>): Promise<ReturnType<Checks[K]>> {
  return c.check(name, args) as Promise<ReturnType<Checks[K]>>;
}

const text = (id: string): string => readFileSync(`public/scenarios/${id}.json`, 'utf8');
const builtin = (id: string): Scenario => {
  const r = parseScenarioText(text(id));
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
};

describe("the page's checks, answered by the engine's worker (issue 9)", () => {
  it("checks a scenario's text as the validator does here: the scenario, or the problems as facts", async () => {
    const c = connected();
    const good = await ask(c, 'builtinText', 'raft-ps-majority', text('raft-ps-majority'));
    expect(good).toEqual(checkBuiltinText('raft-ps-majority', text('raft-ps-majority')));
    expect(good.ok).toBe(true);
    // Another file's text under this id: refused, saying so.
    const misnamed = await ask(c, 'builtinText', 'raft-ps', text('raft-ps-majority'));
    expect(misnamed.ok).toBe(false);
    const broken = '{"id": "x", "durationMs": -5, "cluster": {"workers": 1}}';
    const bad = await ask(c, 'scenarioText', broken);
    expect(bad).toEqual(parseScenarioText(broken));
    expect(bad.ok || bad.problems?.length).toBeGreaterThan(0);
  });

  it("checks actions against the run's nodes, all or none", async () => {
    const c = connected();
    const ids = ['w0', 'w1', 's0'];
    const ok = await ask(c, 'actions', [{ do: 'crash', node: 'w1' }, { do: 'cut', from: 'w0', to: 's0' }], ids);
    expect(ok).toEqual({ ok: true, actions: [parseAction({ do: 'crash', node: 'w1' }, ids), parseAction({ do: 'cut', from: 'w0', to: 's0' }, ids)].map((r) => (r.ok ? r.action : null)) });
    const refused = await ask(c, 'actions', [{ do: 'crash', node: 'w1' }, { do: 'crash', node: 'w9' }], ids);
    const local = parseAction({ do: 'crash', node: 'w9' }, ids);
    expect(local.ok).toBe(false);
    expect(refused).toEqual(local.ok ? null : { ok: false, error: local.error, problems: local.problems });
  });

  it("gives the settings row every strategy's knob controls and defaults, in the registry's order", async () => {
    const forms = await ask(connected(), 'strategyForms');
    expect(forms.kinds).toEqual(strategies.map((s) => s.kind));
    for (const k of forms.kinds) {
      expect(forms.controls[k]).toEqual(knobControls(k));
      expect(forms.defaults[k]).toEqual(defaultStrategy(k));
    }
  });

  it('applies a knob and makes the form edits as the page did', async () => {
    const c = connected();
    const sc = builtin('raft-ps-majority');
    const refused = await ask(c, 'knob', sc.strategy, 'electionTimeoutMs', '-5');
    expect(refused).toEqual(applyKnob(sc.strategy, 'electionTimeoutMs', '-5'));
    expect(refused.ok).toBe(false);
    const taken = await ask(c, 'knob', sc.strategy, 'heartbeatMs', '40');
    expect(taken).toEqual(applyKnob(sc.strategy, 'heartbeatMs', '40'));
    expect(taken.ok && taken.strategy.kind === 'raft-ps' && taken.strategy.heartbeatMs).toBe(40);
    expect(await ask(c, 'strategy', sc, 'ssp')).toEqual(withStrategy(sc, 'ssp'));
    expect(await ask(c, 'strategy', sc, 'no-such')).toBeNull();
  });

  it('says which check it does not have, and a host without the table has none', async () => {
    await expect(connected().check('noSuchCheck', [])).rejects.toThrow(/no check "noSuchCheck"/);
    await expect(connected().check('toString', [])).rejects.toThrow(/no check "toString"/);
    await expect(connected(false).check('scenario', [{}])).rejects.toThrow(/no check "scenario"/);
  });
});
