import { describe, expect, it } from 'vitest';
import { Simulation } from '../simulation';
import { InstantTrainer } from '../testing/instantTrainer';
import { testScenario } from '../testing/scenarios';
import { loadSecurity, securityCode } from './load';

/**
 * The security code loads on demand (load.ts, issue 9): a run without a security block, a tamper
 * or a Byzantine worker never fetches it, and a run that builds the layer at its first tamper
 * runs exactly as one that had it from the start (as every run did before).
 */

type Over = NonNullable<Parameters<typeof testScenario>[0]>;
const P = 105; // InstantTrainer's parameter count
const scenario = (over: Over) => testScenario({ durationMs: 6000, cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-async' }, ...over } as Over);
const attacks: NonNullable<Over['timeline']> = [
  { at: 1500, do: 'tamper', from: 'w1', to: 's0', attack: 'flip', scale: 10 },
  { at: 2500, do: 'byzantine', node: 'w2', attack: 'sign-flip' },
  { at: 4000, do: 'untamper', from: 'w1', to: 's0' },
];

async function run(over: Over) {
  const sim = await Simulation.create(scenario(over), { trainer: new InstantTrainer(P), sampleEveryMs: 0 });
  await sim.advanceTo(sim.durationMs);
  return sim;
}

describe('the security code on demand', () => {
  // First in the file: nothing has loaded the code yet.
  it('a plain run does not load it; a live tamper waits for it, refused until it has arrived', async () => {
    const sim = await Simulation.create(scenario({}), { trainer: new InstantTrainer(P), sampleEveryMs: 0 });
    await sim.advanceTo(1000);
    expect(securityCode()).toBeUndefined();
    expect(sim.apply({ do: 'tamper', from: 'w1', to: 's0', attack: 'flip' })).toEqual({ ok: false, error: 'tamper: the security code has not loaded yet (await loadSecurity())', refusal: { refusal: 'loading', action: 'tamper' } });
    expect(sim.apply({ do: 'byzantine', node: 'w1', attack: 'random' })).toEqual({ ok: false, error: 'byzantine: the security code has not loaded yet (await loadSecurity())', refusal: { refusal: 'loading', action: 'byzantine' } });
    await loadSecurity();
    expect(sim.apply({ do: 'tamper', from: 'w1', to: 's0', attack: 'flip' })).toEqual({ ok: true });
    await sim.advanceTo(sim.durationMs);
    expect(sim.failure).toBeNull();
    expect(sim.metric('tamperedAccepted')).toBeGreaterThan(0);
  });

  it('a layer built at the first tamper runs as one built with the run', async () => {
    const late = await run({ timeline: attacks });
    const early = await run({ timeline: attacks, security: { integrity: 'none', replayProtection: false, keys: 'per-worker' } });
    expect(late.metric('tamperedAccepted')).toBeGreaterThan(0);
    expect(late.scheduleHash()).toBe(early.scheduleHash());
    expect(late.history.eventLogHash()).toBe(early.history.eventLogHash());
  });
});
