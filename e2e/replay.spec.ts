import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { cliSummary } from './cli';
import { openScenario, runTo, scheduleHash } from './fixtures';

/**
 * Every built-in scenario replays in a real browser — real tfjs in real Web Workers — to `done`,
 * with all expectations passing and the same schedule hash as the CLI computes in Node.
 */
const ids: string[] = JSON.parse(readFileSync('public/scenarios/index.json', 'utf8'));
mkdirSync('e2e-artifacts', { recursive: true });

async function runToDone(page: Page, query: string) {
  await page.goto(`./?${query}`);
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
}

for (const id of ids) {
  test(`${id}: replays to done in the browser, expectations pass, schedule hash equals the CLI's`, async ({ page }) => {
    const cli = cliSummary(id);
    await runToDone(page, `scenario=${id}&autoplay=1&speed=max&backend=wasm`);
    const expectations = page.getByTestId('expectation');
    const n = await expectations.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) await expect(expectations.nth(i)).toHaveAttribute('data-pass', 'true');
    await expect(page.getByTestId('schedule-hash')).toHaveText(cli.scheduleHash);
    await expect(page.getByTestId('sim-time')).toHaveText(/^\d+$/);
    await expect(page.getByTestId('error')).toHaveCount(0);
    await page.screenshot({ path: `e2e-artifacts/${id}-done-1280x720.png` });
  });
}

test('the schedule hash does not depend on the backend: cpu in the browser equals wasm and the CLI', async ({ page }) => {
  const cli = cliSummary('async-partition');
  // Through the replay fixture (e2e/fixtures.ts), as a test author would write it.
  await openScenario(page, 'async-partition', { backend: 'cpu' });
  await runTo(page, 'end');
  expect(await scheduleHash(page)).toBe(cli.scheduleHash);
});
