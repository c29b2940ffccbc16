import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { psRmwWire } from '../protocols/psAsyncRmw';
import type { Scenario, SecurityConfig } from '../scenario/schema';
import { validateScenario } from '../scenario/validate';
import type { HistoryEvent } from '../sim/types';
import { loadSecurity } from './security/load';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';

/**
 * The security layer (L13) beside the coordination service (L11): ps-async's lock path
 * (psAsyncRmw.ts) declares its own codec, so its writes and parameter reads are sealed, altered
 * and replayed like every other parameter-server update; the service's own messages (locks,
 * leases, metadata) carry no updates: TLS seals them, and a tamper on their links is refused by name.
 */

function lessonFile(): unknown {
  return JSON.parse(readFileSync(new URL('../../public/scenarios/coordination-fencing.json', import.meta.url), 'utf8'));
}

function lesson(over: Partial<Scenario> = {}): Scenario {
  const v = validateScenario(lessonFile());
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return { ...v.scenario, durationMs: 8000, timeline: [], expect: [], variants: undefined, ...over };
}

const sec = (s: Partial<SecurityConfig>): SecurityConfig => ({ integrity: 'none', replayProtection: false, keys: 'per-worker', ...s });

async function run(sc: Scenario) {
  const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sampleEveryMs: 0 });
  await sim.runToEnd();
  return sim;
}

const drops = (sim: Simulation, reason: string) => sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'drop' }> => e.type === 'drop' && e.reason === reason);
const notes = (sim: Simulation, what: string) => sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'note' }> => e.type === 'note' && e.what === what);
const flipW1 = [{ at: 2000, do: 'tamper' as const, from: 'w1', to: 's0', attack: 'flip' as const, scale: 10 }];

describe('ps-async under a lock: its writes are on the wire', () => {
  it('the codec reads and writes back a write (with its token) and a parameter answer; lock-free messages carry no body', () => {
    const write = { t: 'write', seq: 7, token: 42, set: new Float32Array([1, -2]), basedOn: 3, basedOnNode: 5, updates: ['w1#7'] };
    const body = psRmwWire.read('params', write, 'w1', 's0')!;
    expect(body).toEqual({ worker: 'w1', step: 7, labels: [3, 5, 42], vectors: [write.set] });
    expect(psRmwWire.write('params', write, body)).toEqual(write);
    const add = { t: 'write', seq: 2, grad: new Float32Array([0.5]), basedOn: 1, basedOnNode: 1, updates: ['w2#2'] };
    expect(psRmwWire.write('gradient', add, psRmwWire.read('gradient', add, 'w2', 's0')!)).toEqual(add);
    const params = { t: 'params', id: 9, params: new Float32Array([3]), version: 11, node: 4 };
    expect(psRmwWire.read('params', params, 's0', 'w3')).toEqual({ worker: 'w3', step: 11, labels: [9, 4], vectors: [params.params] });
    expect(psRmwWire.write('params', params, psRmwWire.read('params', params, 's0', 'w3')!)).toEqual(params);
    expect(psRmwWire.read('pull', { t: 'read', id: 1, token: 3 }, 'w1', 's0')).toBeNull();
    expect(psRmwWire.read('nack', { t: 'fenced', seq: 1, newest: 4 }, 's0', 'w1')).toBeNull();
  });

  it('a flipped write under a lock is applied without protection and refused under HMAC', async () => {
    const open = await run(lesson({ timeline: flipW1 }));
    expect(open.failure).toBeNull();
    expect(open.metric('tamperedAccepted')).toBeGreaterThan(0);
    expect(open.metric('tamperedRejected')).toBe(0);

    // Two altered writes: both refused; w1 holds the lock meanwhile, so everyone waits for its retry.
    const hmac = await run(lesson({ security: sec({ integrity: 'hmac' }), timeline: [{ ...flipW1[0], count: 2 }] }));
    expect(hmac.failure).toBeNull();
    expect(hmac.metric('tamperedAccepted')).toBe(0);
    expect(hmac.metric('tamperedRejected')).toBe(2);
    const refused = drops(hmac, 'auth');
    expect(refused.map((d) => [d.from, d.to])).toEqual([
      ['w1', 's0'],
      ['w1', 's0'],
    ]);
    expect(notes(hmac, 'paramsRead').filter((n) => n.t > refused[0].t && n.t < refused[1].t && n.node !== 'w1')).toEqual([]);
    // Its retry gets through; then the others take the lock and write again.
    expect(notes(hmac, 'paramsRead').filter((n) => n.t > refused[1].t && n.node !== 'w1').length).toBeGreaterThan(3);
  });

  it('with replay protection, a replayed write is refused by its sequence number', async () => {
    const sim = await run(lesson({ security: sec({ integrity: 'hmac', replayProtection: true }), timeline: [{ at: 2000, do: 'tamper', from: 'w1', to: 's0', attack: 'replay', count: 3 }] }));
    expect(sim.failure).toBeNull();
    expect(sim.metric('replayRejected')).toBe(3);
    expect(drops(sim, 'replay').length).toBe(3);
  });
});

describe('the coordination service and the security layer', () => {
  it('TLS seals the service’s messages too: the lessons’ lock path runs as before, nothing refused', async () => {
    const sim = await run(lesson({ security: sec({ integrity: 'tls' }) }));
    expect(sim.failure).toBeNull();
    expect(drops(sim, 'auth')).toEqual([]);
    expect(notes(sim, 'paramsRead').length).toBeGreaterThan(5);
    expect(sim.metric('violations')).toBe(0);
  });

  it('a tamper on a link of the coordination service is refused by name, live and in a timeline', async () => {
    const sim = await Simulation.create(lesson(), { trainer: new InstantTrainer(), sampleEveryMs: 0 });
    await loadSecurity(); // a live tamper needs the security code, which loads on demand (the app waits for it, act.ts)
    const r = sim.apply({ do: 'tamper', from: 'w0', to: 'c0', attack: 'flip' });
    expect(r).toEqual({
      ok: false,
      error: 'tamper: "c0" is a node of the coordination service: its messages (locks, leases, metadata) carry no parameter-server updates to alter',
      refusal: { refusal: 'invalid', problems: [{ path: [], root: 'tamper', fact: { kind: 'coordLink', id: 'c0' } }] },
    });
    expect(sim.apply({ do: 'tamper', from: 'w0', to: 's0', attack: 'flip' })).toEqual({ ok: true });

    const file = lessonFile() as { timeline: unknown[] };
    const v = validateScenario({ ...file, timeline: [{ at: 100, do: 'tamper', from: 'c1', to: 'c0', attack: 'replay' }] });
    expect(v.ok ? [] : v.errors).toEqual(['timeline[0].from: "c1" is a node of the coordination service: its messages (locks, leases, metadata) carry no parameter-server updates to alter']);
  });
});
