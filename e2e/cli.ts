import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export interface CliSummary {
  scheduleHash: string;
  eventLogHash: string;
  pass: boolean;
  metrics: Record<string, number>;
  /** A scenario with variants: each one's run, after the base's. */
  variants?: Array<{ id: string; scheduleHash: string; pass: boolean }>;
}

/**
 * One CLI run per target and content for the whole worker: several specs compare against the
 * same run (async-partition on three backends, a lesson's base that is also a built-in), and a
 * run in Node costs seconds of the suite's CPU. A file is keyed by what it holds: tests rewrite
 * their files.
 */
const known = new Map<string, CliSummary>();

/** The CLI's `--json` output. Exit 1 (an expectation failed) still carries it; anything else is an error. */
function runCli(target: string, untilMs?: number): string {
  try {
    // `node --import tsx`, not `npx tsx`: npx's own start costs ~0.8 s a call.
    const until = untilMs === undefined ? [] : ['--until', String(untilMs)];
    return execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', target, '--json', ...until], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    if (err.status !== 1 || !err.stdout) throw new Error(`sim ${target} failed (exit ${err.status}): ${err.stderr ?? ''}`, { cause: e });
    return err.stdout;
  }
}

/**
 * The CLI's summary of a scenario (a built-in id or a file), for comparing the browser's run
 * against it. A user's run may well break the scenario's expectations: its hash is what is compared.
 * `untilMs`: the run stopped there (`--until`), as a lesson's copy stops at the time it reads.
 */
export function cliSummary(target: string, untilMs?: number): CliSummary {
  const key = `${existsSync(target) ? `${target}\0${readFileSync(target, 'utf8')}` : target}\0${untilMs ?? ''}`;
  let out = known.get(key);
  if (!out) known.set(key, (out = JSON.parse(runCli(target, untilMs)) as CliSummary));
  return out;
}
