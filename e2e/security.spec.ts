import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { resolveVariant, validateScenario } from '../src/scenario/validate';
import { cspHeader, cspMeta } from '../scripts/csp.mjs';
import { cliSummary } from './cli';
import type { TestHooks } from '../src/app/testHooks';
import { openScenario, runTo, scheduleHash } from './fixtures';
import { clean, watch } from './pageWatch';

/**
 * The app's own security (issue 7, item 7): the built site runs under a Content-Security-Policy
 * with no inline script and no eval beyond WebAssembly, nothing leaves the origin, and nothing a
 * scenario, a link or a file contains can run as code or break the page. Every test listens for
 * `securitypolicyviolation` in the page, for console errors in the page and its workers, and for
 * uncaught exceptions: all three must stay empty (pageWatch.ts). Every built-in runs under the
 * same watch in replay.spec.ts, and the cpu and webgl backends' own runs in backends.spec.ts.
 */

/**
 * One variant of L13 as a scenario file of its own (the app runs a built-in's base only): the CLI
 * and the browser run the same file.
 */
function lessonVariant(variant: string, over: Record<string, unknown> = {}): string {
  const base = validateScenario(JSON.parse(readFileSync('public/scenarios/secure-updates-byzantine.json', 'utf8')));
  if (!base.ok) throw new Error(base.errors.join('\n'));
  const v = resolveVariant(base.scenario, variant);
  if (!v.ok) throw new Error(v.errors.join('\n'));
  mkdirSync('test-results', { recursive: true });
  const file = `test-results/secure-updates-byzantine-${variant}${Object.keys(over).length ? '-edited' : ''}.json`;
  writeFileSync(file, JSON.stringify({ ...v.scenario, id: `secure-updates-byzantine-${variant}`, ...over }));
  return file;
}

const hashOf = (scenario: unknown) => Buffer.from(typeof scenario === 'string' ? scenario : JSON.stringify(scenario)).toString('base64url');
const small = { schema: 1, seed: 3, durationMs: 2000, cluster: { workers: 2 }, strategy: { kind: 'allreduce' } };

test('the built page carries the policy as a <meta> and the preview server as a header; no inline script', async ({ page }) => {
  const res = await page.goto('./?scenario=allreduce-partition');
  expect(res!.headers()['content-security-policy']).toBe(cspHeader);
  expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(cspMeta);
  expect(cspMeta).not.toMatch(/'unsafe-eval'|'unsafe-inline'/);
  expect(cspMeta).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(cspMeta).toContain("connect-src 'self'");
  expect(await page.locator('script:not([src])').count()).toBe(0);
  // The theme picker (formerly inline) still runs before the app.
  await expect(page.locator('html')).toHaveAttribute('data-theme', /^(light|dark)$/);
});

test('the policy is enforced: an injected inline script is refused and reported', async ({ page }) => {
  const w = await watch(page);
  await page.goto('./?scenario=allreduce-partition');
  await expect(page.getByTestId('node-w0')).toBeVisible();
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__pwned = 1';
    document.head.appendChild(s);
  });
  await expect.poll(async () => (await w.violations()).map((v) => v.directive)).toContain('script-src-elem');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
});

// Krum reads the gradients' values to choose what to keep, so it runs on wasm (the replays'
// backend) and on webgl (the GPU's float arithmetic, software here) to the CLI's hash and its
// expectations. The policy with the cpu backend is checked in backends.spec.ts (same watch), where
// cpu already runs to the end: a Krum run on cpu here checked nothing that one does not.
for (const backend of ['wasm', 'webgl'] as const) {
  test(`tfjs ${backend} trains L13's Krum variant under the policy to the CLI's schedule hash`, async ({ page }) => {
    const w = await watch(page);
    const file = lessonVariant('krum');
    const cli = cliSummary(file);
    await openScenario(page, file, { backend });
    await runTo(page, 'end');
    expect(await scheduleHash(page)).toBe((await cli).scheduleHash);
    for (const e of await page.getByTestId('expectation').all()) await expect(e).toHaveAttribute('data-pass', 'true');
    await clean(page, w);
  });
}

test('every variant of L13 replays in the browser with its expectations holding and the CLI’s schedule hash', async ({ page }) => {
  test.setTimeout(600_000);
  const w = await watch(page);
  const variants = ['hmac', 'hmac-step', 'median', 'trimmed'].map((variant) => ({ variant, file: lessonVariant(variant) }));
  // The CLI's four runs go on beside the browser's.
  const clis = variants.map(({ file }) => cliSummary(file));
  for (const [i, { variant, file }] of variants.entries()) {
    await openScenario(page, file);
    await runTo(page, 'end');
    const cli = await clis[i]!;
    expect(cli.pass, variant).toBe(true);
    expect(await scheduleHash(page), variant).toBe(cli.scheduleHash);
    for (const e of await page.getByTestId('expectation').all()) await expect(e, variant).toHaveAttribute('data-pass', 'true');
  }
  await clean(page, w);
});

test('script and HTML in a scenario’s title and description are shown as text and never run', async ({ page }) => {
  const w = await watch(page);
  const title = { en: '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">', zh: '<svg onload="window.__pwned=3">' };
  const description = { en: '</option></select><iframe srcdoc="<script>parent.__pwned=4</script>">', zh: '"><a href="javascript:window.__pwned=5">x</a>' };
  await page.goto(`./#scenario=${hashOf({ ...small, id: 'hostile', title, description })}`);
  await expect(page.getByTestId('node-w1')).toBeVisible();
  await expect(page.locator('option', { hasText: title.en })).toHaveCount(1);
  expect(await page.locator('iframe, svg[onload], img[onerror], a[href^="javascript:"]').count()).toBe(0);
  await page.getByTestId('lang-toggle').click();
  await expect(page.locator('option', { hasText: title.zh })).toHaveCount(1);
  await clean(page, w);
});

test('hostile files get a readable error naming the field, and the loaded scenario stays', async ({ page }) => {
  const w = await watch(page);
  await page.goto('./?scenario=async-partition');
  await expect(page.getByTestId('node-s0')).toBeVisible();
  const base = JSON.stringify({ ...small, id: 'x' });
  const files: Array<[string, string, string]> = [
    ['proto.json', base.replace('{', '{"__proto__":{"polluted":1},'), 'scenario: unknown field "__proto__"'],
    ['constructor.json', base.replace('"kind":"allreduce"', '"kind":"allreduce","constructor":{"prototype":{"polluted":1}}'), 'strategy: unknown field "constructor"'],
    ['huge.json', base.replace('"seed":3', '"seed":1e400'), 'seed: expected a number, got a number too large to represent'],
    ['workers.json', base.replace('"workers":2', '"workers":1e308'), 'cluster.workers: must be <= 64'],
    ['deep.json', base.replace('"id":"x"', `"description":{"en":${'['.repeat(50_000)}}`), 'nesting deeper than 256 levels'],
    ['deep-valid.json', base.replace('"id":"x"', `"title":{"en":${'['.repeat(50_000)}${']'.repeat(50_000)},"zh":"a"},"id":"x"`), 'title.en: expected a string, got an array'],
    ['markup-key.json', base.replace('{', '{"<img src=x onerror=window.__pwned=1>":1,'), 'unknown field "<img src=x onerror=window.__pwned=1>"'],
  ];
  for (const [name, text, message] of files) {
    await page.getByTestId('open-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect(page.getByTestId('error').last(), name).toContainText(message);
    await expect(page.getByTestId('node-s0'), name).toBeVisible(); // still the async PS
  }
  expect(await page.evaluate(() => ({}) as Record<string, unknown>)).not.toHaveProperty('polluted');
  expect(await page.evaluate(() => 'polluted' in Object.prototype)).toBe(false);
  // A Chinese page words the checker's facts in Chinese; paths and values stay as the file wrote them.
  await page.getByTestId('lang-toggle').click();
  // The Chinese texts load before the page switches: a file opened sooner is worded in English.
  await expect(page.locator('html')).toHaveAttribute('lang', /^zh/);
  const zh: Array<[string, string, string]> = [
    ['workers-zh.json', base.replace('"workers":2', '"workers":100'), 'cluster.workers：不能大于 64，输入的是 100'],
    ['proto-zh.json', base.replace('{', '{"__proto__":{"polluted":1},'), '场景文件：没有“__proto__”这个字段'],
    ['node-zh.json', base.replace('"seed":3', '"seed":3,"timeline":[{"at":100,"do":"crash","node":"w7"}]'), 'timeline[0].node：节点“w7”不存在（集群中有 w0-w1）'],
    ['comma-zh.json', `${base.slice(0, -1)},\n}`, '第 2 行第 1 列："}" 前面多了一个逗号'],
  ];
  for (const [name, text, message] of zh) {
    await page.getByTestId('open-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect(page.getByTestId('error').last(), name).toContainText(message);
    await expect(page.getByTestId('node-s0'), name).toBeVisible();
  }
  await clean(page, w);
});

test('hostile links: prototype keys and broken hashes get a readable error, and the loaded scenario stays', async ({ page }) => {
  const w = await watch(page);
  await page.goto('./?scenario=async-partition');
  await expect(page.getByTestId('node-s0')).toBeVisible();
  const base = JSON.stringify({ ...small, id: 'x' });
  const links: Array<[string, string]> = [
    [hashOf(base.replace('"cluster":{', '"cluster":{"__proto__":{"workers":9},')), 'cluster: unknown field "__proto__"'],
    [hashOf(base.replace('"seed":3', '"seed":1e400')), 'seed: expected a number'],
    ['z:AAAA', 'the compressed scenario is damaged'],
    ['%3Cscript%3E', 'invalid character "<"'],
  ];
  for (const [hash, message] of links) {
    await page.evaluate((h) => (location.hash = `scenario=${h}`), hash);
    await expect(page.getByTestId('error').last(), hash).toContainText(message);
    await expect(page.getByTestId('node-s0')).toBeVisible();
  }
  await page.goto('./?scenario=__proto__&lang=constructor&speed=1e400');
  await expect(page.getByTestId('error').first()).toContainText('"__proto__" is not a scenario id');
  await expect(page.getByTestId('error').first()).toContainText('lang: "constructor" is not en or zh');
  await expect(page.getByTestId('node-w0')).toBeVisible(); // the default scenario
  // A Chinese page says the same problems in Chinese (the parser reports facts; the app words them).
  await page.goto('./?scenario=__proto__&lang=zh&speed=fast');
  await expect(page.getByTestId('error').first()).toContainText('页面地址有问题');
  await expect(page.getByTestId('error').first()).toContainText('scenario：“__proto__”不是有效的 scenario ID');
  await expect(page.getByTestId('error').first()).toContainText('speed：“fast”既不是数字也不是 "max"');
  await expect(page.getByTestId('node-w0')).toBeVisible();
  // A lesson link that names nothing, in the page's language (it was the loader's English).
  await page.goto('./?lesson=no-such-lesson&lang=zh');
  await expect(page.getByTestId('error').first()).toContainText('lesson：没有名为“no-such-lesson”的课程（课程：cap-partition-choice、');
  await expect(page.getByTestId('node-w0')).toBeVisible();
  // The welcome's doors stay away: they covered the error panel.
  await expect(page.getByTestId('doors')).toHaveCount(0);
  await clean(page, w);
});

test('a link’s menu puts a man-in-the-middle on one direction; the node panel and key Y make a worker Byzantine and honest again', async ({ page }) => {
  const w = await watch(page);
  type Hooked = Window & { capPlayground: TestHooks };
  const lastAction = async () => (await page.evaluate(() => (window as unknown as Hooked).capPlayground.userActions())).at(-1)?.action;
  const version = async (n: string) => Number(await page.getByTestId(`node-${n}`).getAttribute('data-version'));
  // L13's cluster under HMAC with (worker, step), without its timeline: only the user acts.
  await openScenario(page, lessonVariant('hmac-step', { timeline: [], expect: [] }));
  await runTo(page, 1000);
  const menu = page.getByTestId('context-menu');
  await page.getByTestId('link-w1-s0').dispatchEvent('contextmenu', { button: 2 });
  await menu.getByTestId('menu-tamper-flip').click();
  await expect.poll(lastAction).toEqual({ do: 'tamper', from: 'w1', to: 's0', attack: 'flip', scale: 10 });
  // Rounds already past the attacker finish; then HMAC rejects every flipped gradient of w1 and the barrier waits.
  await runTo(page, 1600);
  const v0 = await version('w0');
  await runTo(page, 4000);
  expect(await version('w0')).toBeLessThanOrEqual(v0 + 1);
  await page.getByTestId('link-w1-s0').dispatchEvent('contextmenu', { button: 2 });
  await menu.getByTestId('menu-untamper').click();
  await expect.poll(lastAction).toEqual({ do: 'untamper', from: 'w1', to: 's0' });
  await runTo(page, 6000);
  expect(await version('w0')).toBeGreaterThan(v0 + 5);

  await page.getByTestId('node-w6').click();
  await page.getByRole('tab', { name: 'Node' }).click();
  await page.getByTestId('action-byzantine-large-norm').click();
  await expect.poll(lastAction).toEqual({ do: 'byzantine', node: 'w6', attack: 'large-norm', scale: 10 });
  await page.keyboard.press('y');
  await expect.poll(lastAction).toEqual({ do: 'honest', node: 'w6' });
  await expect(page.getByTestId('error')).toHaveCount(0);
  await clean(page, w);
});
