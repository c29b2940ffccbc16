import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCheckArgs, reproCommand } from './args';
import { allowsLoss, checkModel } from './models';
import { nemesisSchedule } from './nemesis';
import { buildCheckScenario, livenessProblem, runSeed, strategyConfig } from './runner';
import { checkStrategy } from './cli';
import type { HistoryEvent } from '../sim/types';
import { checkLinearizability } from './linearizability';
import { opsFromHistory } from './ops';
import { validateScenario } from '../scenario/validate';
import { Simulation } from '../engine/simulation';
import { InstantTrainer } from '../engine/testing/instantTrainer';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('nemesis', () => {
  const opts = { seed: 11, workers: 4, servers: 3, brokers: 0, startMs: 500, faultMs: 5000, meanGapMs: 400, network: { latencyMs: 5, jitterMs: 2 } };
  it('is a seeded function of its options, and heals everything at the end', () => {
    const a = nemesisSchedule(opts);
    expect(nemesisSchedule(opts)).toEqual(a);
    expect(nemesisSchedule({ ...opts, seed: 12 })).not.toEqual(a);
    const during = a.timeline.filter((e) => e.at < a.healAt);
    expect(during.length).toBeGreaterThan(5);
    const crashed = new Set(during.filter((e) => e.do === 'crash' && e.node[0] !== '@').map((e) => (e as { node: string }).node));
    const atHeal = a.timeline.filter((e) => e.at === a.healAt);
    expect(atHeal[0]).toEqual({ do: 'heal', at: a.healAt });
    for (const node of crashed) {
      const lastCrash = Math.max(...during.filter((e) => e.do === 'crash' && e.node === node).map((e) => e.at));
      const restarted = a.timeline.some((e) => e.do === 'restart' && e.node === node && e.at >= lastCrash);
      expect(restarted, node).toBe(true);
    }
  });
  it('draws every kind of fault over many seeds', () => {
    const kinds = new Set<string>();
    for (let seed = 0; seed < 30; seed++) for (const k of Object.keys(nemesisSchedule({ ...opts, seed }).counts)) kinds.add(k);
    for (const k of ['partition', 'cut', 'restore', 'crash', 'crash-leader', 'restart', 'slow', 'link-loss', 'link-duplicate', 'link-slow', 'heal']) expect(kinds).toContain(k);
  });
});

describe('liveness after the heal', () => {
  const ev = (e: Partial<HistoryEvent> & { type: string }) => e as HistoryEvent;
  it('needs every live worker to resume within the bound and keep going', () => {
    const ok = [ev({ t: 5100, type: 'counted', node: 'w0' }), ev({ t: 8900, type: 'counted', node: 'w0' })];
    expect(livenessProblem(ok, 1, 5000, 3000, 9000)).toBeNull();
    expect(livenessProblem([], 1, 5000, 3000, 9000)).toBe('w0 made no progress after the heal at 5000 ms');
    expect(livenessProblem([ev({ t: 8500, type: 'counted', node: 'w0' })], 1, 5000, 3000, 9000)).toContain('resumed only at 8500 ms');
    expect(livenessProblem([ev({ t: 5100, type: 'counted', node: 'w0' })], 1, 5000, 3000, 9000)).toContain('stopped progressing');
    expect(livenessProblem([ev({ t: 100, type: 'crash', node: 'w0' })], 1, 5000, 3000, 9000)).toBeNull();
  });
});

describe('checker runs', () => {
  it('allreduce: no violation, no loss, progress after the heal, linearizable rounds', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await runSeed({ kind: 'allreduce', seed, faultMs: 3000 });
      expect(r.problems, JSON.stringify(r.problems)).toEqual([]);
      expect(r.linearizability?.result).toBe('linearizable');
      expect(r.ops).toBeGreaterThan(30);
    }
  });
  it('ps-async: loss is allowed (checkpoint restore) and found when servers crash', async () => {
    let lost = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const r = await runSeed({ kind: 'ps-async', seed, faultMs: 3000, crashServers: true });
      expect(r.problems, JSON.stringify(r.problems)).toEqual([]);
      expect(r.lossAllowed).toBe(true);
      lost += r.lostUpdates;
    }
    expect(lost).toBeGreaterThan(0);
  });
  it.each(['etcd', 'zookeeper'] as const)('with a %s coordination service: its nodes take faults, processes pause, metadata is written; a fenced lock loses nothing to overwrites', async (coord) => {
    const faults = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const r = await runSeed({ kind: 'ps-async', config: { writeLock: 'lease', writeMode: 'set', fencing: true }, seed, faultMs: 3000, coord });
      expect(r.problems, JSON.stringify(r.problems)).toEqual([]);
      for (const k of Object.keys(r.faults)) faults.add(k);
      // etcd promises linearizable metadata reads by default, ZooKeeper never does.
      if (coord === 'etcd') expect(r.metaLinearizability?.result).toBe('linearizable');
      else expect(r.metaLinearizability).toBeNull();
    }
    expect(faults).toContain('pause');
    expect(faults).toContain('put-meta');
  });
  it('with a coordination service, the nemesis also faults c0-c2; without, schedules are as before', () => {
    const opts = { seed: 5, workers: 4, servers: 1, brokers: 0, startMs: 500, faultMs: 5000, meanGapMs: 400, network: { latencyMs: 5, jitterMs: 2 } };
    const plain = nemesisSchedule(opts);
    expect(JSON.stringify(plain.timeline)).not.toMatch(/"c\d"|pause|putMeta/);
    let coordFaulted = false;
    for (let seed = 0; seed < 10; seed++) {
      const withCoord = nemesisSchedule({ ...opts, seed, coord: 3, coordFaults: { metaKey: '/m' } });
      if (/"c\d"/.test(JSON.stringify(withCoord.timeline))) coordFaulted = true;
    }
    expect(coordFaulted).toBe(true);
  });
  it('a 16-worker history is decided in about one search state per operation', async () => {
    // paxos-ps, 16 workers, 8 s of partitions, crashes and pauses: ~2,100 operations, many reads
    // concurrent with one another and updates a partition left unanswered. 2,074 states now that
    // the search turns back once the register is past a version a returned operation needs;
    // 28,873 without that, and 235,508 without it and without counting interchangeable pending
    // updates (the search gave up in 2 s on 45 of 60 such seeds). A change of the protocols'
    // schedules moves these numbers: re-measure before moving the bound.
    const conf = strategyConfig('paxos-ps');
    if (!conf.ok) throw new Error(conf.error);
    const v = validateScenario(buildCheckScenario({ kind: 'paxos-ps', seed: 50001, workers: 16, servers: 3, faultMs: 8000 }, conf.cfg).scenario);
    if (!v.ok) throw new Error(v.errors.join('; '));
    const sim = await Simulation.create(v.scenario, { trainer: new InstantTrainer(16, 50), sampleEveryMs: 0 });
    await sim.runToEnd();
    const ops = opsFromHistory(sim.history.events);
    expect(ops.length).toBeGreaterThan(1500);
    const verdict = checkLinearizability(ops, { maxStates: 5_000, budgetMs: 60_000 });
    expect(verdict).toMatchObject({ result: 'linearizable' });
  }, 60_000);

  it.each(['paxos-ps', '2pc-ps'])('%s: no violation, no loss, progress after the heal, linearizable', async (kind) => {
    for (const seed of [1, 2]) {
      const r = await runSeed({ kind, seed, faultMs: 3000, linBudgetMs: 20_000 });
      expect(r.problems, JSON.stringify(r.problems)).toEqual([]);
      expect(r.lossAllowed).toBe(false);
      expect(r.linearizability?.result).toBe('linearizable');
      expect(r.ops).toBeGreaterThan(30);
    }
  });
  it('the cluster: --servers, else the strategy’s check size, never below what it needs', () => {
    const cfg = strategyConfig('2pc-ps');
    if (!cfg.ok) throw new Error(cfg.error);
    const servers = (o: Partial<Parameters<typeof buildCheckScenario>[0]>) => (buildCheckScenario({ kind: '2pc-ps', seed: 1, ...o }, cfg.cfg).scenario as { cluster: { servers: number } }).cluster.servers;
    expect(servers({})).toBe(3);
    expect(servers({ servers: 5 })).toBe(5);
    expect(servers({ servers: 1 })).toBe(2);
  });
  it('models: what each strategy is held to', () => {
    expect(checkModel({ kind: 'allreduce' })).toMatchObject({ mode: 'rounds', promises: true });
    expect(checkModel({ kind: 'ps-async' }).promises).toBe(false);
    expect(checkModel({ kind: 'raft-ps', readMode: 'local' } as never).promises).toBe(false);
    expect(checkModel({ kind: 'paxos-ps' })).toMatchObject({ mode: 'register', promises: true });
    expect(checkModel({ kind: '2pc-ps' })).toMatchObject({ mode: 'register', promises: true });
    const c = strategyConfig('ps-async');
    expect(c.ok && allowsLoss(c.cfg)).toBe(true);
    const ar = strategyConfig('allreduce');
    expect(ar.ok && allowsLoss(ar.cfg)).toBe(false);
    expect(allowsLoss({ kind: 'some-future-kind', acks: '1' } as never)).toBe(true);
  });
});

describe('a run of many seeds', () => {
  it('lets the event loop turn between seeds (else V8 keeps every seed\'s decoded history: 5.7 MB per kafka-ps seed, out of memory by 1000)', async () => {
    const p = parseCheckArgs(['--strategy', 'allreduce', '--seeds', '3', '--from', '1', '--duration', '300']);
    if (!p.ok || !('args' in p)) throw new Error('bad args');
    // After each seed, a timer: by the next seed's end it must have fired (a task boundary passed).
    let turned = false;
    const seen: boolean[] = [];
    await checkStrategy(p.args, 'allreduce', {
      onRecord: () => {
        seen.push(turned);
        turned = false;
        setTimeout(() => (turned = true), 0);
      },
    });
    expect(seen.slice(1)).toEqual([true, true]);
  });
});

describe('check arguments', () => {
  it('parses, validates knobs, and builds a one-seed reproduction command', () => {
    const p = parseCheckArgs(['--strategy', 'allreduce', '--seeds', '3', '--from=40', '--config', '{"rtoMs":100}']);
    expect(p.ok && 'args' in p && p.args).toMatchObject({ strategies: ['allreduce'], seeds: 3, from: 40, config: { rtoMs: 100 } });
    if (p.ok && 'args' in p) expect(reproCommand(p.args, 'allreduce', 41)).toBe(`npm run check -- --strategy allreduce --seeds 1 --from 41 --config '{"rtoMs":100}'`);
    expect(parseCheckArgs(['--strategy', 'nope'])).toMatchObject({ ok: false, errors: [expect.stringContaining('not a registered strategy')] });
    expect(parseCheckArgs(['--strategy', 'allreduce', '--config', '{"rtoMs":-1}'])).toMatchObject({ ok: false });
    expect(parseCheckArgs(['--strategy', 'allreduce', '--expect-loss'])).toMatchObject({ ok: false, errors: [expect.stringContaining('does not allow loss')] });
    expect(parseCheckArgs(['--seeds', '0'])).toMatchObject({ ok: false });
    expect(parseCheckArgs(['--seed', '3'])).toMatchObject({ ok: false, errors: expect.arrayContaining(['unknown option "--seed" (did you mean --seeds?)']) });
    const c = parseCheckArgs(['--strategy', 'degrade', '--coord', 'zookeeper']);
    if (c.ok && 'args' in c) expect(reproCommand(c.args, 'degrade', 7)).toBe('npm run check -- --strategy degrade --seeds 1 --from 7 --coord zookeeper');
    expect(parseCheckArgs(['--coord', 'consul'])).toMatchObject({ ok: false, errors: ['--coord: "consul" is not a coordination service (etcd or zookeeper)'] });
    const five = parseCheckArgs(['--strategy', 'paxos-ps', '--servers', '5']);
    expect(five.ok && 'args' in five && five.args.servers).toBe(5);
    if (five.ok && 'args' in five) expect(reproCommand(five.args, 'paxos-ps', 9)).toBe('npm run check -- --strategy paxos-ps --seeds 1 --from 9 --servers 5');
    expect(parseCheckArgs(['--servers', 'x'])).toMatchObject({ ok: false, errors: [expect.stringContaining('--servers')] });
  });

  it('npm run check: summary, stand-in note, exit 0; --json prints one object', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/check.ts', '--strategy', 'allreduce', '--seeds', '2', '--duration', '2000', '--json'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('training: stand-in gradients (safety does not depend on values)');
    const out = JSON.parse(r.stdout) as { pass: boolean; strategies: Array<{ kind: string; seeds: number; violations: number; seedsPerMinute: number }> };
    expect(out.pass).toBe(true);
    expect(out.strategies[0]).toMatchObject({ kind: 'allreduce', seeds: 2, violations: 0 });
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/check.ts', '--seeds', 'x'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('error: --seeds: "x" is not an integer');
  });
});
