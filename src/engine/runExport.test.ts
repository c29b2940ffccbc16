import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../scenario/validate';
import type { Scenario } from '../scenario/schema';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';
import { Simulation } from './simulation';
import { eventLogLines, joinLines, parseSamplesCsv, runScenario, samplesCsvLines, userEntriesUpTo } from './runExport';

/** The files a run exports (CONTRACTS §2, §5) as functions of the run alone. */

const base = (): Scenario =>
  testScenario({
    strategy: { kind: 'ps-async' },
    cluster: { workers: 3, servers: 1 },
    durationMs: 3000,
    timeline: [{ at: 2000, do: 'heal' }],
  });

async function make(s: Scenario): Promise<Simulation> {
  return Simulation.create(s, { trainer: new InstantTrainer(), sampleEveryMs: 250 });
}

/** A run where the user cuts a link at ~1 s and crashes a worker at ~1.5 s, between paced advances. */
async function userRun(s: Scenario): Promise<Simulation> {
  const sim = await make(s);
  let acted = 0;
  while (!sim.done) {
    await sim.advanceTo(sim.now() + 41.7, { wallBudgetMs: 0.01 });
    if (acted === 0 && sim.now() > 1000) acted += Number(sim.apply({ do: 'cut', from: 'w1', to: 's0' }).ok);
    if (acted === 1 && sim.now() > 1500) acted += Number(sim.apply({ do: 'crash', node: 'w2' }).ok);
  }
  return sim;
}

describe('runScenario (Share and Export run)', () => {
  it('holds the scripted actions and the user’s, marked "by": "user", in time order; it validates and replays to the same hash', async () => {
    const s = base();
    const sim = await userRun(s);
    const shared = runScenario(s, sim.userActions());
    expect(shared.timeline.map((e) => [e.do, e.by ?? 'script'])).toEqual([
      ['cut', 'user'],
      ['crash', 'user'],
      ['heal', 'script'],
    ]);
    for (let i = 1; i < shared.timeline.length; i++) expect(shared.timeline[i].at ?? -1).toBeGreaterThanOrEqual(shared.timeline[i - 1].at ?? -1);
    // Through JSON, as a link or a file carries it.
    const v = validateScenario(JSON.parse(JSON.stringify(shared)));
    if (!v.ok) throw new Error(v.errors.join('\n'));
    const replay = await make(v.scenario);
    await replay.runToEnd();
    expect(replay.scheduleHash()).toBe(sim.scheduleHash());
    // Exporting the replayed run again gives the same file: user entries are not doubled.
    expect(runScenario(v.scenario, replay.userActions())).toEqual(v.scenario);
  });

  it('without user actions it is the scenario itself', async () => {
    const s = base();
    expect(runScenario(s, [])).toEqual(s);
  });

  it('userEntriesUpTo keeps scripted entries and the user’s up to t', () => {
    const s: Scenario = {
      ...base(),
      timeline: [
        { at: 500, do: 'crash', node: 'w0', by: 'user' },
        { at: 1000, do: 'restart', node: 'w0', by: 'user' },
        { at: 2000, do: 'heal' },
      ],
    };
    expect(userEntriesUpTo(s, 999).timeline.map((e) => e.at)).toEqual([500, 2000]);
    expect(userEntriesUpTo(s, 1000).timeline.map((e) => e.at)).toEqual([500, 1000, 2000]);
  });
});

describe('forking a run (engine side of the app’s branches.ts)', () => {
  it('the prefix up to t replays event for event; the new action applies at t; the fork exports and replays to its own hash', async () => {
    const s = base();
    const old = await userRun(s); // user cut at ~1 s and crash at ~1.5 s
    const [cut, crash] = old.userActions();
    const t = Math.round((cut.t + crash.t) / 2); // between the two: the fork keeps the cut, drops the crash
    const forkScenario = userEntriesUpTo(runScenario(old.scenario, old.userActions()), t);
    expect(forkScenario.timeline.filter((e) => e.by === 'user').map((e) => e.do)).toEqual(['cut']);
    const fork = await make(forkScenario);
    while ((fork.nextEventTime() ?? Infinity) <= t) await fork.advanceTo(t, { wallBudgetMs: 0.01 });
    await fork.advanceTo(t);
    const prefix = old.history.events.filter((e) => e.t <= t);
    expect(fork.history.events.map((e) => JSON.stringify(e))).toEqual(prefix.map((e) => JSON.stringify(e)));
    expect(fork.apply({ do: 'crash', node: 'w0' }).ok).toBe(true);
    await fork.runToEnd();
    expect(fork.userActions()).toEqual([cut, { t, action: { do: 'crash', node: 'w0' } }]);
    expect(fork.scheduleHash()).not.toBe(old.scheduleHash());
    const replay = await make(runScenario(fork.scenario, fork.userActions()));
    await replay.runToEnd();
    expect(replay.scheduleHash()).toBe(fork.scheduleHash());
  });
});

describe('event log and samples', () => {
  it('the JSON Lines log hashes to the run’s eventLogHash', async () => {
    const sim = await userRun(base());
    const text = joinLines(eventLogLines(sim.history.events));
    expect(text.split('\n')).toHaveLength(sim.history.events.length + 1);
    expect(createHash('sha256').update(text).digest('hex')).toBe(sim.history.eventLogHash());
  });

  it('the samples CSV holds every non-null sampled value, cluster rows with an empty node', async () => {
    const sim = await userRun(base());
    const rows = parseSamplesCsv(joinLines(samplesCsvLines(sim.history.events)));
    const samples = sim.history.events.filter((e) => e.type === 'metrics');
    expect(new Set(rows.map((r) => r.t))).toEqual(new Set(samples.map((e) => e.t)));
    const last = samples[samples.length - 1];
    if (last.type !== 'metrics') throw new Error('unreachable');
    expect(rows.find((r) => r.t === last.t && r.metric === 'steps' && r.node === null)?.value).toBe(sim.metric('steps'));
    // w2 crashed at ~1.5 s: its availability reads 0 afterwards, the cluster's is below 1.
    expect(rows.find((r) => r.t === last.t && r.metric === 'availability' && r.node === 'w2')?.value).toBe(0);
    expect(rows.filter((r) => r.node === null).length).toBeGreaterThan(samples.length);
  });

  it('parseSamplesCsv refuses a file without the header', () => {
    expect(() => parseSamplesCsv('t,metric\n1,steps')).toThrow('samples CSV: expected the header');
  });
});
