import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/schema';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';
import { Simulation } from './simulation';

/**
 * A run with a user's actions, exported as a scenario whose timeline holds them ("by": "user" at
 * the simulated time each applied), replays to the same schedule: CONTRACTS §5.
 */

const sc = (over: Partial<Scenario> = {}): Scenario => ({ ...testScenario({ strategy: { kind: 'ps-async' }, cluster: { workers: 4, servers: 1 }, durationMs: 4000 }), ...over });

async function make(s: Scenario): Promise<Simulation> {
  return Simulation.create(s, { trainer: new InstantTrainer(), sampleEveryMs: 250 });
}

function exported(s: Scenario, sim: Simulation): Scenario {
  const user = sim.userActions().map(({ t, action }) => ({ at: t, by: 'user' as const, ...action }));
  return { ...s, timeline: [...s.timeline, ...user] };
}

describe('user actions replay from the exported run', () => {
  it('acting between frames (paced advances with a tiny wall budget) reproduces the hash', async () => {
    const s = sc();
    const sim = await make(s);
    let acted = 0;
    // Small budgets stop advances mid-run; the user acts whenever the page gets control.
    while (!sim.done) {
      await sim.advanceTo(sim.now() + 37.3, { wallBudgetMs: 0.01 });
      if (acted === 0 && sim.now() > 1000) acted += Number(sim.apply({ do: 'cut', from: 'w1', to: 's0' }).ok);
      if (acted === 1 && sim.now() > 2500) acted += Number(sim.apply({ do: 'crash', node: 'w2' }).ok);
      if (acted === 2 && sim.now() > 3000) acted += Number(sim.apply({ do: 'heal' }).ok);
    }
    expect(acted).toBe(3);
    const replay = await make(exported(s, sim));
    await replay.runToEnd();
    expect(replay.scheduleHash()).toBe(sim.scheduleHash());
    expect(replay.userActions()).toEqual(sim.userActions());
  });

  it('acting while an advance waits for a gradient applies after that instant, as the replay does', async () => {
    const s = sc();
    const sim = await make(s);
    await sim.advanceTo(1500);
    // An advance in flight: it stops at its first completed step and awaits the value.
    const inFlight = sim.advanceTo(2500);
    expect(sim.apply({ do: 'partition', groups: [['w0', 'w1', 's0'], ['w2', 'w3']] }).ok).toBe(true);
    await inFlight;
    await sim.runToEnd();
    const replay = await make(exported(s, sim));
    await replay.runToEnd();
    expect(replay.scheduleHash()).toBe(sim.scheduleHash());
    expect(sim.userActions()).toHaveLength(1);
  });

  it('a run whose user acted differs from the scripted one (the test can fail)', async () => {
    const s = sc();
    const plain = await make(s);
    await plain.runToEnd();
    const sim = await make(s);
    await sim.advanceTo(1000);
    sim.apply({ do: 'crash', node: 'w3' });
    await sim.runToEnd();
    expect(sim.scheduleHash()).not.toBe(plain.scheduleHash());
  });
});

describe('actions scheduled ahead (a live room: applied at the teacher’s now + a lead)', () => {
  it('a run with scheduled actions equals the replay of its exported timeline, `who` included', async () => {
    const s = sc();
    const sim = await make(s);
    const scheduled: Array<{ at: number; who: string; action: Parameters<Simulation['schedule']>[0] }> = [];
    const plan = [
      { when: 700, lead: 300, who: 'Ana (w1)', action: { do: 'cut' as const, from: 'w1', to: 's0' } },
      // Two actions due at one instant keep the order in which they were scheduled.
      { when: 1500, lead: 250, who: 'Bo (w2)', action: { do: 'crash' as const, node: 'w2' } },
      { when: 1500, lead: 250, who: 'teacher', action: { do: 'slow' as const, node: 'w3', factor: 3 } },
      { when: 2600, lead: 0, who: 'Bo (w2)', action: { do: 'restart' as const, node: 'w2' } },
      { when: 3000, lead: 400, who: 'Ana (w1)', action: { do: 'restore' as const, from: 'w1', to: 's0' } },
    ];
    let next = 0;
    while (!sim.done) {
      await sim.advanceTo(sim.now() + 41.7, { wallBudgetMs: 0.01 });
      while (next < plan.length && sim.now() >= plan[next].when) {
        const p = plan[next++];
        const at = Math.ceil(sim.now() + p.lead);
        expect(sim.schedule(p.action, at)).toEqual({ ok: true });
        scheduled.push({ at, who: p.who, action: p.action });
      }
    }
    expect(next).toBe(plan.length);
    expect(sim.userActions().map((u) => u.t)).toEqual(scheduled.map((x) => x.at));
    const file: Scenario = { ...s, timeline: [...s.timeline, ...scheduled.map(({ at, who, action }) => ({ at, by: 'user' as const, who, ...action }))] };
    const replay = await make(file);
    await replay.runToEnd();
    expect(replay.scheduleHash()).toBe(sim.scheduleHash());
    expect(replay.userActions()).toEqual(sim.userActions());
  });

  it('refuses a time in the past or after the end, and an invalid action, queuing nothing', async () => {
    const sim = await make(sc());
    await sim.advanceTo(1000);
    expect(sim.schedule({ do: 'crash', node: 'w1' }, 999)).toMatchObject({ ok: false, error: expect.stringContaining('before now'), refusal: { refusal: 'time', at: 999 } });
    expect(sim.schedule({ do: 'crash', node: 'w1' }, 4001)).toMatchObject({ ok: false, error: expect.stringContaining('after the end') });
    expect(sim.schedule({ do: 'crash', node: 'w9' }, 1200)).toMatchObject({ ok: false, error: expect.stringContaining('node "w9" does not exist') });
    await sim.runToEnd();
    expect(sim.userActions()).toEqual([]);
  });

  it('says why it refuses a live action as a fact (the app words it) beside the English line', async () => {
    const sim = await make(sc());
    await sim.advanceTo(500);
    expect(sim.apply({ do: 'restart', node: '@crashed' })).toEqual({ ok: false, error: 'no crashed node for "@crashed"', refusal: { refusal: 'no-match', selector: '@crashed' } });
    expect(sim.apply({ do: 'crash', node: '@leader' })).toEqual({ ok: false, error: 'no node matches "@leader" now', refusal: { refusal: 'no-match', selector: '@leader' } });
    expect(sim.apply({ do: 'crash', node: 'w1' })).toEqual({ ok: true });
    expect(sim.apply({ do: 'restart', node: '@crashed' })).toEqual({ ok: true });
    await sim.runToEnd();
    const ended = { ok: false, error: 'the run has ended; restart it to try actions', refusal: { refusal: 'ended' } };
    expect(sim.apply({ do: 'crash', node: 'w2' })).toEqual(ended);
    expect(sim.schedule({ do: 'crash', node: 'w2' }, 4000)).toEqual(ended);
  });

  it('an action scheduled at now applies at once, after the instant, like apply()', async () => {
    const a = await make(sc());
    const b = await make(sc());
    await a.advanceTo(1234);
    await b.advanceTo(1234);
    expect(a.schedule({ do: 'crash', node: 'w0' }, a.now()).ok).toBe(true);
    expect(b.apply({ do: 'crash', node: 'w0' }).ok).toBe(true);
    expect(a.nodes().find((n) => n.id === 'w0')?.up).toBe(false);
    await a.runToEnd();
    await b.runToEnd();
    expect(a.scheduleHash()).toBe(b.scheduleHash());
  });
});
