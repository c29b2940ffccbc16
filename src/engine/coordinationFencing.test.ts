import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/schema';
import { validateScenario } from '../scenario/validate';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';

/**
 * The shape of CURRICULUM L11 on fresh seeds, not only the lesson's own (issue 7, "Done when"):
 * an unfenced paused lock holder's write is accepted and loses an acknowledged update; a fenced one
 * is rejected and loses nothing. The pause fires as the lesson's `on paramsRead (node w0, after …)`
 * does: right after w0 has read the parameters under its lock, at the same instant.
 */

function lesson(): Scenario {
  const v = validateScenario(JSON.parse(readFileSync(new URL('../../public/scenarios/coordination-fencing.json', import.meta.url), 'utf8')));
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return v.scenario;
}

type Note = Extract<HistoryEvent, { type: 'note' }>;

async function pausedHolder(seed: number, service: 'etcd' | 'zookeeper', fencing: boolean) {
  const base = lesson();
  const sc: Scenario = {
    ...base,
    seed,
    durationMs: 9000,
    coordination: { ...base.coordination!, service, reads: service === 'etcd' ? 'linearizable' : 'local' },
    strategy: { ...base.strategy, fencing } as Scenario['strategy'],
    timeline: [],
    expect: [],
  };
  const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sampleEveryMs: 0, verifyFacts: true });
  // Run until w0 reads the parameters under its lock (after 2 s), then freeze it there for 2 s.
  let seen = sim.history.events.length;
  let readAt: number | null = null;
  while (readAt === null && !sim.done) {
    await sim.stepEvent();
    const ev = sim.history.events;
    for (; seen < ev.length; seen++) {
      const e = ev[seen];
      if (e.type === 'note' && e.what === 'paramsRead' && e.node === 'w0' && e.t > 2000) readAt = e.t;
    }
  }
  expect(readAt).not.toBeNull();
  expect(sim.apply({ do: 'pause', node: 'w0', ms: 2000 })).toEqual({ ok: true });
  await sim.runToEnd();
  const notes = sim.history.events.filter((e): e is Note => e.type === 'note');
  const w0Token = (notes.find((e) => e.what === 'paramsRead' && e.node === 'w0' && e.t === readAt)!.data as { token: number }).token;
  return { sim, notes, readAt: readAt!, w0Token };
}

const seeds = [2024, 4711, 31337, 50607, 777001];

describe('L11 shape on fresh seeds: a paused lock holder', () => {
  it.each(seeds.flatMap((seed) => (['zookeeper', 'etcd'] as const).map((service) => [seed, service] as const)))(
    'seed %i, %s, no fencing: its late write is accepted and an acknowledged update is lost',
    async (seed, service) => {
      const { sim, notes, readAt, w0Token } = await pausedHolder(seed, service, false);
      // Its lease expired while it was frozen, and another worker was granted the lock with a larger token.
      expect(notes.some((e) => e.what === 'leaseExpired' && e.node === 'w0' && e.t > readAt && e.t < readAt + 2000)).toBe(true);
      const later = notes.filter((e) => e.what === 'lockAcquired' && e.node !== 'w0' && e.t > readAt && e.t < readAt + 2000);
      expect(later.length).toBeGreaterThan(0);
      expect(later.every((e) => (e.data as { token: number }).token > w0Token)).toBe(true);
      // The store took w0's stale write…
      const accepted = notes.find((e) => e.what === 'staleWriteAccepted' && (e.data as { from: string }).from === 'w0');
      expect(accepted?.t).toBeGreaterThan(readAt + 2000);
      expect(sim.metric('staleWritesAccepted')).toBeGreaterThanOrEqual(1);
      // …and the lineage lost an acknowledged update (w0's, or those it overwrote).
      expect(sim.metric('lostUpdates')).toBeGreaterThanOrEqual(1);
      expect(sim.metric('fencedWrites')).toBe(0);
      expect(sim.metric('violations')).toBe(0);
    },
  );

  it.each(seeds.flatMap((seed) => (['zookeeper', 'etcd'] as const).map((service) => [seed, service] as const)))(
    'seed %i, %s, fencing: its late write is rejected and nothing is lost',
    async (seed, service) => {
      const { sim, notes, readAt, w0Token } = await pausedHolder(seed, service, true);
      const fenced = notes.find((e) => e.what === 'fenced' && (e.data as { from?: string }).from === 'w0');
      expect(fenced?.t).toBeGreaterThan(readAt + 2000);
      expect((fenced!.data as { token: number }).token).toBe(w0Token);
      expect(sim.metric('fencedWrites')).toBeGreaterThanOrEqual(1);
      expect(sim.metric('lastFencedToken')).not.toBeNull();
      expect(sim.metric('staleWritesAccepted')).toBe(0);
      expect(sim.metric('lostUpdates')).toBe(0);
      expect(sim.metric('violations')).toBe(0);
    },
  );
});
