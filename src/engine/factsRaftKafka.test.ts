import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCheckScenario, strategyConfig } from '../check/runner';
import type { NodeFacts } from '../protocols/facts';
import { resolveVariant, validateScenario } from '../scenario/validate';
import type { Scenario } from '../scenario/schema';
import { Simulation } from './simulation';
import { foldHistory, liveLogs, strategyOf } from './testing/historyFold';
import { InstantTrainer } from './testing/instantTrainer';

/**
 * raft-ps and kafka-ps report their state as typed facts and logs (protocols/facts.ts), and the
 * history must say everything: with `verifyFacts` the engine re-reads every node after every event
 * and fails the run if a node's facts or log changed without being recorded (a missing
 * `ctx.touch`). At the end, the facts and logs folded from the history equal the live ones.
 */

const dir = new URL('../../public/scenarios/', import.meta.url);
/** Every built-in and every variant of one (named "id:variant") that runs raft-ps or kafka-ps. */
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
  .filter((s) => s.strategy.kind === 'raft-ps' || s.strategy.kind === 'kafka-ps');

/** Every run of those built-ins: the base and each variant (a lesson's variants replace former built-ins). */
const runs: Array<readonly [string, Scenario]> = builtins.flatMap((s) => [
  [s.id, s] as const,
  ...(s.variants ?? []).map((v) => {
    const r = resolveVariant(s, v.id);
    if (!r.ok) throw new Error(`${s.id} / ${v.id}: ${r.errors.join('; ')}`);
    return [`${s.id} / ${v.id}`, r.scenario] as const;
  }),
]);

async function runVerified(scenario: Scenario, trainer = new InstantTrainer()): Promise<Simulation> {
  const sim = await Simulation.create(scenario, { trainer, sampleEveryMs: 0, verifyFacts: true });
  await sim.runToEnd();
  expect(sim.failure).toBeNull();
  return sim;
}

/** The history, folded to its end, equals every node's live facts and log. */
function expectHistoryMatchesLive(sim: Simulation): void {
  const st = strategyOf(sim);
  const { bases, logs } = liveLogs(sim);
  const folded = foldHistory(sim.history.events, bases);
  for (const n of sim.nodes()) expect(folded.facts.get(n.id) ?? null, n.id).toEqual(st.facts?.(n.id) ?? null);
  const logNodes = sim.nodes().filter((n) => n.role === 'server' || n.role === 'broker');
  expect([...logs.keys()].length).toBeGreaterThan(0);
  for (const n of logNodes) expect(folded.logs.get(n.id) ?? [], n.id).toEqual(logs.get(n.id) ?? []);
}

type Kind<K extends NodeFacts['kind']> = Extract<NodeFacts, { kind: K }>;

describe('raft-ps and kafka-ps built-ins: every change of facts and logs is in the history', () => {
  it('the built-ins include raft and kafka lessons', () => {
    expect(runs.filter(([, s]) => s.strategy.kind === 'raft-ps').length).toBeGreaterThanOrEqual(3);
    expect(runs.filter(([, s]) => s.strategy.kind === 'kafka-ps').length).toBeGreaterThanOrEqual(6);
  });

  it.each(runs)('%s', async (_id, scenario) => {
    const sim = await runVerified(scenario);
    expectHistoryMatchesLive(sim);
    const logEvents = sim.history.events.filter((e) => e.type === 'log');
    // Every replicated log changed; where updates were applied, many times (a run whose every
    // update is refused — L11's etcd-params — logs only its leaders' no-ops).
    for (const id of liveLogs(sim).logs.keys()) expect(logEvents.some((e) => e.node === id), id).toBe(true);
    if ((sim.metric('version') ?? 0) > 0) expect(logEvents.length).toBeGreaterThan(10);
  });
});

describe('facts folded from the history at time t tell the lesson', () => {
  const byId = (id: string) => builtins.find((s) => s.id === id)!;
  const factsAt = (sim: Simulation, t: number) => foldHistory(sim.history.events, liveLogs(sim).bases, t).facts;

  it('raft-leader-crash: one leader at 3.9 s, a different one in a later term at 6.9 s; the crashed one kept its term', async () => {
    const sim = await runVerified(byId('raft-leader-crash'));
    const leadersAt = (t: number) =>
      [...factsAt(sim, t)].filter((e): e is [string, Kind<'raft-server'>] => e[1]?.kind === 'raft-server' && e[1].role === 'leader');
    const before = leadersAt(3900);
    expect(before.length).toBe(1);
    const [first, f1] = before[0];
    const after = leadersAt(6900).filter(([id]) => id !== first);
    expect(after.length).toBe(1);
    expect(after[0][1].term).toBeGreaterThan(f1.term);
    // Crashed at 4 s: its persistent term stays; its volatile state is gone (a fresh follower's).
    const crashed = factsAt(sim, 6900).get(first) as Kind<'raft-server'>;
    expect(crashed).toMatchObject({ role: 'follower', term: f1.term, commitIndex: 0, version: 0 });
    // Followers at 3.9 s name the leader and have committed what it committed, within a round.
    for (const [id, f] of factsAt(sim, 3900)) {
      if (f?.kind !== 'raft-server' || id === first) continue;
      expect(f.leader).toBe(first);
      expect(f.commitIndex).toBeGreaterThan(f1.commitIndex - 5);
    }
  });

  it('kafka-clean-election-offline: ISR {b0} at 5.9 s; after b0 crashes the live replicas know the partition is offline', async () => {
    const sim = await runVerified(byId('kafka-clean-election-offline'));
    const b = (t: number, id: string) => (factsAt(sim, t).get(id) as Kind<'kafka-broker'>).parts[0];
    expect(b(5900, 'b0')).toMatchObject({ role: 'leader', isr: ['b0'] });
    expect(b(5900, 'b1')).toMatchObject({ role: 'follower', leader: 'b0' });
    expect(b(8900, 'b1')).toMatchObject({ role: 'follower', offline: true, isr: ['b0'] });
    expect(b(8900, 'b0').leader).toBeUndefined(); // crashed: it follows nobody and leads nothing
    const end = b(14000, 'b0');
    expect(end.role).toBe('leader'); // the sole in-sync replica returns and leads again, in a new epoch
    expect(end.epoch).toBeGreaterThan(b(5900, 'b0').epoch);
    // The PS replica's lag grows while the partition is offline? No: nothing commits, so it stays caught up.
    const s0 = factsAt(sim, 8900).get('s0') as Kind<'kafka-consumer'>;
    expect(s0.lag).toBe(0);
  });

  it('kafka-unclean-leader-election: a follower outside the ISR leads in a new epoch and b0 truncates to its log', async () => {
    const sim = await runVerified(byId('kafka-unclean-leader-election'));
    const parts = (t: number) =>
      new Map([...factsAt(sim, t)].flatMap(([id, f]) => (f?.kind === 'kafka-broker' ? [[id, f.parts[0]] as const] : [])));
    const unclean = sim.history.events.filter((e) => e.type === 'note' && e.what === 'uncleanElection');
    expect(unclean.length).toBe(1);
    const leaders = [...parts(unclean[0].t)].filter(([, p]) => p.role === 'leader');
    expect(leaders.length).toBe(1);
    expect(leaders[0][0]).not.toBe('b0');
    expect(leaders[0][1].isr).toEqual([leaders[0][0]]); // the ISR restarts as the new leader alone
    expect(leaders[0][1].epoch).toBeGreaterThan(parts(5900).get('b0')!.epoch);
    // At the end every replica of partition 0 holds the same log (b0's unreplicated tail is gone).
    const { logs } = liveLogs(sim);
    expect(logs.get('b0')).toEqual(logs.get(leaders[0][0]));
  });
});

describe('kafka-ps: changes the controller makes on other nodes are recorded', () => {
  it('acks=0: records refused while the partition is offline are sent, and so acknowledged, the moment its leader returns', async () => {
    const base = builtins.find((s) => s.id === 'kafka-clean-election-offline')!;
    if (base.strategy.kind !== 'kafka-ps') throw new Error('expected kafka-ps');
    const sim = await runVerified({ ...base, expect: [], strategy: { ...base.strategy, acks: '0' } });
    const at = (t: number) => foldHistory(sim.history.events, liveLogs(sim).bases, t).facts;
    const unacked = (t: number) => [...at(t).values()].reduce((n, f) => n + (f?.kind === 'kafka-producer' ? f.unacked : 0), 0);
    expect(unacked(8999)).toBeGreaterThan(4); // offline since b0 was fenced: every record is refused and kept for retry
    // b0 registers at 9 s: the controller elects it, and the producers resend at once (the send is the ack).
    expect(unacked(9000)).toBe(0);
  });
});

/** Random fault schedules of the checker (partitions, cuts, crashes, loss, duplication), verified event by event. */
describe.each([
  ['raft-ps', {}, 12],
  ['raft-ps', { readMode: 'lease', checkQuorum: true }, 6],
  ['raft-ps', { readMode: 'log', leaderNoop: false }, 6],
  ['kafka-ps', { 'replica.lag.time.max.ms': 1000, 'broker.session.timeout.ms': 500, 'min.insync.replicas': 2 }, 10],
  ['kafka-ps', { acks: '1', 'unclean.leader.election.enable': true, 'replica.lag.time.max.ms': 1000, 'broker.session.timeout.ms': 500 }, 8],
  ['kafka-ps', { acks: '0', 'num.partitions': 2, 'broker.session.timeout.ms': 500 }, 6],
] as const)('%s %j under nemesis schedules', (kind, config, seeds) => {
  it.each(Array.from({ length: seeds }, (_, i) => i + 1))('seed %i', async (seed) => {
    const conf = strategyConfig(kind, config);
    if (!conf.ok) throw new Error(conf.error);
    const { scenario, schedule } = buildCheckScenario({ kind, seed, config, crashServers: seed % 2 === 0 }, conf.cfg);
    // The quiet period after the heal is for the liveness check; a few seconds show the recovery.
    const v = validateScenario({ ...(scenario as object), durationMs: schedule.healAt + 3000 });
    if (!v.ok) throw new Error(v.errors.join('; '));
    const sim = await runVerified(v.scenario, new InstantTrainer(16, 50));
    expectHistoryMatchesLive(sim);
    expect(sim.history.events.filter((e) => e.type === 'log').length).toBeGreaterThan(10);
  });
});
