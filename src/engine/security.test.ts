import { describe, expect, it } from 'vitest';
import { strategies } from '../protocols';
import { strategiesWithWire } from '../protocols/wire';
import type { HistoryEvent } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

type Over = NonNullable<Parameters<typeof testScenario>[0]>;
type Sec = NonNullable<Over['security']>;
const P = 105; // InstantTrainer's parameter count
const ps = (kind: 'ps-sync' | 'ps-async' | 'ssp', over: Over = {}) =>
  testScenario({ durationMs: 8000, cluster: { workers: 5, servers: 1 }, strategy: { kind }, ...over } as Over);
async function run(over: Over, kind: 'ps-sync' | 'ps-async' | 'ssp' = 'ps-sync', until?: number) {
  const sim = await Simulation.create(ps(kind, over), { trainer: new InstantTrainer(P), sampleEveryMs: 0 });
  await sim.advanceTo(until ?? sim.durationMs);
  return sim;
}
const notes = (sim: Simulation, what: string) => sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'note' }> => e.type === 'note' && e.what === what);
const drops = (sim: Simulation, reason: string) => sim.history.events.filter((e) => e.type === 'drop' && e.reason === reason);
const sends = (sim: Simulation, kind: string) => sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'send' }> => e.type === 'send' && e.kind === kind);
const flip = (count?: number): NonNullable<Over['timeline']> => [
  { at: 2000, do: 'tamper', from: 'w1', to: 's0', attack: 'flip', scale: 10, ...(count ? { count } : {}) },
  { at: 5000, do: 'untamper', from: 'w1', to: 's0' },
];
const replay = (count: number): NonNullable<Over['timeline']> => [
  { at: 1500, do: 'tamper', from: 'w1', to: 's0', attack: 'flip', count: 1 },
  { at: 2000, do: 'tamper', from: 'w1', to: 's0', attack: 'replay', count },
];
const sec = (s: Partial<Sec>): Sec => ({ integrity: 'none', replayProtection: false, keys: 'per-worker', ...s });

describe('which strategies the layer covers', () => {
  it('exactly those listed in strategiesWithWire accept a man-in-the-middle; TLS fits any strategy', async () => {
    for (const info of strategies) {
      const need = { ...info.needs, ...info.suggested };
      const cluster = { workers: 4, servers: need.servers ?? 0, brokers: need.brokers ?? 0 };
      const sim = await Simulation.create(testScenario({ cluster, strategy: { kind: info.kind } as Over['strategy'], security: sec({ integrity: 'tls' }) }), { trainer: new InstantTrainer(P), sampleEveryMs: 0 });
      const r = sim.apply({ do: 'tamper', from: 'w1', to: sim.runStatic().edges.find(([a]) => a === 'w1')?.[1] ?? 'w2', attack: 'flip' });
      expect(r.ok, info.kind).toBe(strategiesWithWire.includes(info.kind));
      if (!r.ok) expect(r.error).toMatch(/^tamper: strategy ".*" sends no parameter-server updates to alter/);
    }
  });
});

describe('security layer: nothing changes without it', () => {
  it('a run without a security block and one with integrity "none" have the same schedule', async () => {
    const a = await run({});
    const b = await run({ security: sec({}) });
    expect(b.scheduleHash()).toBe(a.scheduleHash());
    expect(sends(a, 'gradient')[0].bytes).toBe(P * 4);
  });
});

describe('integrity: who notices a man-in-the-middle', () => {
  it('sha256 adds a 32-byte digest, and the attacker recomputes it: every flipped update is applied', async () => {
    const sim = await run({ security: sec({ integrity: 'sha256' }), timeline: flip() });
    expect(sends(sim, 'gradient')[0].bytes).toBe(P * 4 + 32);
    expect(sends(sim, 'params')[0].bytes).toBe(P * 4 + 32);
    const accepted = sim.metric('tamperedAccepted')!;
    expect(accepted).toBeGreaterThan(5);
    expect(sim.metric('tamperedRejected')).toBe(0);
    expect(notes(sim, 'tamperAccepted')).toHaveLength(accepted);
    expect(notes(sim, 'tamperAccepted')[0]).toMatchObject({ node: 's0', data: { from: 'w1', kind: 'gradient', attack: 'flip', check: 'sha256' } });
  });

  it('without any check a flip goes through as well', async () => {
    const sim = await run({ timeline: flip() });
    expect(sim.metric('tamperedAccepted')!).toBeGreaterThan(5);
  });

  it('hmac rejects every altered update (the barrier then waits: integrity is not availability)', async () => {
    const sim = await run({ security: sec({ integrity: 'hmac' }), timeline: flip() });
    expect(sim.metric('tamperedAccepted')).toBe(0);
    const rejected = sim.metric('tamperedRejected')!;
    expect(rejected).toBeGreaterThan(3);
    expect(drops(sim, 'auth')).toHaveLength(rejected);
    const v2 = sim.history.events.filter((e) => e.type === 'version' && e.node === 'w0' && e.t >= 2100 && e.t <= 5000);
    expect(v2.length).toBeLessThanOrEqual(1); // at most the round already closing when the attack began
  });

  it('count limits the attack to that many messages', async () => {
    const sim = await run({ security: sec({ integrity: 'hmac' }), timeline: flip(3) });
    expect(sim.metric('tamperedRejected')).toBe(3);
  });

  it('tls turns tampering into loss and authenticates control messages too (22 bytes per record)', async () => {
    const sim = await run({ security: sec({ integrity: 'tls' }), timeline: flip(4) });
    expect(sim.metric('tamperedAccepted')).toBe(0);
    expect(sim.metric('tamperedRejected')).toBe(4);
    expect(sends(sim, 'gradient')[0].bytes).toBe(P * 4 + 22);
    expect(drops(sim, 'auth')).toHaveLength(4);
  });

  it('tampering with the parameters on s0 → w1 is caught the same way', async () => {
    const timeline: NonNullable<Over['timeline']> = [{ at: 2000, do: 'tamper', from: 's0', to: 'w1', attack: 'noise', scale: 1, count: 5 }];
    expect((await run({ security: sec({ integrity: 'sha256' }), timeline })).metric('tamperedAccepted')).toBe(5);
    const h = await run({ security: sec({ integrity: 'hmac' }), timeline });
    expect(h.metric('tamperedRejected')).toBe(5);
    expect(notes(h, 'tamperRejected')[0]).toMatchObject({ node: 'w1', data: { from: 's0', kind: 'params', attack: 'noise' } });
  });

  it.each([
    ['raft-ps', { cluster: { workers: 4, servers: 3 }, strategy: { kind: 'raft-ps' } }, ['s0', 's1', 's2']],
    ['kafka-ps', { cluster: { workers: 4, servers: 1, brokers: 3 }, strategy: { kind: 'kafka-ps' } }, ['b0', 'b1', 'b2']],
    ['paxos-ps', { cluster: { workers: 4, servers: 3 }, strategy: { kind: 'paxos-ps' } }, ['s0', 's1', 's2']],
    ['2pc-ps', { cluster: { workers: 4, servers: 3 }, strategy: { kind: '2pc-ps' } }, ['s0', 's1', 's2']],
  ] as const)('%s: client updates to the leader are protected too', async (_kind, over, targets) => {
    // Whichever node leads (or leads w1's partition), w1's updates pass an attacker.
    const timeline: NonNullable<Over['timeline']> = targets.map((to) => ({ at: 2000, do: 'tamper' as const, from: 'w1', to, attack: 'flip' as const, scale: 10, count: 5 }));
    const make = async (security: Sec) => {
      const sim = await Simulation.create(testScenario({ durationMs: 6000, ...over, security, timeline } as Over), { trainer: new InstantTrainer(P), sampleEveryMs: 0 });
      await sim.advanceTo(6000);
      return sim;
    };
    const digest = await make(sec({ integrity: 'sha256' }));
    expect(digest.metric('tamperedAccepted')).toBeGreaterThanOrEqual(5);
    expect(digest.metric('tamperedRejected')).toBe(0);
    const h = await make(sec({ integrity: 'hmac', replayProtection: true }));
    expect(h.metric('tamperedAccepted')).toBe(0);
    // (A rejected produce request waits out Kafka's request timeout before it is retried.)
    expect(h.metric('tamperedRejected')).toBeGreaterThan(0);
    expect(h.metric('violations')).toBe(0);
  });

  it.each(['ps-async', 'ssp'] as const)('%s: its updates are protected by the same layer', async (kind) => {
    expect((await run({ security: sec({ integrity: 'sha256' }), timeline: flip() }, kind)).metric('tamperedAccepted')!).toBeGreaterThan(3);
    const h = await run({ security: sec({ integrity: 'hmac' }), timeline: flip() }, kind);
    expect(h.metric('tamperedAccepted')).toBe(0);
    expect(h.metric('tamperedRejected')!).toBeGreaterThan(0);
  });
});

describe('replays', () => {
  it('hmac over the values only: a recorded update relabelled as the current step verifies and is applied again', async () => {
    const sim = await run({ security: sec({ integrity: 'hmac' }), timeline: replay(6) });
    expect(sim.metric('replayRejected')).toBe(0);
    expect(sim.metric('duplicateUpdates')).toBe(6);
    expect(notes(sim, 'replayAccepted')).toHaveLength(6);
    const forged = sim.history.events.filter((e) => e.type === 'send' && e.forged);
    expect(forged).toHaveLength(6);
    // A forged message is on the wire but w1 did not send it.
    expect(sim.metric('bytes', 'w1')).toBe(sends(sim, 'gradient').filter((e) => e.from === 'w1' && !e.forged).reduce((a, e) => a + e.bytes, 0));
  });

  it('hmac with (worker, step) and a sequence number inside: every replay is refused', async () => {
    const sim = await run({ security: sec({ integrity: 'hmac', replayProtection: true }), timeline: replay(6) });
    expect(sim.metric('duplicateUpdates')).toBe(0);
    expect(sim.metric('replayRejected')).toBe(6);
    expect(drops(sim, 'replay')).toHaveLength(6);
    expect(notes(sim, 'replayRejected')[0]).toMatchObject({ node: 's0', data: { from: 'w1', check: 'sequence' } });
  });

  it('tls refuses replays whatever replayProtection says', async () => {
    const sim = await run({ security: sec({ integrity: 'tls' }), timeline: replay(6) });
    expect(sim.metric('duplicateUpdates')).toBe(0);
    expect(sim.metric('replayRejected')).toBe(6);
  });

  it('an unkeyed digest with a sequence number stops nothing: the attacker renumbers and recomputes', async () => {
    const sim = await run({ security: sec({ integrity: 'sha256', replayProtection: true }), timeline: replay(6) });
    expect(sim.metric('replayRejected')).toBe(0);
    expect(sim.metric('duplicateUpdates')).toBe(6);
  });

  it('sessions survive restarts: training goes on after a worker and the server restart, with no message refused', async () => {
    const timeline: NonNullable<Over['timeline']> = [
      { at: 2000, do: 'crash', node: 'w2' },
      { at: 2500, do: 'restart', node: 'w2' },
      { at: 4000, do: 'crash', node: 's0' },
      { at: 4300, do: 'restart', node: 's0' },
    ];
    const sim = await run({ security: sec({ integrity: 'hmac', replayProtection: true }), timeline });
    const plain = await run({ timeline });
    expect(sim.metric('version', 's0')!).toBeGreaterThan(plain.metric('version', 's0')! - 3);
    expect(sim.metric('version', 's0')!).toBeGreaterThan(20);
    expect(drops(sim, 'auth')).toHaveLength(0);
    expect(sim.metric('violations')).toBe(0);
  });
});

describe('Byzantine workers', () => {
  const byz: NonNullable<Over['timeline']> = [
    { at: 2000, do: 'byzantine', node: 'w3', attack: 'sign-flip', scale: 10 },
    { at: 6000, do: 'honest', node: 'w3' },
  ];
  it('hold valid keys: nothing is rejected, and the mean follows them while Krum and the median leave them out', async () => {
    const mean = await run({ security: sec({ integrity: 'hmac', replayProtection: true }), timeline: byz });
    expect(mean.metric('tamperedRejected')).toBe(0);
    expect(drops(mean, 'auth')).toHaveLength(0);
    expect(notes(mean, 'byzantineOutlierDropped')).toHaveLength(0);
    for (const aggregation of ['median', 'krum'] as const) {
      const sim = await run({ strategy: { kind: 'ps-sync', aggregation }, timeline: byz });
      const dropped = notes(sim, 'byzantineOutlierDropped');
      expect(dropped.length, aggregation).toBeGreaterThan(10);
      expect(new Set(dropped.map((e) => e.node))).toEqual(new Set(['w3']));
      expect(dropped.every((e) => e.t > 2000 && e.t < 6200)).toBe(true);
    }
  });

  it('a Byzantine worker pulls the mean the wrong way; the median keeps the honest direction', async () => {
    // InstantTrainer's gradient pulls every parameter towards a batch-dependent point in [0, 1)
    // (0.5 on average); a sign-flip ×10 by one worker of five reverses the mean's direction.
    const byzOnly: NonNullable<Over['timeline']> = [{ at: 0, do: 'byzantine', node: 'w3', attack: 'sign-flip', scale: 10 }];
    const dist = (p: Float32Array) => Math.sqrt(p.reduce((a, x) => a + (x - 0.5) ** 2, 0));
    const after = async (aggregation: 'mean' | 'median') => {
      const over = { durationMs: 3000, model: { dataset: 'circles' as const, hidden: [8, 8], batchSize: 16, learningRate: 0.02, samples: 400 }, strategy: { kind: 'ps-sync' as const, aggregation }, timeline: byzOnly };
      return dist((await run(over)).params('w0'));
    };
    const start = dist(new InstantTrainer(P).initialParams());
    expect(await after('median')).toBeLessThan(start / 2);
    expect(await after('mean')).toBeGreaterThan(2 * start);
  });

  it('refuses Krum on too few workers, naming the rule', async () => {
    await expect(Simulation.create(ps('ps-sync', { cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-sync', aggregation: 'krum' } }), { trainer: new InstantTrainer(P) })).rejects.toThrow(
      'ps-sync: krum needs n > 2f + 2 gradients per round (Blanchard et al. 2017); with f = 1 that is at least 5, got n = 4',
    );
  });
});
