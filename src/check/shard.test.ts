import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testScenario } from '../engine/testing/scenarios';
import { mergeSweepLines, runSweep, sweepLine, sweepOutput, sweepRuns, type SweepArgs } from '../cli/sweep';
import { parseCheckArgs, type CheckArgs } from './args';
import { checkStrategy, mergeRecords } from './cli';
import type { SeedRecord } from './report';
import { parseShard, shardOf } from './shard';

const root = fileURLToPath(new URL('../../', import.meta.url));

function checkArgs(argv: string[]): CheckArgs {
  const p = parseCheckArgs(argv);
  if (!p.ok || !('args' in p)) throw new Error(JSON.stringify(p));
  return p.args;
}

async function checkLines(argv: string[]): Promise<string[]> {
  const a = checkArgs(argv);
  const lines: string[] = [];
  for (const kind of a.strategies) await checkStrategy(a, kind, { onRecord: (r: SeedRecord) => lines.push(JSON.stringify(r)) });
  return lines;
}

describe('--shard I/N', () => {
  it('parses I/N and refuses anything else by name', () => {
    expect(parseShard('2/8')).toEqual({ ok: true, shard: { index: 2, count: 8 } });
    for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '-1/3', '1.5/3']) {
      expect(parseShard(bad)).toEqual({ ok: false, error: `--shard: "${bad}" is not I/N with 1 ≤ I ≤ N (e.g. 2/8)` });
    }
    expect(parseCheckArgs(['--shard', '3/2'])).toMatchObject({ ok: false, errors: [expect.stringContaining('--shard: "3/2"')] });
  });

  it('shards are disjoint, cover the list, and interleave', () => {
    const xs = Array.from({ length: 10 }, (_, i) => i + 1);
    const parts = [1, 2, 3].map((index) => shardOf(xs, { index, count: 3 }));
    expect(parts).toEqual([[1, 4, 7, 10], [2, 5, 8], [3, 6, 9]]);
    expect(parts.flat().sort((a, b) => a - b)).toEqual(xs);
    expect(shardOf(xs, { index: 5, count: 12 })).toEqual([5]);
    expect(shardOf(xs, { index: 11, count: 12 })).toEqual([]);
  });

  it('check: the lines of shards 1/3, 2/3 and 3/3 concatenated are the unsharded run’s, and merge into its report', async () => {
    const base = ['--strategy', 'ps-async', '--seeds', '6', '--from', '20', '--duration', '1200', '--jsonl'];
    const whole = await checkLines(base);
    const shards = [];
    for (const s of ['1/3', '2/3', '3/3']) shards.push(await checkLines([...base, '--shard', s]));
    expect(shards.map((l) => l.length)).toEqual([2, 2, 2]);
    const concatenated = shards.flat();
    expect([...concatenated].sort()).toEqual([...whole].sort());
    const merged = mergeRecords([{ name: 'shards', text: concatenated.join('\n') }]);
    const one = mergeRecords([{ name: 'whole', text: whole.join('\n') }]);
    expect(merged).toEqual(one);
    if (!one.ok) throw new Error(one.errors.join('; '));
    // …and that is the report the unsharded run itself printed, timings aside.
    const direct = await checkStrategy(checkArgs(base), 'ps-async');
    expect({ ...one.reports[0], ms: 0, seedsPerMinute: 0 }).toEqual({ ...direct, ms: 0, seedsPerMinute: 0 });
    expect(one.reports[0]).toMatchObject({ seeds: 6, from: 20, to: 25 });
  }, 120_000);

  it('merge refuses overlapping shards and lines that are not records, naming file and line', () => {
    const rec = JSON.stringify({ kind: 'allreduce', seed: 1, problems: [], expectLoss: false });
    expect(mergeRecords([{ name: 'a.jsonl', text: `${rec}\n${rec}` }])).toEqual({ ok: false, errors: ['a.jsonl:2: allreduce seed 1 appears twice (overlapping shards?)'] });
    expect(mergeRecords([{ name: 'b.jsonl', text: '{"x":1}' }])).toEqual({ ok: false, errors: ['b.jsonl:1: not a --jsonl seed record'] });
    expect(mergeRecords([{ name: 'c.jsonl', text: '{"kind":' }])).toMatchObject({ ok: false, errors: [expect.stringMatching(/^c\.jsonl:1: not JSON/)] });
    // Progress text collected with the lines (kubectl logs carries stderr too) is not a record.
    const logs = mergeRecords([{ name: 'pod.log', text: `training: stand-in gradients\n${rec}\nPASS allreduce: …` }]);
    expect(logs.ok && logs.reports.map((r) => [r.kind, r.seeds])).toEqual([['allreduce', 1]]);
  });

  it('sweep: shards 1/3, 2/3 and 3/3 concatenated give the unsharded rows and output', async () => {
    const sc = testScenario({ durationMs: 1500, cluster: { workers: 3, servers: 1 }, strategy: { kind: 'ssp', staleness: 0 } });
    const args: SweepArgs = { target: sc.id, knob: 'staleness', values: [0, 1, 2, 4, 'inf'], metric: 'steps', json: true, jsonl: true };
    const runsOf = (a: SweepArgs) => {
      const r = sweepRuns(sc, a);
      if (!r.ok) throw new Error(r.errors.join('; '));
      return r.runs;
    };
    const lines = async (a: SweepArgs) => {
      const out: string[] = [];
      await runSweep(runsOf(a), a, (row, index) => out.push(JSON.stringify(sweepLine(sc, a, row, index))));
      return out;
    };
    const whole = await lines(args);
    const shards = [];
    for (const index of [1, 2, 3]) shards.push(await lines({ ...args, shard: { index, count: 3 } }));
    expect(shards.map((l) => l.length)).toEqual([2, 2, 1]);
    expect([...shards.flat()].sort()).toEqual([...whole].sort());
    const merged = mergeSweepLines([{ name: 'cat', text: shards.flat().join('\n') }]);
    if (!merged.ok) throw new Error(merged.errors.join('; '));
    const rows = await runSweep(runsOf(args), args);
    expect(merged.rows).toEqual(rows);
    const head = { scenario: sc.id, seed: sc.seed, knob: 'staleness', metric: 'steps' as const, at: null };
    expect(sweepOutput(merged.head, merged.rows, true)).toBe(sweepOutput(head, rows, true));
    expect(new Set(rows.map((r) => r.steps)).size).toBeGreaterThan(1); // the knob matters: rows differ
  }, 120_000);

  it('npm run check: --shard with --jsonl writes only lines on stdout; --merge prints the run’s summary and exit status', async () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/check.ts', '--strategy', 'allreduce', '--seeds', '2', '--duration', '1000', '--shard', '2/2', '--jsonl'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as SeedRecord).seed)).toEqual([2]);
    const first = await checkLines(['--strategy', 'allreduce', '--seeds', '2', '--duration', '1000', '--shard', '1/2', '--jsonl']);
    const m = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/check.ts', '--merge', '-'], { cwd: root, encoding: 'utf8', input: [...first, ...lines].join('\n'), timeout: 120_000 });
    expect(m.status, m.stderr).toBe(0);
    expect(m.stdout).toMatch(/^PASS allreduce: seeds 1\.\.2, 0 failing/m);
    expect(m.stdout).toMatch(/result: PASS \(1 strategy, 2 seeds\)/);
  }, 120_000);
});

describe('--jsonl with --coord', () => {
  it('records carry the service and the metadata verdict (only then), shards merge into the --coord report, and runs of different services do not mix', async () => {
    const plain = (await checkLines(['--strategy', 'degrade', '--seeds', '2', '--from', '5', '--duration', '2000'])).map((l) => JSON.parse(l) as SeedRecord);
    for (const r of plain) expect(Object.keys(r)).not.toContain('coord');
    const etcd = async (shard: string) => checkLines(['--strategy', 'degrade', '--seeds', '4', '--duration', '2000', '--coord', 'etcd', '--shard', shard]);
    const lines = [...(await etcd('1/2')), ...(await etcd('2/2'))];
    const recs = lines.map((l) => JSON.parse(l) as SeedRecord);
    expect(recs.map((r) => [r.coord, r.metaLinearizability])).toEqual(recs.map(() => ['etcd', 'linearizable']));
    const merged = mergeRecords([{ name: 'shards', text: lines.join('\n') }]);
    if (!merged.ok) throw new Error(merged.errors.join('; '));
    expect(merged.reports[0]).toMatchObject({ kind: 'degrade', coord: 'etcd', seeds: 4, metaLinearizability: { checked: 4, linearizable: 4 } });
    const mixed = mergeRecords([{ name: 'mixed', text: [...lines, ...plain.map((r) => JSON.stringify(r))].join('\n') }]);
    expect(mixed).toEqual({ ok: false, errors: ['degrade: records mix runs with different --coord services'] });
  });
});
