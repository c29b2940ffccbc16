import { expect, test } from '@playwright/test';
import { openScenario } from './fixtures';

/**
 * The "WHAT YOU SEE" texts load per strategy with the run (issue 9, src/app/explain/index.ts).
 * Normally the run's text is there when the run is shown; if its file failed to arrive the line
 * says nothing — never another strategy's story — and the text comes once a later fetch succeeds.
 */

/** raft-ps's text chunk (app/explain/raft.ts), not the protocol's (raftPs-*.js). */
const raftText = /\/assets\/raft-[^/]+\.js$/;

test('a run is shown with its text: a slow text file delays the run, never leaves its line empty', async ({ page }) => {
  // Records whether the page ever showed a run with an empty line (the line of no run is empty too).
  await page.addInitScript(() => {
    const w = window as unknown as { emptyLineWithRun?: boolean; capPlayground?: { run(): unknown } };
    new MutationObserver(() => {
      if (w.capPlayground?.run() && document.querySelector('footer.explain:not([data-testid])')) w.emptyLineWithRun = true;
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  let asked = 0;
  await page.route(raftText, async (route) => {
    asked++;
    await new Promise((r) => setTimeout(r, 4000)); // longer than the workers take to start
    await route.continue();
  });
  await openScenario(page, 'raft-ps-majority', { lang: 'en' });
  await expect(page.getByTestId('explain')).toContainText('majority');
  expect(asked).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { emptyLineWithRun?: boolean }).emptyLineWithRun ?? false)).toBe(false);
});

test('a text file that failed shows an empty line, then the text once it loads on a later try', async ({ page }) => {
  let asked = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => (release = r));
  await page.route(raftText, async (route) => {
    asked++;
    if (asked === 1) return route.abort(); // the load with the run fails (the page went offline)
    await released; // the screen's own try, held while the test looks at the empty line
    await route.continue();
  });
  await openScenario(page, 'raft-ps-majority', { lang: 'en' });
  // The run is on screen, without its text: the line is there but says nothing (no label, no sentence).
  await expect(page.locator('footer.explain')).toHaveCount(1);
  await expect(page.locator('footer.explain')).toHaveText('');
  await expect.poll(() => asked).toBe(2);
  release();
  await expect(page.getByTestId('explain')).toContainText('majority');
});
