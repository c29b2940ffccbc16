import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinIds, loadBuiltin } from '../../cli/builtins';
import { InstantTrainer } from '../testing/instantTrainer';
import { Simulation } from '../simulation';
import { logAt, runStateAt } from './runState';

/**
 * "Every view is a function of (history, t)": the state the index derives for a past time t must
 * equal what the engine's own runtime objects held when the run was at t. Captured live at random
 * times of random built-ins and seeds, compared after the run went on to its end (the scrub case).
 */

const ids = builtinIds();

async function make(id: string, seed: number): Promise<Simulation> {
  const v = loadBuiltin(id);
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return Simulation.create({ ...v.scenario, seed }, { trainer: new InstantTrainer(), sampleEveryMs: 500 });
}

function liveSnapshot(sim: Simulation) {
  return {
    nodes: sim.liveNodeStates(),
    links: sim.links().map((l) => ({ from: l.from, to: l.to, cut: l.cut, partitioned: l.partitioned, props: l.props, ...(l.tamper ? { tamper: l.tamper } : {}) })),
    inFlight: sim.inFlight().map((m) => m.id).sort((a, b) => a - b),
    partition: sim.partitionGroups(),
  };
}

function derivedSnapshot(sim: Simulation, t: number) {
  const st = runStateAt(sim.index(), sim.runStatic(), t);
  return {
    nodes: st.nodes.map((n) => ({ ...n, computing: n.computing !== null })),
    links: st.links,
    inFlight: st.inFlight.map((m) => m.id).sort((a, b) => a - b),
    partition: st.partition,
  };
}

describe('the history-derived state at t equals the live state at t', () => {
  it('on random built-ins, seeds and times', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ids), fc.noBias(fc.integer({ min: 1, max: 10_000 })), fc.array(fc.noBias(fc.integer({ min: 0, max: 9999 })).map((k) => k / 10_000), { minLength: 3, maxLength: 6 }), async (id, seed, picks) => {
        // First run: the times to look at are event times (where off-by-one mistakes live) and
        // times between events.
        const first = await make(id, seed);
        await first.runToEnd();
        const events = first.history.events;
        const times = [...new Set(picks.map((f, i) => (i % 2 === 0 ? events[Math.floor(f * (events.length - 1))].t : Math.round(f * first.durationMs))))].sort((a, b) => a - b);
        // Second run, same seed: capture the live state at those times, then finish.
        const sim = await make(id, seed);
        const live: Array<{ t: number; snap: ReturnType<typeof liveSnapshot>; logs: Map<string, number[]> }> = [];
        for (const t of times) {
          await sim.advanceTo(t);
          const logs = new Map<string, number[]>();
          for (const n of sim.runStatic().nodes) {
            const log = sim.liveLog(n.id);
            if (log) logs.set(n.id, log);
          }
          live.push({ t: sim.now(), snap: liveSnapshot(sim), logs });
        }
        await sim.runToEnd();
        expect(sim.scheduleHash()).toBe(first.scheduleHash());
        for (const { t, snap, logs } of live) {
          expect(derivedSnapshot(sim, t)).toEqual(snap);
          for (const [node, terms] of logs) expect(logAt(sim.index(), node, t).map((r) => r.item.term)).toEqual(terms);
        }
      }),
      { numRuns: 20, seed: 42 },
    );
  }, 120_000);
});
