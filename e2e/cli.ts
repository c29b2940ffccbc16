import { execFileSync } from 'node:child_process';

/** The CLI's summary of a scenario, for comparing the browser's run against it. */
export function cliSummary(id: string): { scheduleHash: string; pass: boolean; metrics: Record<string, number> } {
  const out = execFileSync('npx', ['tsx', 'src/cli/main.ts', id, '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out);
}
