import { expect, type Page } from '@playwright/test';
import { openScenario, runTo } from './fixtures';

/**
 * What the text-fit specs (textFit.spec.ts, textFitLessons.spec.ts) share: opening a scenario or a
 * lesson at a window size, run to a time and drawn, and the check that replica captions stand apart.
 */

/** Two animation frames: React commits, then the D3 effects draw. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** A lesson (guided; `present` for presenter mode) at a window size, run to `ms` (0: as it opens) and drawn. */
export async function openLessonAt(page: Page, size: [number, number], lesson: string, lang: 'en' | 'zh', present: boolean, ms = 0, step?: string): Promise<void> {
  await page.setViewportSize({ width: size[0], height: size[1] });
  await page.goto(`./?${new URLSearchParams({ lesson, backend: 'wasm', lang, ...(present ? { present: '1' } : {}), ...(step ? { step } : {}) })}`);
  await expect(page.getByTestId('lesson-panel')).toBeVisible();
  if (ms > 0) await runTo(page, ms);
  await settle(page);
}

/** A scenario at a window size, run to `ms` and drawn. */
export async function openAt(page: Page, size: [number, number], scenario: string, ms: number, opts: Parameters<typeof openScenario>[2] = { lang: 'en' }): Promise<void> {
  await page.setViewportSize({ width: size[0], height: size[1] });
  await openScenario(page, scenario, opts);
  await runTo(page, ms);
  await settle(page);
}

/** Each replica caption phrase stands apart from the next tile's (they ran together), in type of at least 12 px. */
export async function expectPhrasesApart(page: Page, count: number, cells = '.cv-replica .cv-sub > span'): Promise<void> {
  const phrases = await page.locator(cells).evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { fig: el.closest('figure')?.dataset.testid ?? '', text: el.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom, px: parseFloat(getComputedStyle(el).fontSize) };
    }),
  );
  expect(phrases.length).toBe(count);
  for (const a of phrases) {
    expect(a.px, `"${a.text}" (${a.fig}) type`).toBeGreaterThanOrEqual(11.9);
    for (const b of phrases) {
      if (a.fig === b.fig || a.left >= b.left) continue;
      const sameLine = a.top < b.bottom && b.top < a.bottom;
      // Phrases of two tiles on one line: at least half an em between them.
      if (sameLine) expect(b.left - a.right, `"${a.text}" (${a.fig}) and "${b.text}" (${b.fig})`).toBeGreaterThanOrEqual(6);
    }
  }
}
