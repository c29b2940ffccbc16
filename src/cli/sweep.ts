import { readFileSync } from 'node:fs';
import { parseShard, shardOf, type Shard } from '../check/shard';
import type { MetricName, Scenario } from '../scenario/schema';
import { metricNames } from '../scenario/schema';
import { validateScenario } from '../scenario/validate';
import { notMeasuredFact } from '../scenario/measured';
import { problemMessage } from '../scenario/problems';
import { resolveScenario } from './builtins';
import { parseBackend, parseSeed, type CliBackend } from './args';
import { nextTask } from '../check/nextTask';
import { unknownOption } from '../check/unknownOption';

/**
 * `npm run sweep`: one scenario run once per value of a knob, same seed, and a metric for each.
 * Every value is checked before the first run, so a typo in the last value costs no runs.
 */
export const sweepUsage = `usage: npm run sweep -- <scenario.json | built-in id> --knob K --values a,b,… --metric M [options]
       npm run sweep -- [--json] --merge FILE…

Runs the scenario once per value of one knob, with the same seed, and tabulates a metric.

  --knob K           a strategy knob (e.g. staleness, acks) or a dotted scenario path
                     (e.g. compute.transient.p, cluster.workers)
  --values a,b,…     the values, comma-separated; numeric-looking ones are numbers, others
                     strings (e.g. inf)
  --metric M         the metric reported for each value: one of the scenario metrics
                     (e.g. timeToTarget, steps, staleness, lostUpdates)
  --at MS            read the metric at this simulated time instead of the end
  --seed N           override the scenario's seed (an integer)
  --backend B        tfjs backend: cpu (default) or wasm
  --json             print one JSON object: the rows, the value with the least metric (argmin)
                     and whether it lies strictly inside the range (u)
  --jsonl            print one JSON line per value as it finishes (no table)
  --shard I/N        run only the I-th, (I+N)-th, … value (1 ≤ I ≤ N); the shards' --jsonl
                     lines together are the lines of the whole sweep
  --merge FILE…      read such lines (FILE - for stdin) instead of running; print the one
                     sweep's table (or JSON with --json before --merge)
  -h, --help         show this help

exit status: 0 done, 2 invalid input or arguments (nothing is run)`;

export interface SweepArgs {
  target: string;
  knob: string;
  values: Array<number | string>;
  metric: MetricName;
  at?: number;
  json: boolean;
  jsonl?: boolean;
  shard?: Shard;
  /** Overrides the scenario's seed. */
  seed?: number;
  backend?: CliBackend;
}

/** One `--jsonl` line: a row and what it belongs to, so shards' lines merge into one run. */
export interface SweepLine {
  scenario: string;
  seed: number;
  knob: string;
  metric: MetricName;
  at: number | null;
  /** Position of the value in --values: merged rows keep the order the run would have. */
  index: number;
  row: SweepRow;
}

export interface SweepRow {
  value: number | string;
  metric: number | null;
  steps: number | null;
  scheduleHash: string;
}

export function parseSweepArgs(
  argv: readonly string[],
): { ok: true; args: SweepArgs } | { ok: true; merge: string[]; json: boolean } | { ok: true; help: true } | { ok: false; error: string } {
  if (argv.includes('--help') || argv.includes('-h')) return { ok: true, help: true };
  const mergeAt = argv.indexOf('--merge');
  if (mergeAt >= 0) {
    const before = argv.slice(0, mergeAt).filter((a) => a !== '--json');
    const files = argv.slice(mergeAt + 1);
    if (before.length) return { ok: false, error: `--merge takes only files (and --json before it); got ${before.join(' ')}` };
    if (!files.length) return { ok: false, error: '--merge needs at least one file of --jsonl lines (- for stdin)' };
    return { ok: true, merge: files, json: argv.slice(0, mergeAt).includes('--json') };
  }
  let target: string | undefined;
  let knob: string | undefined;
  let values: string | undefined;
  let metric: string | undefined;
  let at: number | undefined;
  let json = false;
  let jsonl = false;
  let shard: Shard | undefined;
  let seed: string | undefined;
  let backend: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--jsonl') jsonl = true;
    else if (a === '--shard') {
      const p = parseShard(argv[++i] ?? '');
      if (!p.ok) return { ok: false, error: p.error };
      shard = p.shard;
    } else if (a === '--knob') knob = argv[++i];
    else if (a === '--values') values = argv[++i];
    else if (a === '--metric') metric = argv[++i];
    else if (a === '--at') at = Number(argv[++i]);
    else if (a === '--seed') seed = argv[++i] ?? '';
    else if (a === '--backend') backend = argv[++i] ?? '';
    else if (a.startsWith('--')) return { ok: false, error: unknownOption(a.slice(2), ['json', 'jsonl', 'shard', 'knob', 'values', 'metric', 'at', 'seed', 'backend', 'merge', 'help']) };
    else if (target === undefined) target = a;
    else return { ok: false, error: `unexpected argument ${a}` };
  }
  if (!target) return { ok: false, error: 'missing scenario (file or built-in id)' };
  if (!knob) return { ok: false, error: '--knob is required' };
  if (!values) return { ok: false, error: '--values is required (comma-separated)' };
  if (!metric || !(metricNames as readonly string[]).includes(metric)) return { ok: false, error: `--metric must be one of ${metricNames.join(', ')}` };
  if (at !== undefined && !(at >= 0)) return { ok: false, error: '--at must be a non-negative number of ms' };
  if (json && jsonl) return { ok: false, error: '--json and --jsonl: choose one output' };
  const seedN = seed === undefined ? undefined : parseSeed(seed);
  if (typeof seedN === 'string') return { ok: false, error: seedN };
  const be = backend === undefined ? undefined : parseBackend(backend);
  if (be && !be.ok) return { ok: false, error: be.error };
  const vals = values.split(',').map((v) => v.trim()).filter(Boolean).map((v) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v));
  if (vals.length === 0) return { ok: false, error: '--values: no value given' };
  return {
    ok: true,
    args: {
      target,
      knob,
      values: vals,
      metric: metric as MetricName,
      at,
      json,
      ...(jsonl ? { jsonl } : {}),
      ...(shard ? { shard } : {}),
      ...(seedN !== undefined ? { seed: seedN } : {}),
      ...(be?.ok ? { backend: be.backend } : {}),
    },
  };
}

/** The scenario with one knob set: a strategy knob by name, or a dotted path into the scenario. */
export function withKnob(sc: Scenario, knob: string, value: number | string): unknown {
  const raw = JSON.parse(JSON.stringify(sc)) as Record<string, unknown>;
  const path = knob.includes('.') ? knob.split('.') : ['strategy', knob];
  let cur = raw;
  for (const k of path.slice(0, -1)) {
    if (typeof cur[k] !== 'object' || cur[k] === null) cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[path[path.length - 1]] = value;
  return raw;
}

/** One value's run: where it stands in --values, and its scenario, checked. */
export interface SweepRun {
  index: number;
  value: number | string;
  scenario: Scenario;
}

/** The scenario a sweep runs: with --seed, that seed. */
export function sweepBase(sc: Scenario, args: Pick<SweepArgs, 'seed'>): Scenario {
  return args.seed === undefined ? sc : { ...sc, seed: args.seed };
}

/**
 * The scenarios of args' shard (all values without one), each checked before any runs: a bad
 * value — or one whose run does not measure --metric — is reported with the others, naming the
 * value and the field, and nothing has run.
 */
export function sweepRuns(sc: Scenario, args: SweepArgs): { ok: true; runs: SweepRun[] } | { ok: false; errors: string[] } {
  const base = sweepBase(sc, args);
  const runs: SweepRun[] = [];
  const errors: string[] = [];
  for (const index of shardOf(args.values.map((_, k) => k), args.shard)) {
    const value = args.values[index];
    const v = validateScenario(withKnob(base, args.knob, value));
    // A metric the run does not measure would print a column of nulls: say so instead.
    if (!v.ok) {
      errors.push(...v.errors.map((e) => `${args.knob}=${value}: ${e}`));
      continue;
    }
    const unmeasured = notMeasuredFact(v.scenario, args.metric);
    if (unmeasured) errors.push(`${args.knob}=${value}: --metric: ${problemMessage(unmeasured)}`);
    else runs.push({ index, value, scenario: v.scenario });
  }
  return errors.length ? { ok: false, errors } : { ok: true, runs };
}

/** Runs checked values (sweepRuns); `onRow` sees each row as it is done. */
export async function runSweep(runs: readonly SweepRun[], args: Pick<SweepArgs, 'metric' | 'at' | 'backend'>, onRow?: (row: SweepRow, index: number) => void): Promise<SweepRow[]> {
  const [{ Simulation }, { LocalTrainer }, { nodeSha256 }] = await Promise.all([import('../engine/simulation'), import('../train/localTrainer'), import('./nodeSha256')]);
  const rows: SweepRow[] = [];
  for (const { index, value, scenario } of runs) {
    const trainer = await LocalTrainer.create({ model: scenario.model, seed: scenario.seed, backend: args.backend ?? 'cpu' });
    try {
      const sim = await Simulation.create(scenario, { trainer, sha256: nodeSha256 });
      await sim.runToEnd({ untilMs: args.at });
      const row = { value, metric: sim.metric(args.metric), steps: sim.metric('steps'), scheduleHash: sim.scheduleHash() };
      rows.push(row);
      onRow?.(row, index);
    } finally {
      await trainer.dispose();
    }
    await nextTask();
  }
  return rows;
}

/** Index of the strict minimum, null values counting as +∞; "u" when it lies strictly inside. */
export function shapeOf(rows: readonly SweepRow[]): { argmin: number; u: boolean } {
  let argmin = 0;
  const val = (r: SweepRow) => r.metric ?? Infinity;
  rows.forEach((r, i) => {
    if (val(r) < val(rows[argmin])) argmin = i;
  });
  return { argmin, u: argmin > 0 && argmin < rows.length - 1 && Number.isFinite(val(rows[argmin])) };
}

export function formatSweep(args: SweepArgs, rows: readonly SweepRow[]): string {
  // The steps column beside the metric, unless the metric is the steps.
  const steps = args.metric !== 'steps';
  const head = `${args.knob.padEnd(12)} ${args.metric.padStart(14)}${steps ? ` ${'steps'.padStart(8)}` : ''}`;
  const lines = rows.map((r) => `${String(r.value).padEnd(12)} ${(r.metric === null ? '—' : String(r.metric)).padStart(14)}${steps ? ` ${String(r.steps ?? '—').padStart(8)}` : ''}`);
  const s = shapeOf(rows);
  return [head, ...lines, '', `minimum at ${args.knob} = ${rows[s.argmin]?.value}${s.u ? ' (strictly inside: U shape)' : ''}`].join('\n');
}

export function sweepLine(sc: Scenario, args: SweepArgs, row: SweepRow, index: number): SweepLine {
  return { scenario: sc.id, seed: sc.seed, knob: args.knob, metric: args.metric, at: args.at ?? null, index, row };
}

/** The one-run output (--json object or table) of a complete set of rows. */
export function sweepOutput(head: Omit<SweepLine, 'index' | 'row'>, rows: SweepRow[], json: boolean): string {
  const s = shapeOf(rows);
  return json
    ? JSON.stringify({ ...head, rows, argmin: rows[s.argmin]?.value, u: s.u })
    : formatSweep({ target: head.scenario, knob: head.knob, values: rows.map((r) => r.value), metric: head.metric, json }, rows);
}

/** `--merge`: shards' lines (any order) back into one run's rows; errors name the file and line. */
export function mergeSweepLines(sources: ReadonlyArray<{ name: string; text: string }>): { ok: true; head: Omit<SweepLine, 'index' | 'row'>; rows: SweepRow[] } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const lines: SweepLine[] = [];
  for (const { name, text } of sources) {
    text.split('\n').forEach((t, i) => {
      if (!t.trimStart().startsWith('{')) return; // progress text in collected logs
      try {
        const l = JSON.parse(t) as SweepLine;
        if (!Number.isSafeInteger(l.index) || typeof l.knob !== 'string' || typeof l.row !== 'object') throw new Error('not a --jsonl sweep line');
        lines.push(l);
      } catch (e) {
        errors.push(`${name}:${i + 1}: ${(e as Error).message}`);
      }
    });
  }
  if (!errors.length && !lines.length) errors.push('no sweep lines to merge');
  if (errors.length) return { ok: false, errors };
  const key = (l: SweepLine) => JSON.stringify([l.scenario, l.seed, l.knob, l.metric, l.at]);
  if (new Set(lines.map(key)).size > 1) return { ok: false, errors: ['lines come from different sweeps (scenario, seed, knob, metric or --at differ)'] };
  lines.sort((a, b) => a.index - b.index);
  for (let k = 1; k < lines.length; k++) if (lines[k].index === lines[k - 1].index) return { ok: false, errors: [`value #${lines[k].index} appears twice (overlapping shards?)`] };
  const { scenario, seed, knob, metric, at } = lines[0];
  return { ok: true, head: { scenario, seed, knob, metric, at }, rows: lines.map((l) => l.row) };
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseSweepArgs(argv);
  if (!parsed.ok) {
    process.stderr.write(`sweep: ${parsed.error}\nrun with --help for usage\n`);
    return 2;
  }
  if ('help' in parsed) {
    process.stdout.write(`${sweepUsage}\n`);
    return 0;
  }
  if ('merge' in parsed) {
    let m;
    try {
      m = mergeSweepLines(parsed.merge.map((f) => ({ name: f === '-' ? 'stdin' : f, text: readFileSync(f === '-' ? 0 : f, 'utf8') })));
    } catch (e) {
      process.stderr.write(`sweep: --merge: ${(e as Error).message}\n`);
      return 2;
    }
    if (!m.ok) {
      process.stderr.write(`${m.errors.map((e) => `sweep: ${e}`).join('\n')}\n`);
      return 2;
    }
    process.stdout.write(`${sweepOutput(m.head, m.rows, parsed.json)}\n`);
    return 0;
  }
  const args = parsed.args;
  const loaded = resolveScenario(args.target);
  if (!loaded.ok) {
    process.stderr.write(`${loaded.errors.join('\n')}\n`);
    return 2;
  }
  const checked = sweepRuns(loaded.scenario, args);
  if (!checked.ok) {
    process.stderr.write(`${checked.errors.map((e) => `sweep: ${e}`).join('\n')}\n`);
    return 2;
  }
  console.log = (...a: unknown[]) => console.error(...a); // stdout carries only the result
  const sc = sweepBase(loaded.scenario, args);
  const onRow = args.jsonl ? (row: SweepRow, index: number) => process.stdout.write(`${JSON.stringify(sweepLine(sc, args, row, index))}\n`) : undefined;
  const rows = await runSweep(checked.runs, args, onRow);
  if (!args.jsonl) process.stdout.write(`${sweepOutput({ scenario: sc.id, seed: sc.seed, knob: args.knob, metric: args.metric, at: args.at ?? null }, rows, args.json)}\n`);
  return 0;
}

const isEntry = process.argv[1] !== undefined && /sweep\.ts$/.test(process.argv[1]);
if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => process.stdout.write('', () => process.exit(code)),
    (e: unknown) => {
      process.stderr.write(`sweep failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(3);
    },
  );
}
