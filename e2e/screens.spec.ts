import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { loadBuiltin } from '../src/cli/builtins';
import { resolveVariant } from '../src/scenario/validate';
import { openScenario, runTo, scrubTo as scrub } from './fixtures';

/**
 * Screenshots of scrubbed runs for people to look at (slides, reviews of the wording), in
 * English and Chinese, at 1280×720 and in presenter mode. Slow (each scenario runs to its end),
 * so it runs on request: `SCREENS=1 npx playwright test e2e/screens.spec.ts`. Files go to
 * e2e-artifacts/screens/. Each shot also checks that the screen shows the state of its time.
 */
test.skip(!process.env.SCREENS, 'screenshots on request: SCREENS=1');
mkdirSync('e2e-artifacts/screens', { recursive: true });

async function open(page: Page, id: string, lang: 'en' | 'zh'): Promise<void> {
  await page.goto(`./?scenario=${id}&autoplay=1&speed=max&backend=wasm&lang=${lang}`);
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
}

async function presenter(page: Page, on: boolean): Promise<void> {
  const button = page.getByRole('button', { name: /^(Presenter|演示模式)$/ });
  if ((await button.getAttribute('aria-pressed')) !== String(on)) await button.click();
}

for (const lang of ['en', 'zh'] as const) {
  test(`raft-leader-crash scrubbed to 3.9 s and 5 s (${lang})`, async ({ page }) => {
    await open(page, 'raft-leader-crash', lang);
    for (const [ms, leaders] of [
      [3900, 1],
      [5000, 1],
    ] as const) {
      await scrub(page, ms);
      await expect(page.locator('[data-testid^="node-s"][data-role="leader"]')).toHaveCount(leaders);
      await presenter(page, false);
      await page.screenshot({ path: `e2e-artifacts/screens/raft-leader-crash-${ms}-${lang}-1280x720.png` });
      await presenter(page, true);
      await page.screenshot({ path: `e2e-artifacts/screens/raft-leader-crash-${ms}-${lang}-presenter.png` });
      await presenter(page, false);
    }
    await page.getByTestId('show-replicas').click();
    await page.screenshot({ path: `e2e-artifacts/screens/raft-leader-crash-5000-${lang}-replicas.png` });
  });
}

const more: Array<[string, number]> = [
  ['kafka-acks-isr', 5000],
  ['kafka-unclean-leader-election', 7000],
  ['async-partition', 10000],
  ['allreduce-partition', 10000],
  ['ssp-bounded-staleness', 31000],
  ['degrade-average', 9000],
  ['raft-partition', 7000],
];
for (const [id, ms] of more) {
  test(`${id} scrubbed to ${ms / 1000} s`, async ({ page }) => {
    for (const lang of ['en', 'zh'] as const) {
      await open(page, id, lang);
      await scrub(page, ms);
      await expect(page.getByTestId('explain')).not.toBeEmpty();
      await page.screenshot({ path: `e2e-artifacts/screens/${id}-${ms}-${lang}-1280x720.png` });
    }
  });
}

test('paxos-vs-2pc: Paxos after its leader crash, two-phase commit with participants in doubt (17 s)', async ({ page }) => {
  const base = loadBuiltin('paxos-vs-2pc');
  if (!base.ok) throw new Error(base.errors.join('\n'));
  const v = resolveVariant(base.scenario, '2pc');
  if (!v.ok) throw new Error(v.errors.join('\n'));
  const file = 'e2e-artifacts/screens/paxos-vs-2pc-2pc.json';
  writeFileSync(file, JSON.stringify({ ...v.scenario, id: 'paxos-vs-2pc-2pc' }));
  for (const lang of ['en', 'zh'] as const) {
    for (const which of ['paxos-vs-2pc', file]) {
      await openScenario(page, which, { lang });
      await runTo(page, 'end');
      await scrub(page, 17000);
      await expect(page.getByTestId('explain')).not.toBeEmpty();
      await page.screenshot({ path: `e2e-artifacts/screens/${which === file ? '2pc' : 'paxos'}-17000-${lang}-1280x720.png` });
    }
  }
});

test('coordination-fencing (L11): the paused lock holder past its session (5.3 s) and its late write (6.6 s), unfenced and fenced, with the service on screen', async ({ page }) => {
  const base = loadBuiltin('coordination-fencing');
  if (!base.ok) throw new Error(base.errors.join('\n'));
  const v = resolveVariant(base.scenario, 'zk-fenced');
  if (!v.ok) throw new Error(v.errors.join('\n'));
  const file = 'e2e-artifacts/screens/coordination-fencing-zk-fenced.json';
  writeFileSync(file, JSON.stringify({ ...v.scenario, id: 'coordination-fencing-zk-fenced' }));
  for (const lang of ['en', 'zh'] as const) {
    for (const which of ['coordination-fencing', file]) {
      const name = which === file ? 'zk-fenced' : 'unfenced';
      await openScenario(page, which, { lang });
      await runTo(page, 'end');
      await scrub(page, 5300);
      // The service's servers are drawn (diamonds, data-role coord) and have rows; w0 is frozen.
      await expect(page.locator('[data-testid^="node-c"][data-role="coord"]')).toHaveCount(3);
      await expect(page.getByTestId('node-w0')).toHaveAttribute('data-role', 'paused');
      await expect(page.locator('[data-testid^="server-c"]')).toHaveCount(3);
      await expect(page.getByTestId('explain')).toContainText(lang === 'en' ? 'w0 is paused' : 'w0 被暂停了');
      await page.screenshot({ path: `e2e-artifacts/screens/coordination-fencing-${name}-5300-${lang}-1280x720.png` });
      await scrub(page, 6600);
      await expect(page.getByTestId('explain')).toContainText(which === file ? (lang === 'en' ? 'refused it' : '拒绝了它') : lang === 'en' ? 'two lock holders wrote' : '两个持锁者都写了');
      await page.screenshot({ path: `e2e-artifacts/screens/coordination-fencing-${name}-6600-${lang}-1280x720.png` });
    }
  }
});
