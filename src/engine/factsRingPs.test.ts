import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCheckScenario, strategyConfig } from '../check/runner';
import type { NodeFacts } from '../protocols/facts';
import { resolveVariant, validateScenario } from '../scenario/validate';
import type { Scenario } from '../scenario/schema';
import type { HistoryEvent, NodeId } from '../sim/types';
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';

/**
 * Typed facts of the ring and parameter-server strategies (allreduce, ps-async, ps-sync, ssp,
 * degrade). `verifyFacts` re-reads every node after every event and fails the run when a node's
 * facts changed without the history recording it, so these runs prove that every strategy touches
 * every node an event changes. Stand-in gradients: facts are schedule-level, values do not matter.
 */

const KINDS = ['allreduce', 'ps-async', 'ps-sync', 'ssp', 'degrade'] as const;
type Kind = (typeof KINDS)[number];
const dir = new URL('../../public/scenarios/', import.meta.url);
/** Every built-in, and every variant of one (named "id:variant"), that runs one of KINDS. */
const builtins = (JSON.parse(readFileSync(new URL('index.json', dir), 'utf8')) as string[])
  .flatMap((id) => {
    const v = validateScenario(JSON.parse(readFileSync(new URL(`${id}.json`, dir), 'utf8')));
    if (!v.ok) throw new Error(`${id}: ${v.errors.join('; ')}`);
    const variants = (v.scenario.variants ?? []).map((x) => {
      const r = resolveVariant(v.scenario, x.id);
      if (!r.ok) throw new Error(`${id}:${x.id}: ${r.errors.join('; ')}`);
      return { ...r.scenario, id: `${id}:${x.id}` };
    });
    return [v.scenario, ...variants];
  })
  .filter((sc) => (KINDS as readonly string[]).includes(sc.strategy.kind));
const builtin = (id: string) => {
  const sc = builtins.find((s) => s.id === id);
  if (!sc) throw new Error(`no built-in ${id}`);
  return sc;
};

type FactsEvent = Extract<HistoryEvent, { type: 'facts' }>;
type Of<K extends NodeFacts['kind']> = Extract<NodeFacts, { kind: K }>;

async function runVerified(scenario: Scenario): Promise<Simulation> {
  const sim = await Simulation.create(scenario, { trainer: new InstantTrainer(16, 50), sampleEveryMs: 0, verifyFacts: true });
  await sim.runToEnd(); // throws with the recorder's message when a change went unrecorded
  return sim;
}

const factsEvents = (sim: Simulation) => sim.history.events.filter((e): e is FactsEvent => e.type === 'facts');

/** The facts the history says `node` had at time t (the last facts event at or before t). */
function factsAt(events: readonly FactsEvent[], node: NodeId, t: number): NodeFacts | null {
  let f: NodeFacts | null = null;
  for (const e of events) {
    if (e.t > t) break;
    if (e.node === node) f = e.f;
  }
  return f;
}

/** What kinds of facts each strategy reports, per role. */
const expectedKinds: Record<Kind, { worker: NodeFacts['kind']; server?: NodeFacts['kind'] }> = {
  allreduce: { worker: 'ring-worker' },
  'ps-async': { worker: 'ps-worker', server: 'ps-server' },
  'ps-sync': { worker: 'ps-worker', server: 'ps-server' },
  ssp: { worker: 'ps-worker', server: 'ps-server' },
  degrade: { worker: 'degrade-worker' },
};

describe('facts of the ring and parameter-server strategies are complete', () => {
  it('a built-in of every strategy is covered', () => {
    expect(new Set(builtins.map((s) => s.strategy.kind))).toEqual(new Set(KINDS));
  });

  it.each(builtins.map((s) => [s.id, s] as const))('%s: every change of every node is recorded', async (_id, scenario) => {
    const sim = await runVerified(scenario);
    const events = factsEvents(sim);
    const want = expectedKinds[scenario.strategy.kind as Kind];
    const kindOf = (node: NodeId) => events.find((e) => e.node === node && e.f !== null)?.f?.kind;
    for (let i = 0; i < scenario.cluster.workers; i++) expect(kindOf(`w${i}`)).toBe(want.worker);
    if (want.server) expect(kindOf('s0')).toBe(want.server);
    // Facts move with the run (not one snapshot at t = 0), for every worker: at least five changes
    // each (L3's 100 MB PS with 8 workers has ~2 s rounds, so a handful of rounds in 16 s).
    for (let i = 0; i < scenario.cluster.workers; i++) expect(events.filter((e) => e.t > 0 && e.node === `w${i}`).length, `w${i}`).toBeGreaterThanOrEqual(5);
  });

  it.each(KINDS)('%s: random fault schedules (nemesis) record every change', async (kind) => {
    const conf = strategyConfig(kind);
    if (!conf.ok) throw new Error(conf.error);
    let crashes = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const { scenario } = buildCheckScenario({ kind, seed }, conf.cfg);
      const v = validateScenario(scenario);
      if (!v.ok) throw new Error(v.errors.join('; '));
      const sim = await runVerified(v.scenario);
      const facts = factsEvents(sim);
      // A crashed node has no facts (its volatile state died with it); a restarted one has them again.
      for (const e of sim.history.events) {
        if (e.type === 'crash') {
          crashes++;
          expect(factsAt(facts, e.node, e.t), `${kind} seed ${seed}: ${e.node} crashed at ${e.t}`).toBeNull();
        } else if (e.type === 'restart') {
          expect(factsAt(facts, e.node, e.t), `${kind} seed ${seed}: ${e.node} restarted at ${e.t}`).not.toBeNull();
        }
      }
    }
    expect(crashes).toBeGreaterThan(0);
  });
});

describe('ps-async under a coordination-service lock (psAsyncRmw.ts)', () => {
  it.each(['etcd', 'zookeeper'] as const)('random fault schedules with %s (crashes, cuts, GC pauses, metadata writes) record every change', async (coord) => {
    const conf = strategyConfig('ps-async', { writeLock: 'lease', writeMode: 'set', fencing: true });
    if (!conf.ok) throw new Error(conf.error);
    const seen = { pause: 0, crash: 0, held: 0 };
    for (let seed = 1; seed <= 6; seed++) {
      const { scenario } = buildCheckScenario({ kind: 'ps-async', seed, faultMs: 3000, coord }, conf.cfg);
      const v = validateScenario(scenario);
      if (!v.ok) throw new Error(v.errors.join('; '));
      const sim = await runVerified(v.scenario);
      const facts = factsEvents(sim);
      for (const e of sim.history.events) {
        if (e.type === 'action' && e.action.do === 'pause') seen.pause++;
        if (e.type === 'crash') {
          seen.crash++;
          // A crashed worker or server has no facts; a coordination server keeps its persistent state's.
          if (!e.node.startsWith('c')) expect(factsAt(facts, e.node, e.t), `${coord} seed ${seed}: ${e.node} crashed at ${e.t}`).toBeNull();
        }
      }
      for (const e of facts) if (e.f?.kind === 'ps-worker' && e.f.lock?.state === 'held') seen.held++;
    }
    expect(seen.pause).toBeGreaterThan(0);
    expect(seen.crash).toBeGreaterThan(0);
    expect(seen.held).toBeGreaterThan(0);
  });

  it('L11: w0 goes lock → read → compute → write with its grant\'s token; paused, it still believes it holds the lock while the service has granted it to another', async () => {
    const sc = builtin('coordination-fencing');
    const sim = await runVerified(sc);
    const ev = factsEvents(sim);
    const w0 = ev.filter((e) => e.node === 'w0' && e.f?.kind === 'ps-worker').map((e) => e.f as Of<'ps-worker'>);
    // The recipe's phases, in order, cycle after cycle.
    const order = ['lock', 'read', 'compute', 'write'];
    const phases = w0.map((f) => f.phase!).filter((p, i, a) => i === 0 || p !== a[i - 1]);
    for (let i = 1; i < phases.length; i++) expect(phases[i], `after ${phases[i - 1]}`).toBe(order[(order.indexOf(phases[i - 1]) + 1) % 4]);
    expect(phases.length).toBeGreaterThan(8);
    // Holding: a token from its grant; queuing: none yet.
    for (const f of w0) {
      if (f.phase === 'lock') expect(f.lock?.state).not.toBe('held');
      else expect(f.lock).toMatchObject({ state: 'held', token: expect.any(Number) });
    }
    // During its GC pause (the timeline's at 4.2 s, just after w0 read the parameters under its
    // lock), w0 still shows the lock held, while the ZooKeeper leader's applied state has given it
    // to another worker.
    const pause = sim.history.events.find((e): e is Extract<HistoryEvent, { type: 'action' }> => e.type === 'action' && e.action.do === 'pause');
    expect(pause).toMatchObject({ t: 4200, action: { node: 'w0', ms: 2000 } });
    expect(factsAt(ev, 'w0', pause!.t)).toMatchObject({ phase: 'compute', lock: { state: 'held' } });
    const t = pause!.t + 1900;
    expect(factsAt(ev, 'w0', t)).toMatchObject({ phase: 'compute', lock: { state: 'held' } });
    const leader = factsAt(ev, 'c0', t) as Of<'coord-server'>;
    expect(leader.role).toBe('leader');
    const holder = leader.locks.find((l) => l.name.includes('params'))?.holder;
    expect(holder).toBeDefined();
    expect(holder).not.toBe('w0');
  });
});

describe('what the facts say', () => {
  it('allreduce: rounds count from 1, each phase has N − 1 steps, a worker waits for its predecessor', async () => {
    const sc = builtin('allreduce-partition');
    const sim = await runVerified(sc);
    const ev = factsEvents(sim);
    const n = sc.cluster.workers;
    let inPhase = 0;
    for (const e of ev) {
      if (e.f?.kind !== 'ring-worker') continue;
      const f = e.f;
      expect(f.round).toBeGreaterThanOrEqual(1);
      if (f.phase === 'compute') {
        expect([f.k, f.waitingFor]).toEqual([0, null]);
        continue;
      }
      inPhase++;
      expect(f.k).toBeGreaterThanOrEqual(1);
      expect(f.k).toBeLessThanOrEqual(n - 1);
      expect(f.waitingFor).toBe(`w${(Number(e.node.slice(1)) - 1 + n) % n}`);
    }
    expect(inPhase).toBeGreaterThan(0);
    // A finished round r leaves the replica at version r; the worker then works on round r + 1.
    const versions = sim.history.events.filter((e): e is Extract<HistoryEvent, { type: 'version' }> => e.type === 'version' && e.t > 0);
    expect(versions.length).toBeGreaterThan(40);
    for (const v of versions.slice(0, 40)) expect((factsAt(ev, v.node, v.t) as Of<'ring-worker'>).round).toBe(v.version + 1);
  });

  it('ssp: a crashed worker is the slowest; the others block on it, needing one clock more than the server holds', async () => {
    const v = validateScenario({
      schema: 1,
      id: 'ssp-facts',
      seed: 3,
      durationMs: 4000,
      cluster: { workers: 3, servers: 1 },
      compute: { stepMs: 100, jitter: 0.1 },
      strategy: { kind: 'ssp', staleness: 2 },
      timeline: [
        { at: 1000, do: 'crash', node: 'w2' },
        { at: 2500, do: 'restart', node: 'w2' },
      ],
    });
    if (!v.ok) throw new Error(v.errors.join('; '));
    const sim = await runVerified(v.scenario);
    const ev = factsEvents(sim);
    const server = factsAt(ev, 's0', 2400) as Of<'ps-server'>;
    expect(server.slowest).toEqual(['w2']);
    expect(server.staleness).toBe(2);
    const w0 = factsAt(ev, 'w0', 2400) as Of<'ps-worker'>;
    expect(w0).toMatchObject({ state: 'waiting', waitFor: 'bound', unacked: 0 });
    // Clock c may start once the slowest reached c − s; w0 completed c = minClock + s + 1.
    expect(w0.clock).toBe(server.minClock! + 3);
    expect(w0.needClock).toBe(server.minClock! + 1);
    expect(w0.seenMinClock).toBe(server.minClock);
    expect(factsAt(ev, 'w2', 2400)).toBeNull();
    expect(factsAt(ev, 'w2', 2500)).toEqual({ kind: 'ps-worker', state: 'pulling' });
    // The restarted worker resumes at the server's count of its clocks, and releases the others.
    const back = ev.find((e) => e.node === 'w2' && e.t > 2500 && e.f?.kind === 'ps-worker' && e.f.state !== 'pulling')!.f as Of<'ps-worker'>;
    expect(back.clock).toBe(server.minClock);
    const w0Later = ev.filter((e) => e.node === 'w0' && e.t > 2500).map((e) => e.f as Of<'ps-worker'>);
    expect(w0Later.some((f) => f.state === 'training' && f.clock! > w0.clock!)).toBe(true);
    expect(sim.metric('violations')).toBe(0);
  });

  it('ps-sync: the server counts gradients against the quorum; workers wait at the barrier', async () => {
    const sc = builtin('stragglers-backup');
    const sim = await runVerified(sc);
    const ev = factsEvents(sim);
    const srv = ev.filter((e) => e.node === 's0').map((e) => e.f as Of<'ps-server'>);
    const b = (sc.strategy as { backupWorkers: number }).backupWorkers;
    expect(b).toBeGreaterThan(0);
    const quorum = sc.cluster.workers - b;
    expect(new Set(srv.map((f) => f.quorum))).toEqual(new Set([quorum]));
    // The quorum-th gradient closes the round in the same event: the count never shows it.
    expect(Math.max(...srv.map((f) => f.received!))).toBe(quorum - 1);
    expect(Math.max(...srv.map((f) => f.version))).toBeGreaterThan(20);
    expect(ev.some((e) => e.f?.kind === 'ps-worker' && e.f.waitFor === 'barrier')).toBe(true);
  });

  it('ps-async: a cut-off worker reports the server unreachable, with its unacknowledged updates', async () => {
    const sim = await runVerified(builtin('async-partition'));
    const cutOff = factsEvents(sim).flatMap((e) => (e.f?.kind === 'ps-worker' && e.f.state === 'unreachable' ? [e.f] : []));
    expect(cutOff.length).toBeGreaterThan(0);
    expect(Math.max(...cutOff.map((f) => f.unacked!))).toBeGreaterThan(1);
  });

  it('degrade: sides under the partition, the heal hysteresis, a coordinator collecting, the shared store', async () => {
    const sc = builtin('degrade-average');
    const sim = await runVerified(sc);
    const all = factsEvents(sim);
    const dw = all.flatMap((e) => (e.f?.kind === 'degrade-worker' ? [{ node: e.node, t: e.t, f: e.f }] : []));
    const eventual = dw.filter((x) => x.f.mode === 'eventual');
    expect(eventual.some((x) => x.f.majoritySide === true)).toBe(true);
    expect(eventual.some((x) => x.f.majoritySide === false)).toBe(true);
    for (const x of eventual) expect(x.f.side).toContain(x.node);
    expect(eventual.some((x) => x.f.stable === true)).toBe(true);
    expect(dw.some((x) => x.f.mode === 'merging' && x.f.coordinator === 'w0')).toBe(true);
    expect(Math.max(...dw.map((x) => x.f.collected ?? 0))).toBe(sc.cluster.workers - 1); // the last one merges at once
    // Strong workers carry ring facts whose rounds continue from the merged version.
    const afterMerge = dw.filter((x) => x.f.mode === 'strong' && x.f.epoch > 1 && x.f.ring);
    expect(afterMerge.length).toBeGreaterThan(0);
    for (const x of afterMerge.slice(0, 20)) {
      const version = sim.history.events.filter((e) => e.type === 'version' && e.node === x.node && e.t <= x.t).at(-1) as Extract<HistoryEvent, { type: 'version' }>;
      expect(x.f.ring!.round).toBe(version.version + 1);
    }
    // The store is shared: at any time every live worker shows the same epoch and writer.
    for (let t = 0; t <= sc.durationMs; t += 250) {
      const seen = new Set<string>();
      for (let i = 0; i < sc.cluster.workers; i++) {
        const f = factsAt(all, `w${i}`, t);
        if (f?.kind === 'degrade-worker') seen.add(`${f.storeEpoch}/${f.storeWriter}`);
      }
      expect(seen.size, `t=${t}`).toBe(1);
    }
    expect(new Set(dw.map((x) => x.f.storeEpoch)).size).toBeGreaterThan(1);
  });
});
