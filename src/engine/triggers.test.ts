import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

type Over = NonNullable<Parameters<typeof testScenario>[0]>;

const run = async (timeline: Over['timeline'], durationMs = 4000) => {
  const sim = await Simulation.create(testScenario({ cluster: { workers: 3, servers: 3 }, durationMs, strategy: { kind: '2pc-ps' } as never, timeline }), {
    trainer: new InstantTrainer(),
    sampleEveryMs: 0,
  });
  await sim.advanceTo(durationMs);
  return sim;
};

const actions = (sim: Simulation) => sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'action' }> => e.type === 'action');
const notes = (sim: Simulation, what: string) => sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'note' }> => e.type === 'note' && e.what === what);

describe('timeline entries that fire "on" an event (CURRICULUM §C.1)', () => {
  it('fires once, at the first matching note at or after "after", right after it, and records the trigger', async () => {
    const on = { event: '2pc.prepareSent', node: 's0', after: 2000 };
    const sim = await run([{ on, do: 'crash', node: 's0' }]);
    const first = notes(sim, '2pc.prepareSent').find((e) => e.t >= 2000)!;
    expect(first.t).toBeGreaterThan(2000);
    const fired = actions(sim);
    expect(fired).toEqual([{ t: first.t, type: 'action', action: { do: 'crash', node: 's0' }, source: 'timeline', on }]);
    // Right after the event that noted it: the crash is the next event handled (sends, facts and
    // logs are the noting event's own records).
    const i = sim.history.events.indexOf(first);
    const own = new Set(['send', 'facts', 'log', 'note', 'op']);
    expect(sim.history.events.slice(i + 1).find((e) => !own.has(e.type))).toMatchObject({ type: 'action', t: first.t });
    // The coordinator went down with PREPARE in flight: nothing is prepared afterwards without it.
    expect(notes(sim, '2pc.prepareSent').filter((e) => e.t > first.t)).toEqual([]);
  });

  it('matches action:<do> on the action’s node, and not before "after"', async () => {
    const sim = await run([
      { at: 500, do: 'crash', node: 's2' },
      { at: 1500, do: 'crash', node: 's1' },
      { on: { event: 'action:crash', node: 's1' }, do: 'restart', node: 's1' },
      { on: { event: 'action:crash', after: 1000 }, do: 'restart', node: 's2' },
    ]);
    expect(actions(sim).map((a) => [a.t, a.action.do, 'node' in a.action ? a.action.node : '', a.on?.event ?? ''])).toEqual([
      [500, 'crash', 's2', ''],
      [1500, 'crash', 's1', ''],
      [1500, 'restart', 's1', 'action:crash'],
      [1500, 'restart', 's2', 'action:crash'],
    ]);
  });

  it('an event that never comes fires nothing; the schedule is deterministic', async () => {
    const a = await run([{ on: { event: 'leaderElected' }, do: 'crash', node: 's0' }]);
    expect(actions(a)).toEqual([]);
    const tl: Over['timeline'] = [{ on: { event: '2pc.decided', after: 1000 }, do: 'crash', node: 's1' }];
    const [x, y] = [await run(tl), await run(tl)];
    expect(x.scheduleHash()).toBe(y.scheduleHash());
    expect(actions(x)).toHaveLength(1);
  });
});
