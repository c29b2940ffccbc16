import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { cliSummary } from './cli';
import { clean, watch } from './pageWatch';

/**
 * Fashion-MNIST in a real browser: the 101 770-parameter model trains in the worker pool with the
 * backend 'auto' measured, the scenario replays to `done` with every expectation holding and the
 * CLI's schedule hash; the data file comes from the app's own origin, and only when a scenario
 * uses it.
 */
const id = 'fashion-mnist-allreduce-vs-async';

function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  // Requests from dedicated workers are reported on their page.
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

test(`${id}: trains in the browser to done with backend=auto, expectations pass, schedule hash equals the CLI's`, async ({ page, baseURL }) => {
  // The built-in's replay (replay.spec.ts leaves it to this test), so under the same security watch.
  const w = await watch(page);
  const cli = cliSummary(id);
  const urls = recordRequests(page);
  await page.goto(`./?scenario=${id}&autoplay=1&speed=max&backend=auto`);
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
  const expectations = page.getByTestId('expectation');
  const n = await expectations.count();
  expect(n).toBe(6);
  for (let i = 0; i < n; i++) await expect(expectations.nth(i)).toHaveAttribute('data-pass', 'true');
  await expect(page.getByTestId('schedule-hash')).toHaveText((await cli).scheduleHash);
  // Each replica's tile: ten classes' accuracy and the sample predictions, not a 2-D boundary.
  const tiles = page.getByTestId('fashion-tile');
  await expect(tiles).toHaveCount(4);
  for (let i = 0; i < 4; i++) {
    await expect(tiles.nth(i).getByRole('listitem')).toHaveCount(10);
    await expect(tiles.nth(i).getByTestId('fashion-sample').first()).toBeVisible();
    await expect(tiles.nth(i).getByTestId('fashion-sample').first()).toHaveAttribute('data-right', /^(true|false)$/);
  }
  // At 1280×720 the panel is ~156 px tall: every class row and the samples fit it, scaled down,
  // instead of the last rows (Bag, Ankle boot) hiding below its edge.
  const fit = await page.getByTestId('replica-w0').evaluate((fig) => {
    const panel = fig.parentElement!.getBoundingClientRect();
    // Shown: the ten class names and the samples the tile's width has room for (three at 1280).
    const rows = [...fig.querySelectorAll('.ft-name, [data-testid="fashion-sample"]')].map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
    return { rows: rows.length, inside: rows.every((r) => r.top >= panel.top - 0.5 && r.bottom <= panel.bottom + 0.5) };
  });
  expect(fit).toEqual({ rows: 13, inside: true });
  await expect(page.getByTestId('error')).toHaveCount(0);
  const data = urls.filter((u) => /subset\.bin[^/]*\.gz$/.test(u));
  expect(data.length, 'the subset is fetched (once per training worker at most)').toBeGreaterThan(0);
  expect(urls.filter((u) => !u.startsWith(baseURL!) && !/^(data|blob):/.test(u)), 'nothing from outside the app').toEqual([]);
  await page.screenshot({ path: `e2e-artifacts/${id}-done-1280x720.png` });
  // Each sample's predicted class is whole, at 1280 and on a phone ("✗ Sneaker" was cut to "✗ Sne…").
  for (const [width, height] of [[1280, 720], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    const captions = page.locator('[data-testid="fashion-sample"] figcaption');
    const cut = await captions.evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null && e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    expect(cut, `${width} px`).toEqual([]);
  }
  await clean(page, w);
});

test(`${id}&variant=async: the URL opens the variant (asynchronous PS) as a run of its own, with its expectations and the CLI's hash for it`, async ({ page }) => {
  const w = await watch(page);
  const cli = (await cliSummary(id)).variants?.find((v) => v.id === 'async');
  expect(cli?.pass, 'the CLI runs the variant and it passes').toBe(true);
  await page.goto(`./?scenario=${id}&variant=async&autoplay=1&speed=max&backend=wasm`);
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
  await expect(page.getByTestId('node-s0')).toBeVisible();
  // The variant's own expectations, less the comparison with the base (judged where both runs are).
  const expectations = page.getByTestId('expectation');
  await expect(expectations).toHaveCount(4);
  for (let i = 0; i < 4; i++) await expect(expectations.nth(i)).toHaveAttribute('data-pass', 'true');
  await expect(page.getByTestId('fashion-tile')).toHaveCount(4);
  await expect(page.getByTestId('schedule-hash')).toHaveText(cli!.scheduleHash);
  await page.screenshot({ path: `e2e-artifacts/${id}-async-done-1280x720.png` });
  await clean(page, w);
});

test('an unknown variant in the URL is named with the ones there are, and the base runs (a built-in, and a scenario carried in the link)', async ({ page }) => {
  await page.goto(`./?scenario=${id}&variant=nope&backend=wasm`);
  await expect(page.getByTestId('error')).toContainText('variant: no variant "nope" (variants: async)');
  await expect(page.getByTestId('node-w0')).toBeVisible();
  await expect(page.getByTestId('node-s0')).toHaveCount(0);
  const carried = Buffer.from(readFileSync(`public/scenarios/${id}.json`, 'utf8')).toString('base64url');
  await page.goto(`./?variant=nope&backend=wasm#scenario=${carried}`);
  await expect(page.getByTestId('error')).toContainText('variant: no variant "nope" (variants: async)');
  await expect(page.getByTestId('node-w0')).toBeVisible();
  // The base run has an id too ("base"): a link may name it.
  await page.goto(`./?scenario=${id}&variant=base&backend=wasm`);
  await expect(page.getByTestId('node-w0')).toBeVisible();
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test('a scenario on a 2-D dataset never loads the Fashion-MNIST file', async ({ page }) => {
  const urls = recordRequests(page);
  await page.goto('./?scenario=async-partition&autoplay=1&speed=max&backend=wasm');
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
  expect(urls.some((u) => u.includes('.wasm')), 'worker requests are visible to this check').toBe(true);
  expect(urls.filter((u) => u.includes('subset.bin'))).toEqual([]);
});
