import { describe, expect, it } from 'vitest';
import type { NoteData } from '../protocols/notes';
import type { RaftPsStrategy } from '../protocols/raft/raftPs';
import type { LogEntry } from '../protocols/raft/state';
import type { Scenario } from '../scenario/schema';
import { resolveVariant } from '../scenario/validate';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { loadBuiltinFile } from './testing/lessonRuns';
import { testScenario } from './testing/scenarios';

/**
 * Raft's Figure 8 (Ongaro & Ousterhout 2014, §5.4.2) as the L7 lesson scripts it, checked on the
 * servers' logs themselves (the lesson's expectations check the metrics): manual clients, the
 * `timeout` and `submit` actions, and what the no-op at the start of a term changes.
 */

const raftOf = (sim: Simulation) => (sim as unknown as { strategy: RaftPsStrategy }).strategy;
const notes = (sim: Simulation, what: string) =>
  sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'note' }> => e.type === 'note' && e.what === what);
/** A log as "worker#seq@term" (updates) or "noop@term". */
const logOf = (sim: Simulation, s: string) => raftOf(sim).server(s).p.log.map((e: LogEntry) => (e.kind === 'update' ? `${e.worker}#${e.seq}@${e.term}` : `${e.kind}@${e.term}`));

const run = (sc: Scenario) => Simulation.create(sc, { trainer: new InstantTrainer(33), sampleEveryMs: 0 });
const lesson = () => loadBuiltinFile('raft-figure-8');
function variant(id: string, patch?: (s: Scenario) => Scenario): Scenario {
  const base = patch ? patch(lesson()) : lesson();
  if (id === 'overwrite') return base;
  const r = resolveVariant(base, id);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

describe('manual clients (clientMode "manual")', () => {
  const manual = (knobs: Record<string, unknown> = {}) =>
    testScenario({ cluster: { workers: 2, servers: 3 }, durationMs: 3000, compute: { stepMs: 200, jitter: 0 }, strategy: { kind: 'raft-ps', clientMode: 'manual', ...knobs } as never });

  it('update only on submit: none in 1.5 s with a leader, then `count` updates, each applied once', async () => {
    const sim = await run(manual());
    await sim.advanceTo(1500);
    expect(raftOf(sim).resolveSelector('@leader')).not.toBeNull();
    expect(notes(sim, 'apply')).toEqual([]);
    expect(sim.acceptsAction('submit', 'w0')).toBe(true);
    expect(sim.acceptsAction('submit', 's0')).toBe(false);
    sim.apply({ do: 'submit', node: 'w0', count: 3 });
    await sim.advanceTo(3000);
    expect(notes(sim, 'apply').map((e) => e.data)).toEqual([1, 2, 3].map((seq) => expect.objectContaining({ worker: 'w0', seq })));
    // One gradient is ready at once; the next two wait for a step (stepMs 200) each.
    const applied = notes(sim, 'apply').map((e) => e.t);
    expect(applied[0]).toBeLessThan(1550);
    expect(applied[2] - applied[0]).toBeGreaterThanOrEqual(2 * 200);
    expect(sim.metric('duplicateUpdates')).toBe(0);
    expect(sim.metric('violations')).toBe(0);
  });

  it('training clients ignore submit, and say so', async () => {
    const sim = await run(testScenario({ cluster: { workers: 2, servers: 3 }, durationMs: 1000, strategy: { kind: 'raft-ps' } }));
    expect(sim.acceptsAction('submit', 'w0')).toBe(false);
    sim.apply({ do: 'submit', node: 'w0' });
    expect(notes(sim, 'actionIgnored').map((e) => [e.node, e.data])).toEqual([['w0', { reason: 'no-manual-client' }]]);
  });
});

describe('L7 raft-figure-8 on the servers’ logs', () => {
  it('(a)–(c): at 2480 B (term 1) is on s0…s3 under a term-3 leader and committed nowhere', async () => {
    const sim = await run(variant('overwrite'));
    await sim.advanceTo(2480);
    for (const s of ['s0', 's1', 's2', 's3']) expect(logOf(sim, s)).toEqual(['w0#1@1', 'w0#2@1']);
    expect(logOf(sim, 's4')).toEqual(['w0#1@1', 'w1#1@2']); // C at the same index, term 2
    expect(raftOf(sim).server('s0').p.currentTerm).toBe(3);
    expect(sim.metric('leaders', 's0')).toBe(1);
    for (const s of ['s0', 's1', 's2', 's3', 's4']) expect(raftOf(sim).server(s).v.commitIndex).toBeLessThan(2);
    // The restarted leader forgot its commit index; it learns it only by committing a term-3 entry.
    expect(raftOf(sim).server('s0').v.commitIndex).toBe(0);
  });

  it('(d): s4 wins term 4 and replaces B with C on s1, s2, s3; w0’s retry of B lands once, at index 4', async () => {
    const sim = await run(variant('overwrite'));
    await sim.advanceTo(3300);
    expect(notes(sim, 'entryOverwritten').map((e) => [e.node, e.data])).toEqual(['s1', 's2', 's3'].map((s) => [s, { index: 2, count: 1 }]));
    for (const s of ['s1', 's2', 's3', 's4']) expect(logOf(sim, s)).toEqual(['w0#1@1', 'w1#1@2']);
    await sim.runToEnd();
    for (const s of ['s1', 's2', 's3', 's4']) expect(logOf(sim, s)).toEqual(['w0#1@1', 'w1#1@2', 'w1#2@4', 'w0#2@4']);
    expect(notes(sim, 'apply').filter((e) => (e.data as NoteData['apply']).worker === 'w0' && (e.data as NoteData['apply']).seq === 2)).toHaveLength(1);
  });

  it('(e): a term-3 entry commits B first; s4 can no longer win, and only its C is overwritten', async () => {
    const sim = await run(variant('commit-first'));
    await sim.advanceTo(2580);
    expect(raftOf(sim).server('s0').v.commitIndex).toBe(3);
    expect(logOf(sim, 's0')).toEqual(['w0#1@1', 'w0#2@1', 'w0#3@3']);
    await sim.advanceTo(3250);
    expect(notes(sim, 'leaderElected').filter((e) => e.node === 's4' && e.t > 2000)).toEqual([]);
    await sim.runToEnd();
    expect(notes(sim, 'entryOverwritten').map((e) => [e.node, e.data])).toEqual([['s4', { index: 2, count: 1 }]]);
    for (const s of ['s1', 's2', 's3', 's4']) expect(logOf(sim, s).slice(0, 3)).toEqual(['w0#1@1', 'w0#2@1', 'w0#3@3']);
  });

  it('with the no-op (leaderNoop: true, Raft §8) every leader commits at once: s4’s term-2 no-op commits on s2, s3, so s0 never leads again', async () => {
    const sim = await run(variant('overwrite', (s) => ({ ...s, strategy: { ...s.strategy, leaderNoop: true } as Scenario['strategy'] })));
    await sim.advanceTo(1600);
    expect(logOf(sim, 's2')).toEqual(['noop@1', 'w0#1@1', 'noop@2']);
    expect(raftOf(sim).server('s4').v.commitIndex).toBe(3); // the leader's; s2 and s3 learn it with the next heartbeat
    await sim.runToEnd();
    expect(notes(sim, 'leaderElected').filter((e) => e.node === 's0' && e.t > 2000)).toEqual([]);
    // B was never committed, so it may still go (from s1); nothing committed ever does.
    expect(logOf(sim, 's1')).not.toContain('w0#2@1');
    expect(sim.metric('violations')).toBe(0);
    expect(sim.metric('lostUpdates')).toBe(0);
  });
});
