import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

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
const known = new Map<string, Promise<CliSummary>>();

/** The CLI's `--json` output. Exit 1 (an expectation failed) still carries it; anything else is an error. */
function runCli(target: string, untilMs: number | undefined, name: string): Promise<string> {
  // `node --import tsx`, not `npx tsx`: npx's own start costs ~0.8 s a call.
  const until = untilMs === undefined ? [] : ['--until', String(untilMs)];
  const args = ['--import', 'tsx', 'src/cli/main.ts', target, '--json', ...until];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (e, stdout, stderr) => {
      if (!e) resolve(stdout);
      else if (e.code === 1 && stdout) resolve(stdout);
      else reject(new Error(`sim ${name} failed (exit ${String(e.code)}): ${stderr}`, { cause: e }));
    });
  });
}

/**
 * The CLI's summary of a scenario (a built-in id or a file), for comparing the browser's run
 * against it. A user's run may well break the scenario's expectations: its hash is what is compared.
 * `untilMs`: the run stopped there (`--until`), as a lesson's copy stops at the time it reads.
 *
 * It runs in a child process: a test that asks before its browser run and awaits after it has the
 * Node run computed beside the browser's (the suite is CPU-bound on two cores; a replay's page
 * keeps about one busy). A file runs as it is now (a copy): a test may rewrite it at once.
 */
export function cliSummary(target: string, untilMs?: number): Promise<CliSummary> {
  const text = existsSync(target) ? readFileSync(target, 'utf8') : null;
  const key = `${text === null ? target : `${target}\0${text}`}\0${untilMs ?? ''}`;
  let out = known.get(key);
  if (!out) {
    let run = target;
    if (text !== null) writeFileSync((run = join(mkdtempSync(join(tmpdir(), 'cap-cli-')), basename(target))), text);
    out = runCli(run, untilMs, target).then((json) => JSON.parse(json) as CliSummary);
    // Awaited later, maybe after the browser part failed: not an unhandled rejection meanwhile.
    out.catch(() => undefined);
    known.set(key, out);
  }
  return out;
}
