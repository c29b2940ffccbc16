import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * `npm run replay`: replays a built-in in headless Chromium against the built app, checks the
 * page's schedule hash against the CLI's and writes a screenshot at each requested time.
 */

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('npm run replay -- raft-leader-crash --at 3900,6900 writes two screenshots and exits 0', async () => {
  test.setTimeout(300_000);
  const out = mkdtempSync(join(tmpdir(), 'cap-replay-'));
  const r = spawnSync('npm', ['run', '--silent', 'replay', '--', 'raft-leader-crash', '--at', '3900,6900', '--out', out], { encoding: 'utf8', timeout: 280_000 });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/raft-leader-crash: schedule hash [0-9a-f]{12}… equals the CLI's; 2 screenshot\(s\)/);
  expect(readdirSync(out).sort()).toEqual(['raft-leader-crash-t3900.png', 'raft-leader-crash-t6900.png']);
  for (const f of readdirSync(out)) expect(pngSize(readFileSync(join(out, f)))).toEqual({ width: 1280, height: 720 });
  // stdout lists the files, one per line.
  expect(r.stdout.trim().split('\n')).toEqual(readdirSync(out).sort().map((f) => join(out, f)));
});

test('npm run replay refuses bad input in one clear line, exit 2', () => {
  const r = spawnSync('npm', ['run', '--silent', 'replay', '--', 'raft-leader-crash', '--at', '3900,99999'], { encoding: 'utf8', timeout: 60_000 });
  expect(r.status).toBe(2);
  expect(r.stderr.trim()).toBe('replay: --at: 99999 is after the end of the run (durationMs 10000)');
  const missing = spawnSync('npm', ['run', '--silent', 'replay', '--', 'no-such-scenario'], { encoding: 'utf8', timeout: 60_000 });
  expect(missing.status).toBe(2);
  expect(missing.stderr).toMatch(/^replay: no built-in scenario "no-such-scenario"/);
});
