import { expect, test, type Page } from '@playwright/test';
import { openScenario } from './fixtures';

/**
 * While a run plays, the panels re-render ten times a second. A text node written with the text
 * it already holds is still a DOM mutation, and the browser lays the page out again for it (the
 * trace showed 15–23 such writes in every 6–9 ms layout). src/app/preactText.ts and the
 * components keep these writes away; this watches two seconds of a playing run for any left, and
 * checks that a changing caption lays out only its own view (CSS containment, views/css/base.css).
 */

async function sameValueWrites(page: Page, ms: number): Promise<Record<string, number>> {
  return page.evaluate(
    (wait) =>
      new Promise<Record<string, number>>((resolve) => {
        const found: Record<string, number> = {};
        const where = (n: Node): string => {
          const out: string[] = [];
          for (let e = n.parentElement; e && out.length < 3; e = e.parentElement) out.push(`${e.tagName.toLowerCase()}.${(e.getAttribute('class') ?? '').split(' ')[0]}`);
          return out.reverse().join('>');
        };
        const mo = new MutationObserver((records) => {
          for (const r of records) {
            if (r.type !== 'characterData' || r.oldValue !== r.target.textContent) continue;
            const k = `${where(r.target)} ${JSON.stringify(r.oldValue)}`;
            found[k] = (found[k] ?? 0) + 1;
          }
        });
        mo.observe(document.body, { subtree: true, characterData: true, characterDataOldValue: true });
        setTimeout(() => {
          mo.disconnect();
          resolve(found);
        }, wait);
      }),
    ms,
  );
}

for (const id of ['async-partition', 'raft-ps-majority']) {
  test(`${id}: a playing run writes no text that is already there`, async ({ page }) => {
    await openScenario(page, id, { query: { autoplay: '1', speed: '1' } });
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="sim-time"]')?.textContent) > 800, null, { timeout: 60_000 });
    expect(await sameValueWrites(page, 2000)).toEqual({});
  });
}

test('a lesson with two panels playing writes no text that is already there', async ({ page }) => {
  await page.goto(`./?${new URLSearchParams({ lesson: 'cap-partition-choice', backend: 'wasm', lang: 'en' })}`);
  await expect(page.getByTestId('variant-async')).toBeVisible();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="variant-time"]').length === 2);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.textContent === 'running', null, { timeout: 30_000 });
  expect(await sameValueWrites(page, 2000)).toEqual({});
});

test('each view, the checks list and each metric value is its own relayout boundary', async ({ page }) => {
  await openScenario(page, 'async-partition');
  // Strict containment is what makes a box a relayout boundary (with its size not from its
  // content); the grid items around them cannot be one, so the containment sits inside them.
  const contain = await page.evaluate(() =>
    ['.view .cv-view', '.checks .expectations.embedded', '.metric-value', '.hook'].map((sel) => [sel, [...document.querySelectorAll(sel)].map((e) => getComputedStyle(e).contain)]),
  );
  for (const [sel, values] of contain as Array<[string, string[]]>) {
    expect(values.length, sel).toBeGreaterThan(0);
    for (const v of values) expect(v, sel).toBe('strict');
  }
});
