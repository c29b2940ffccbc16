import { closeSync, openSync, writeSync } from 'node:fs';
import type { RunSummary, ShapeSummary, VariantSummary } from '../engine/api';
import type { SampleSeries } from '../engine/index/metricAt';
import { lessonVerdict, type LessonRun } from '../engine/lessonVerdict';
import { baseIdOf } from '../scenario/variants';
import { runExpectations } from './lessonResults';
import { eventLogLines, samplesCsvLines } from '../engine/runExport';
import { historyLines } from '../check/ops';
import { parseCliArgs, usage, type CliArgs } from './args';
import { resolveScenario } from './builtins';
import { formatShapes, formatSummary, formatVariant, verdict } from './format';
import type { Scenario } from '../scenario/schema';
import { resolveVariant } from '../scenario/validate';
import { nextTask } from '../check/nextTask';

/**
 * `npm run sim -- <scenario.json | built-in id> [--seed N] [--until MS] [--json] [--log FILE.jsonl]
 *  [--history OPS.jsonl] [--samples FILE.csv] [--backend cpu|wasm]`
 * (CONTRACTS §2). This file only wires: arguments (args.ts) → scenario (builtins.ts) → engine →
 * output (format.ts). Exit status: 0 all expectations hold, 1 one fails, 2 invalid input or
 * arguments, 3 the engine itself failed (a bug, not a verdict on the scenario).
 */

const EXIT_PASS = 0;
const EXIT_FAIL = 1;
const EXIT_USAGE = 2;
const EXIT_INTERNAL = 3;

class UsageError {
  constructor(readonly lines: string[]) {}
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) throw new UsageError([...parsed.errors, 'run with --help for usage']);
  if ('help' in parsed) {
    process.stdout.write(`${usage}\n`);
    return EXIT_PASS;
  }
  const args = parsed.args;

  const loaded = resolveScenario(args.target);
  if (!loaded.ok) throw new UsageError(loaded.errors);
  const scenario: Scenario = args.seed === undefined ? loaded.scenario : { ...loaded.scenario, seed: args.seed };
  if (args.untilMs !== undefined && args.untilMs > scenario.durationMs) {
    throw new UsageError([`--until: ${args.untilMs} is after the end of the run (durationMs ${scenario.durationMs})`]);
  }

  // Open the log before the run, so a bad path fails in a second, not after the whole run.
  const logFd = args.log === undefined ? undefined : openLog(args.log);
  const historyFd = args.history === undefined ? undefined : openLog(args.history, '--history');
  const samplesFd = args.samples === undefined ? undefined : openLog(args.samples, '--samples');

  // stdout carries only the result: anything a library logs with console.log goes to stderr.
  console.log = (...a: unknown[]) => console.error(...a);

  const baseRun = await run(scenario, args, { log: logFd, history: historyFd, samples: samplesFd });
  // Variants (CURRICULUM §C.7) run after the base, each with the base seed; --log and --history
  // describe the base run only.
  const runs = new Map<string, LessonRun>([[baseIdOf(scenario), { samples: baseRun.samples, durationMs: scenario.durationMs }]]);
  const variantRuns: Array<{ id: string; summary: RunSummary; durationMs: number }> = [];
  for (const v of scenario.variants ?? []) {
    await nextTask();
    const resolved = resolveVariant(scenario, v.id);
    if (!resolved.ok) throw new UsageError(resolved.errors.map((e) => `variant "${v.id}": ${e}`));
    const vs = resolved.scenario;
    const until = args.untilMs === undefined ? undefined : Math.min(args.untilMs, vs.durationMs);
    const r = await run(vs, { ...args, untilMs: until }, {});
    runs.set(v.id, { samples: r.samples, durationMs: vs.durationMs });
    variantRuns.push({ id: v.id, summary: r.summary, durationMs: vs.durationMs });
  }
  // Comparisons and shapes are judged from the runs' samples, as the browser judges them.
  const lesson = lessonVerdict(scenario, runs);
  const withComparisons = (id: string, s: RunSummary): RunSummary => ({ ...s, expectations: runExpectations(scenario, id, s.expectations, lesson.comparisons.get(id) ?? []) });
  const engineSummary = withComparisons(baseIdOf(scenario), baseRun.summary);
  // With --until, expectations after the stop are not reached: they neither hold nor fail.
  const basePass = verdict(engineSummary, scenario.durationMs);
  const variants: Array<VariantSummary & { durationMs: number; simTimeMs: number }> = variantRuns.map((v) => {
    const s = withComparisons(v.id, v.summary);
    return { id: v.id, scheduleHash: s.scheduleHash, eventLogHash: s.eventLogHash, metrics: s.metrics, expectations: s.expectations, pass: verdict(s, v.durationMs), durationMs: v.durationMs, simTimeMs: s.simTimeMs };
  });
  const untilCut = args.untilMs !== undefined && args.untilMs < scenario.durationMs;
  const shapes: ShapeSummary[] = lesson.shapes.map(({ index: _i, pass: p, ...rest }) => ({ ...rest, pass: p === true }));
  const shapesPass = lesson.shapes.every((sh) => sh.pass === true || (sh.pass === null && untilCut));
  const pass = basePass && variants.every((v) => v.pass) && shapesPass;
  const summary: RunSummary = {
    ...engineSummary,
    pass,
    ...(variants.length ? { variants: variants.map(({ id, scheduleHash, eventLogHash, metrics, expectations, pass: p }) => ({ id, scheduleHash, eventLogHash, metrics, expectations, pass: p })) } : {}),
    ...(shapes.length ? { shapes } : {}),
  };
  const text = () =>
    [
      formatSummary({ ...engineSummary, pass: basePass }, scenario.durationMs),
      ...variants.map((v) => formatVariant(v, v.durationMs, v.simTimeMs)),
      ...(shapes.length ? [formatShapes(lesson.shapes)] : []),
      ...(variants.length || shapes.length ? [`overall: ${pass ? 'PASS' : 'FAIL'} (base and ${variants.length} variant${variants.length === 1 ? '' : 's'}${shapes.length ? `, ${shapes.length} shape${shapes.length === 1 ? '' : 's'}` : ''})`] : []),
    ].join('\n\n');
  process.stdout.write(args.json ? `${JSON.stringify(summary)}\n` : `${text()}\n`);
  return pass ? EXIT_PASS : EXIT_FAIL;
}

interface OutputFds {
  log?: number;
  history?: number;
  samples?: number;
}

async function run(scenario: Scenario, args: CliArgs, out: OutputFds): Promise<{ summary: RunSummary; samples: SampleSeries }> {
  // Loaded lazily: tfjs takes seconds to import, and argument or file errors should answer at once.
  const [{ Simulation }, { LocalTrainer }] = await Promise.all([import('../engine/simulation'), import('../train/localTrainer')]);
  const trainer = await LocalTrainer.create({ model: scenario.model, seed: scenario.seed, backend: args.backend });
  if (trainer.backend !== args.backend) {
    // The schedule hash does not depend on the backend, but the training values do: say so.
    process.stderr.write(`note: backend ${args.backend} unavailable, running on ${trainer.backend}${trainer.fallbacks.length ? ` (${trainer.fallbacks.join('; ')})` : ''}\n`);
  }
  try {
    const { nodeSha256 } = await import('./nodeSha256');
    const sim = await Simulation.create(scenario, { trainer, sha256: nodeSha256 });
    const progress = makeProgress(args.untilMs ?? scenario.durationMs);
    const summary = await sim.runToEnd({ untilMs: args.untilMs, onProgress: progress.update });
    progress.done();
    if (sim.failure) throw new Error(sim.failure);
    if (out.log !== undefined) writeLines(out.log, eventLogLines(sim.history.events));
    if (out.history !== undefined) writeLines(out.history, historyLines(sim.history.events).map((e) => `${JSON.stringify(e)}\n`));
    if (out.samples !== undefined) writeLines(out.samples, samplesCsvLines(sim.history.events));
    return { summary, samples: sim.index().metrics };
  } finally {
    await trainer.dispose();
  }
}

function openLog(path: string, flag = '--log'): number {
  try {
    return openSync(path, 'w');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (e as Error).message;
    throw new UsageError([`${flag}: cannot write "${path}": ${why}`]);
  }
}

/** Lines (each ending in "\n"), written in chunks so a long run does not build one huge string. */
function writeLines(fd: number, lines: Iterable<string>): void {
  const CHUNK = 1 << 20;
  let buf = '';
  try {
    for (const l of lines) {
      buf += l;
      if (buf.length >= CHUNK) {
        writeSync(fd, buf);
        buf = '';
      }
    }
    if (buf) writeSync(fd, buf);
  } finally {
    closeSync(fd);
  }
}

/** A one-line progress indicator on stderr, only for a person watching a terminal. */
function makeProgress(endMs: number): { update: (t: number) => void; done: () => void } {
  if (!process.stderr.isTTY) return { update: () => {}, done: () => {} };
  let last = -1;
  return {
    update: (t) => {
      const pct = Math.floor((100 * t) / endMs);
      if (pct === last) return;
      last = pct;
      process.stderr.write(`\r  simulating… ${(t / 1000).toFixed(1)} s / ${(endMs / 1000).toFixed(1)} s (${pct}%)`);
    },
    done: () => process.stderr.write('\r\x1b[K'),
  };
}

function exit(code: number): void {
  // Exit explicitly once stdout is flushed: tfjs backends may keep handles that hold the process open.
  process.stdout.write('', () => process.exit(code));
}

main(process.argv.slice(2)).then(exit, (e: unknown) => {
  if (e instanceof UsageError) {
    for (const line of e.lines) process.stderr.write(`error: ${line}\n`);
    exit(EXIT_USAGE);
    return;
  }
  // Never a stack trace for the user; CAP_DEBUG=1 shows it to whoever fixes the bug.
  const msg = e instanceof Error ? e.message : String(e);
  process.stderr.write(`internal error: ${msg}\n`);
  if (process.env.CAP_DEBUG && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  exit(EXIT_INTERNAL);
});
