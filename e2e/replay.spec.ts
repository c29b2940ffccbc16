import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { cliSummary } from './cli';
import { clean, watch } from './pageWatch';

/**
 * Every built-in scenario replays in a real browser — real tfjs in real Web Workers — to `done`,
 * with all expectations passing and the same schedule hash as the CLI computes in Node, under the
 * security watch (pageWatch.ts: no policy violation, no console error, nothing leaving the origin).
 * The Fashion-MNIST built-in is fashion.spec.ts's replay (with backend=auto and the dataset's
 * requests checked): one run of it, not two.
 */
const ids: string[] = (JSON.parse(readFileSync('public/scenarios/index.json', 'utf8')) as string[]).filter((id) => id !== 'fashion-mnist-allreduce-vs-async');
mkdirSync('e2e-artifacts', { recursive: true });

async function runToDone(page: Page, query: string) {
  await page.goto(`./?${query}`);
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
}

for (const id of ids) {
  test(`${id}: replays to done in the browser, expectations pass, schedule hash equals the CLI's`, async ({ page }) => {
    const w = await watch(page);
    const cli = cliSummary(id);
    await runToDone(page, `scenario=${id}&autoplay=1&speed=max&backend=wasm`);
    const expectations = page.getByTestId('expectation');
    const n = await expectations.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) await expect(expectations.nth(i)).toHaveAttribute('data-pass', 'true');
    await expect(page.getByTestId('schedule-hash')).toHaveText((await cli).scheduleHash);
    await expect(page.getByTestId('sim-time')).toHaveText(/^\d+$/);
    await expect(page.getByTestId('error')).toHaveCount(0);
    await page.screenshot({ path: `e2e-artifacts/${id}-done-1280x720.png` });
    await clean(page, w);
  });
}
