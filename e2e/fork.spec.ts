import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { TestHooks } from '../src/app/testHooks';
import { decodeScenarioHashAny } from '../src/scenario/hashCodec';
import { cliSummary } from './cli';
import { openScenario, runTo, scheduleHash, scrubTo, simTime } from './fixtures';

/**
 * Forking (CONTRACTS §5): acting while scrubbed back starts a new branch at the cursor's time;
 * the prefix replays deterministically, the timeline marks the branch point, B returns to the
 * previous branch. `&at=` opens a run with the cursor at a shared moment.
 */

mkdirSync('e2e-artifacts', { recursive: true });
type Hooked = Window & { capPlayground: TestHooks };
const branches = (page: Page) => page.evaluate(() => (window as unknown as Hooked).capPlayground.branches());

test('acting while scrubbed back forks the run; B switches branches; the fork replays to the CLI’s hash', async ({ page }) => {
  await openScenario(page, 'raft-leader-crash');
  await runTo(page, 5000);
  await scrubTo(page, 3000);
  // Crash s2 at t = 3 s: select it, press X (state read at the cursor: s2 is up there).
  await page.getByTestId('node-s2').click();
  await page.keyboard.press('x');
  await expect.poll(() => branches(page), { timeout: 60_000 }).toEqual([
    { id: 1, parent: null, current: false, now: 5000 },
    { id: 2, parent: { id: 1, t: 3000 }, current: true, now: 3000 },
  ]);
  await expect(page.getByTestId('cursor-time')).toHaveText(''); // the new branch is live at t = 3 s
  expect(await page.evaluate(() => (window as unknown as Hooked).capPlayground.userActions())).toEqual([{ t: 3000, action: { do: 'crash', node: 's2' } }]);
  await expect(page.getByTestId('node-s2')).toHaveAttribute('data-up', 'false');
  await expect(page.getByTestId('timeline-branch')).toHaveAttribute('data-t', '3000');
  await page.screenshot({ path: 'e2e-artifacts/fork-raft-leader-crash.png' });

  // B: back to the first run, where it stood (t = 5 s, s2 up); B again: the fork.
  await page.keyboard.press('b');
  await expect(page.getByTestId('branch-1')).toHaveAttribute('aria-pressed', 'true');
  expect(await simTime(page)).toBe(5000);
  await expect(page.getByTestId('node-s2')).toHaveAttribute('data-up', 'true');
  await expect(page.getByTestId('timeline-branch')).toHaveCount(0);
  await page.keyboard.press('b');
  await expect(page.getByTestId('branch-2')).toHaveAttribute('aria-pressed', 'true');
  expect(await simTime(page)).toBe(3000);

  // The fork runs on to the end; its shared scenario, run by the CLI, gives the same hash.
  await runTo(page, 'end');
  const hash = await scheduleHash(page);
  await page.getByTestId('share').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/#scenario=/);
  const decoded = await decodeScenarioHashAny(new URL(await page.getByTestId('share-link').inputValue()).hash);
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.problem));
  const file = join(mkdtempSync(join(tmpdir(), 'cap-fork-')), 'fork.json');
  writeFileSync(file, decoded.json);
  expect((await cliSummary(file)).scheduleHash).toBe(hash);
});

test('&at= opens a run with the cursor at the shared moment once the run has reached it', async ({ page }) => {
  await page.goto('./?scenario=raft-leader-crash&autoplay=1&speed=max&backend=wasm&at=3900');
  await expect(page.getByTestId('cursor-time')).toHaveText('3900', { timeout: 60_000 });
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
  // The run went on to its end; the cursor stayed at the moment.
  await expect(page.getByTestId('cursor-time')).toHaveText('3900');
  expect(await simTime(page)).toBe(10000);
  // A time after the end is refused by name, and the cursor stays live.
  await page.goto('./?scenario=raft-leader-crash&backend=wasm&at=99999');
  await expect(page.getByTestId('error')).toContainText('at: 99999 is after the end of the run (10000 ms)');
});
