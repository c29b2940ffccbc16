import { expect, test } from '@playwright/test';
import { cliSummary } from './cli';

/**
 * The engine in a worker (engine/remote, issue 9: under way, the app does not use it yet), in the
 * built page: the worker starts its own training workers and hash worker, the page follows the
 * run through its rows, and the run is the CLI's — the same schedule hash, every expectation as
 * the CLI judged it.
 */
const id = 'raft-ps-majority';

test('a run whose engine is in a worker is the CLI’s run', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const cli = cliSummary(id);
  await page.goto('./bench.html');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const remote = await page.evaluate((sc) => {
    type Summary = { scheduleHash: string; eventLogHash: string; events: number; now: number; expectations: Array<boolean | null> };
    return (window as unknown as { remoteRunSummary(o: { scenario: string; backend: string }): Promise<Summary> }).remoteRunSummary({ scenario: sc, backend: 'cpu' });
  }, id);
  const want = await cli;
  expect(remote.scheduleHash).toBe(want.scheduleHash);
  expect(remote.events).toBeGreaterThan(1000);
  expect(remote.expectations.every((p) => p === true)).toBe(want.pass);
  expect(errors).toEqual([]);
});
