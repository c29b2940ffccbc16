import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';

/**
 * Screenshots of lessons in guided mode (small multiples) at 1920×1080, to look at:
 * `LESSON_SHOTS=id:act.step,id:act.step … npx playwright test e2e/lessonShots.spec.ts` writes
 * e2e-artifacts/lesson-shots/<id>-<act>.<step>-<lang>.png. Skipped unless LESSON_SHOTS is set.
 */
const wanted = (process.env.LESSON_SHOTS ?? '').split(',').filter(Boolean);
const dir = 'e2e-artifacts/lesson-shots';

test.skip(wanted.length === 0, 'set LESSON_SHOTS=id:act.step,…');

for (const item of wanted) {
  const [id, at] = item.split(':');
  for (const lang of ['en', 'zh'] as const) {
    test(`${id} at ${at} (${lang}), 1920×1080`, async ({ page }) => {
      test.setTimeout(300_000);
      mkdirSync(dir, { recursive: true });
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.goto(`./?${new URLSearchParams({ lesson: id, step: at, backend: 'wasm', lang })}`);
      await expect(page.getByTestId('lesson-panel')).toBeVisible();
      await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-step-id', at.split('.')[1]);
      // The runs reach the step's time before the picture is taken.
      await expect(page.getByTestId('run-status')).not.toHaveText('loading', { timeout: 120_000 });
      await page.waitForTimeout(2500);
      await page.screenshot({ path: `${dir}/${id}-${at}-${lang}.png` });
    });
  }
}
