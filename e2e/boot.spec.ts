import { expect, test, type Page } from '@playwright/test';

/**
 * The page's start (src/boot.ts): index.html's static first frame paints in the reader's language
 * before the app's code runs, and the load event waits for the app; the training workers start
 * meanwhile, and an app that cannot load says so instead of leaving the title on screen for ever.
 */

/** The boot module index.html names first, and the app's chunk, its second module script (vite.config.ts appScript). */
async function scriptsOf(page: Page, baseURL: string): Promise<{ entry: string; app: string }> {
  const html = await (await page.request.get(baseURL)).text();
  const [entry, app] = [...html.matchAll(/<script type="module"[^>]*src="\.\/assets\/([^"]+)"/g)].map((m) => m[1]);
  if (!entry || !app) throw new Error('index.html lacks the boot module or the app chunk');
  return { entry, app };
}

/** Keeps the app's code from loading: 'hold' leaves its request unanswered (the static frame stays), 'fail' refuses it. */
async function withoutApp(page: Page, baseURL: string, how: 'hold' | 'fail'): Promise<void> {
  const { app } = await scriptsOf(page, baseURL);
  await page.route((url) => url.pathname.endsWith(`/assets/${app}`), async (route) => {
    if (how === 'fail') await route.abort();
    // 'hold': never answered while the test looks
  });
}

for (const { locale, query, title } of [
  { locale: 'zh-CN', query: '', title: 'CAP 演练场' },
  { locale: 'en-US', query: '', title: 'CAP Playground' },
  { locale: 'zh-CN', query: '?lang=en', title: 'CAP Playground' },
  { locale: 'en-US', query: '?lang=zh', title: 'CAP 演练场' },
]) {
  test(`the static first frame's title for a ${locale} browser at "${query || '/'}" is ${title}`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ locale, baseURL });
    const page = await context.newPage();
    await withoutApp(page, baseURL!, 'hold');
    // The load event waits for the app's own <script> (vite.config.ts appScript), held here.
    await page.goto(`./${query}`, { waitUntil: 'commit' });
    await expect(page.locator('h1.app-title')).toHaveText(title, { useInnerText: true }); // the other language's span is hidden
    // Painted, while the page is not loaded: its load event waits for the app (first paint before load).
    expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
    await context.close();
  });
}

test('the engine’s worker and its training workers start before the app has loaded, and an app that fails to load says why', async ({ page, baseURL }) => {
  await withoutApp(page, baseURL!, 'fail');
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto('./');
  await expect(page.locator('#root')).toContainText('could not load its scripts');
  // Playwright reports a worker a little after it starts: the failure text could show first (a
  // flaky CI run saw none yet). The engine's worker starts the training workers (tfjs, the slowest).
  await expect.poll(() => workers.filter((u) => /trainWorker/.test(u)).length).toBeGreaterThan(0);
  expect(workers.filter((u) => /engineWorker/.test(u))).toHaveLength(1);
  expect(workers.every((u) => /trainWorker|engineWorker/.test(u))).toBe(true);
});

test('the app replaces the static frame and runs', async ({ page }) => {
  await page.goto('./?lang=zh');
  await expect(page.locator('h1.app-title')).toHaveText('CAP 演练场');
  await expect(page.locator('.shell-en, .shell-zh')).toHaveCount(0);
  await expect(page.locator('section.view-topology svg').first()).toBeVisible();
});

test('a 中文 page whose Chinese texts cannot be fetched runs in English and says why', async ({ page }) => {
  // The zh catalog and the Chinese sentence tables are chunks of their own (i18n/catalog.ts).
  await page.route(/\/assets\/zh-[^/]+\.js$/, (route) => route.abort());
  await page.goto('./?lang=zh&scenario=async-partition');
  await expect(page.locator('h1.app-title')).toHaveText('CAP Playground');
  await expect(page.getByTestId('error').first()).toContainText('The 中文 texts could not be loaded, so the page is in English');
  await expect(page.locator('section.view-topology svg').first()).toBeVisible();
});
