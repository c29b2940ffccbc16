import { execFileSync } from 'node:child_process';

/**
 * The CLI's summary of a scenario (a built-in id or a file), for comparing the browser's run
 * against it. Exit 1 (an expectation failed) still carries the summary: a user's run may well
 * break the scenario's expectations, and its hash is what is compared.
 */
export function cliSummary(target: string): { scheduleHash: string; eventLogHash: string; pass: boolean; metrics: Record<string, number> } {
  let out: string;
  try {
    out = execFileSync('npx', ['tsx', 'src/cli/main.ts', target, '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    if (err.status !== 1 || !err.stdout) throw new Error(`sim ${target} failed (exit ${err.status}): ${err.stderr ?? ''}`, { cause: e });
    out = err.stdout;
  }
  return JSON.parse(out);
}
