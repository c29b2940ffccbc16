import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSamplesCsv } from '../engine/runExport';
import type { HistoryEvent } from '../sim/types';

/** End-to-end: the real `npm run sim` entry point as a child process (exit codes, stdout purity). */

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cap-cli-main-'));

function sim(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const small = {
  schema: 1,
  id: 'small',
  seed: 3,
  durationMs: 1500,
  cluster: { workers: 2 },
  strategy: { kind: 'allreduce' },
  model: { dataset: 'xor', hidden: [4], samples: 100 },
};

describe('sim CLI', () => {
  it('bad arguments: exit 2, messages on stderr, no stack trace', () => {
    const r = sim('allreduce-partition', '--seed', 'x', '--what');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: --seed: "x" is not an integer');
    expect(r.stderr).toContain('error: unknown option "--what"');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('invalid scenario file: exit 2 naming the field', () => {
    const p = join(dir, 'bad.json');
    writeFileSync(p, JSON.stringify({ ...small, timeline: [{ at: 1, do: 'crash', node: 'w5' }] }));
    const r = sim(p);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${p}: timeline[0].node: node "w5" does not exist (cluster has w0-w1)`);
  });

  it('--json prints exactly one JSON object; --log writes JSON Lines; passing run exits 0', () => {
    const p = join(dir, 'good.json');
    const log = join(dir, 'events.jsonl');
    writeFileSync(p, JSON.stringify({ ...small, expect: [{ at: 'end', metric: 'steps', op: '>', value: 0 }] }));
    const r = sim(p, '--json', '--log', log, '--seed', '5');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]) as { scenario: string; seed: number; pass: boolean; simTimeMs: number; events: number };
    expect(out).toMatchObject({ scenario: 'small', seed: 5, pass: true, simTimeMs: 1500 });
    const events = readFileSync(log, 'utf8').trim().split('\n');
    expect(events).toHaveLength(out.events);
    for (const e of events.slice(0, 20)) expect(typeof (JSON.parse(e) as { t: number }).t).toBe('number');
  });

  it('--history writes the operations on the parameters as Jepsen-style JSON Lines', () => {
    const p = join(dir, 'history.json');
    const out = join(dir, 'ops.jsonl');
    writeFileSync(p, JSON.stringify({ ...small, cluster: { workers: 2, servers: 1 }, strategy: { kind: 'ps-async' } }));
    const r = sim(p, '--history', out);
    expect(r.code, r.stderr).toBe(0);
    const ops = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { process: string; type: string; f: string; value: { version?: number; hash?: string } | null; time: number; id: number });
    expect(ops.length).toBeGreaterThan(10);
    expect(ops.some((o) => o.f === 'update' && o.type === 'ok')).toBe(true);
    const read = ops.find((o) => o.f === 'read' && o.type === 'ok')!;
    expect(read.value).toEqual({ version: expect.any(Number), hash: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(Object.keys(read).sort()).toEqual(['f', 'id', 'process', 'time', 'type', 'value']);
    expect(sim(p, '--history', join(dir, 'no-such-dir', 'x.jsonl')).stderr).toContain('error: --history: cannot write');
  });

  it('--samples writes the engine samples as CSV; the cluster steps at the end equal --json', () => {
    const p = join(dir, 'samples.json');
    const csv = join(dir, 'samples.csv');
    const log = join(dir, 'samples-events.jsonl');
    writeFileSync(p, JSON.stringify({ ...small, cluster: { workers: 2, servers: 1 }, strategy: { kind: 'ps-async' }, expect: [{ at: 700, metric: 'steps', op: '>', value: 0 }] }));
    const r = sim(p, '--json', '--samples', csv, '--log', log);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { metrics: Record<string, number>; simTimeMs: number };
    const text = readFileSync(csv, 'utf8');
    expect(text.split('\n')[0]).toBe('t_ms,metric,node,value');
    const rows = parseSamplesCsv(text);
    // Every value is a number: nulls are left out, not written as "null" or "".
    for (const row of rows) expect(Number.isFinite(row.value), JSON.stringify(row)).toBe(true);
    const endSteps = rows.filter((x) => x.metric === 'steps' && x.node === null && x.t === out.simTimeMs);
    expect(endSteps).toHaveLength(1);
    expect(endSteps[0].value).toBe(out.metrics.steps);
    expect(out.metrics.steps).toBeGreaterThan(0);
    // Per-node rows, and the samples are on the simulated clock: every 250 ms, the expectation time, the end.
    const w1 = rows.filter((x) => x.metric === 'steps' && x.node === 'w1');
    expect(w1.map((x) => x.t)).toEqual([0, 250, 500, 700, 750, 1000, 1250, 1500]);
    expect(w1[w1.length - 1].value).toBeLessThanOrEqual(out.metrics.steps);
    // The CSV is exactly the metrics events of the event log, row for row.
    const samples = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as HistoryEvent).filter((e) => e.type === 'metrics');
    const expected = samples.flatMap((e) => (e.type === 'metrics' ? [...Object.values(e.v.cluster), ...Object.values(e.v.nodes).flatMap((n) => Object.values(n))].filter((v) => v !== null) : []));
    expect(rows.map((x) => x.value)).toEqual(expected);
    expect(sim(p, '--samples', join(dir, 'no-such-dir', 'x.csv')).stderr).toContain('error: --samples: cannot write');
  });

  it('a failing expectation exits 1 and says FAIL', () => {
    const p = join(dir, 'fails.json');
    writeFileSync(p, JSON.stringify({ ...small, expect: [{ at: 'end', metric: 'steps', op: '<', value: 0 }] }));
    const r = sim(p);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL\s+steps < 0 at end/m);
    expect(r.stdout).toMatch(/result: FAIL/);
  });

  it('variants: --json adds {id, scheduleHash, eventLogHash, metrics, expectations, pass} per variant; the verdict needs every one', () => {
    const p = join(dir, 'variants.json');
    const scenario = {
      ...small,
      variants: [
        { id: 'three', patch: { cluster: { workers: 3 } } },
        { id: 'slow', patch: { compute: { stepMs: 1000 } } },
      ],
      expect: [
        { at: 'end', metric: 'steps', op: '>', value: 0, variant: '*' },
        { at: 'end', metric: 'steps', op: '>', value: 12, variant: 'slow' },
      ],
    };
    writeFileSync(p, JSON.stringify(scenario));
    const r = sim(p, '--json');
    expect(r.code, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout) as { pass: boolean; expectations: unknown[]; variants: Array<{ id: string; scheduleHash: string; pass: boolean; metrics: Record<string, number>; expectations: Array<{ metric: string; pass: boolean }> }> };
    expect(out.pass).toBe(false);
    expect(out.expectations).toHaveLength(1); // the base holds "*" only
    expect(out.variants.map((v) => [v.id, v.pass, v.expectations.length])).toEqual([
      ['three', true, 1],
      ['slow', false, 2],
    ]);
    expect(Object.keys(out.variants[0]).sort()).toEqual(['eventLogHash', 'expectations', 'id', 'metrics', 'pass', 'scheduleHash']);
    // Each variant's hashes are its own run's: that variant written out as a scenario alone hashes the same.
    const vs = out.variants;
    expect(vs[0].scheduleHash).not.toBe(vs[1].scheduleHash);
    const alone = join(dir, 'three.json');
    writeFileSync(alone, JSON.stringify({ ...small, cluster: { ...small.cluster, workers: 3 }, expect: [{ at: 'end', metric: 'steps', op: '>', value: 0 }] }));
    expect((JSON.parse(sim(alone, '--json').stdout) as { scheduleHash: string }).scheduleHash).toBe(vs[0].scheduleHash);
    // 1.5 s at 1 s per step: each of the two workers completes one step.
    expect(out.variants[1].metrics.steps).toBe(2);
    const text = sim(p);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^variant slow\nPASS\s+steps > 0 at end\s+actual 2\nFAIL\s+steps > 12 at end/m);
    expect(text.stdout).toMatch(/overall: FAIL \(base and 2 variants\)/);
    writeFileSync(p, JSON.stringify({ ...scenario, expect: scenario.expect.slice(0, 1) }));
    expect(sim(p, '--json').code).toBe(0);
  });
});
