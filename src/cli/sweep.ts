import type { MetricName, Scenario } from '../scenario/schema';
import { metricNames } from '../scenario/schema';
import { validateScenario } from '../scenario/validate';
import { resolveScenario } from './builtins';

/**
 * `npm run sweep -- <scenario.json | built-in id> --knob staleness --values 0,1,2,4,8,inf --metric timeToTarget [--at MS] [--json]`
 * Runs the scenario once per knob value, same seed, and prints the metric for each (a table, or
 * one JSON object with --json). The knob is a strategy knob (e.g. staleness) or a dotted scenario
 * path (e.g. compute.transient.p). Numeric-looking values are numbers, others strings ("inf").
 * Exit status: 0 done, 2 invalid input.
 */

export interface SweepArgs {
  target: string;
  knob: string;
  values: Array<number | string>;
  metric: MetricName;
  at?: number;
  json: boolean;
}

export interface SweepRow {
  value: number | string;
  metric: number | null;
  steps: number | null;
  scheduleHash: string;
}

export function parseSweepArgs(argv: readonly string[]): { ok: true; args: SweepArgs } | { ok: false; error: string } {
  let target: string | undefined;
  let knob: string | undefined;
  let values: string | undefined;
  let metric: string | undefined;
  let at: number | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--knob') knob = argv[++i];
    else if (a === '--values') values = argv[++i];
    else if (a === '--metric') metric = argv[++i];
    else if (a === '--at') at = Number(argv[++i]);
    else if (a.startsWith('--')) return { ok: false, error: `unknown option ${a}` };
    else if (target === undefined) target = a;
    else return { ok: false, error: `unexpected argument ${a}` };
  }
  if (!target) return { ok: false, error: 'missing scenario (file or built-in id)' };
  if (!knob) return { ok: false, error: '--knob is required' };
  if (!values) return { ok: false, error: '--values is required (comma-separated)' };
  if (!metric || !(metricNames as readonly string[]).includes(metric)) return { ok: false, error: `--metric must be one of ${metricNames.join(', ')}` };
  if (at !== undefined && !(at >= 0)) return { ok: false, error: '--at must be a non-negative number of ms' };
  const vals = values.split(',').map((v) => v.trim()).filter(Boolean).map((v) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v));
  return { ok: true, args: { target, knob, values: vals, metric: metric as MetricName, at, json } };
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

export async function runSweep(sc: Scenario, args: SweepArgs): Promise<SweepRow[]> {
  const [{ Simulation }, { LocalTrainer }, { nodeSha256 }] = await Promise.all([import('../engine/simulation'), import('../train/localTrainer'), import('./nodeSha256')]);
  const rows: SweepRow[] = [];
  for (const value of args.values) {
    const v = validateScenario(withKnob(sc, args.knob, value));
    if (!v.ok) throw new Error(`${args.knob}=${value}: ${v.errors.join('; ')}`);
    const trainer = await LocalTrainer.create({ model: v.scenario.model, seed: v.scenario.seed, backend: 'cpu' });
    try {
      const sim = await Simulation.create(v.scenario, { trainer, sha256: nodeSha256 });
      await sim.runToEnd({ untilMs: args.at });
      rows.push({ value, metric: sim.metric(args.metric), steps: sim.metric('steps'), scheduleHash: sim.scheduleHash() });
    } finally {
      await trainer.dispose();
    }
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
  const head = `${args.knob.padEnd(12)} ${args.metric.padStart(14)} ${'steps'.padStart(8)}`;
  const lines = rows.map((r) => `${String(r.value).padEnd(12)} ${(r.metric === null ? '—' : String(r.metric)).padStart(14)} ${String(r.steps ?? '—').padStart(8)}`);
  const s = shapeOf(rows);
  return [head, ...lines, '', `minimum at ${args.knob} = ${rows[s.argmin]?.value}${s.u ? ' (strictly inside: U shape)' : ''}`].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseSweepArgs(argv);
  if (!parsed.ok) {
    process.stderr.write(`sweep: ${parsed.error}\n`);
    return 2;
  }
  const loaded = resolveScenario(parsed.args.target);
  if (!loaded.ok) {
    process.stderr.write(`${loaded.errors.join('\n')}\n`);
    return 2;
  }
  console.log = (...a: unknown[]) => console.error(...a); // stdout carries only the result
  const rows = await runSweep(loaded.scenario, parsed.args);
  const s = shapeOf(rows);
  const out = parsed.args.json
    ? JSON.stringify({ scenario: loaded.scenario.id, seed: loaded.scenario.seed, knob: parsed.args.knob, metric: parsed.args.metric, at: parsed.args.at ?? null, rows, argmin: rows[s.argmin]?.value, u: s.u })
    : formatSweep(parsed.args, rows);
  process.stdout.write(`${out}\n`);
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
