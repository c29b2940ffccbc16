import { describe, expect, it } from 'vitest';
import type { Note } from '../protocols/notes';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

/**
 * TRUTHS ("an epoch is a fencing token only if one authority grants it once"): degrade's epochs
 * taken from each side's failure detector collide under non-transitive cuts; taken from a
 * majority-replicated coordination service they cannot.
 *
 * The cut: w0, w1 and w2, w3 cannot hear each other (one-way cuts in both directions), while w4 and
 * w5 hear everyone. The ring stalls (w1 → w2 is cut), every worker detects it, and w0 counts
 * {w0, w1, w4, w5} — 4 of 6, a majority — while w2 counts {w2, w3, w4, w5}, also 4 of 6. Each
 * side's lowest id (w0, w2) writes its checkpoints.
 */
const cuts = (['w0', 'w1'] as const).flatMap((a) =>
  (['w2', 'w3'] as const).flatMap((b) => [
    { at: 2000, do: 'cut' as const, from: a, to: b, oneWay: true },
    { at: 2000, do: 'cut' as const, from: b, to: a, oneWay: true },
  ]),
);

const make = (coord: 0 | 3, service: 'etcd' | 'zookeeper' = 'etcd', seed = 7) =>
  Simulation.create(
    testScenario({
      seed,
      cluster: { workers: 6, coord },
      ...(coord ? { coordination: { service, leaseTtlMs: 1000 } } : {}),
      durationMs: 6000,
      compute: { stepMs: 150, jitter: 0.1 },
      strategy: { kind: 'degrade', checkpointEveryMs: 500 },
      timeline: cuts,
    }),
    { trainer: new InstantTrainer(), sampleEveryMs: 0, verifyFacts: true },
  );

type NoteEvent = Extract<HistoryEvent, { type: 'note' }>;
const notes = <K extends Note['what']>(sim: Simulation, what: K) =>
  sim.history.events.filter((e): e is NoteEvent & Extract<Note, { what: K }> => e.type === 'note' && e.what === what);

/** Sides (as sorted member lists) that hold epoch 2, as each worker believes it. */
function sidesHoldingEpoch2(sim: Simulation): Set<string> {
  const sides = new Set<string>();
  for (const id of ['w0', 'w1', 'w2', 'w3', 'w4', 'w5']) {
    const f = sim.liveNodeStates().find((n) => n.id === id)!.facts;
    if (f?.kind === 'degrade-worker' && f.epoch === 2 && f.majoritySide) sides.add((f.side ?? []).join(','));
  }
  return sides;
}

describe('degrade epochs under a non-transitive cut', () => {
  it('without a service, two sides both take epoch 2 and the checkpoint store accepts both lineages', async () => {
    const sim = await make(0);
    await sim.advanceTo(5000);
    const detected = notes(sim, 'partitionDetected');
    const epoch2Sides = new Set(detected.filter((e) => e.data.epoch === 2).map((e) => e.data.side.join(',')));
    expect(epoch2Sides.has('w0,w1,w4,w5')).toBe(true);
    expect(epoch2Sides.has('w2,w3,w4,w5')).toBe(true);
    expect(sidesHoldingEpoch2(sim).size).toBeGreaterThanOrEqual(2);
    // Same epoch on both sides: both write checkpoints, and fencing refuses neither (no older epoch to refuse).
    expect(sim.metric('fencedWrites')).toBe(0);
    expect(sim.metric('staleWritesAccepted')).toBe(0);
    const f = sim.liveNodeStates().find((n) => n.id === 'w0')!.facts;
    expect(f?.kind === 'degrade-worker' && f.epochFrom).toBe('detector');
  });

  it.each([
    ['etcd', 7],
    ['zookeeper', 7],
    ['etcd', 11],
    ['zookeeper', 12],
  ] as const)('with a %s service (seed %i), epoch 2 is granted to exactly one side; the others stay provisional and are fenced', async (service, seed) => {
    const sim = await make(3, service, seed);
    await sim.advanceTo(5000);
    const granted = notes(sim, 'epochGranted').filter((e) => e.data.epoch === 2);
    expect(granted.length).toBeGreaterThan(0);
    // Every answer names the same holder: the key was created once.
    expect(new Set(granted.map((e) => e.data.side.join(','))).size).toBe(1);
    expect(sidesHoldingEpoch2(sim).size).toBe(1);
    // The detector still finds several "majorities" — the service is what makes the token unique.
    expect(new Set(notes(sim, 'partitionDetected').map((e) => e.data.side.join(','))).size).toBeGreaterThanOrEqual(2);
    expect(sim.metric('fencedWrites')!).toBeGreaterThan(0);
    expect(sim.metric('violations')).toBe(0);
    const f = sim.liveNodeStates().find((n) => n.id === 'w0')!.facts;
    expect(f?.kind === 'degrade-worker' && f.epochFrom).toBe('service');
  });
});
