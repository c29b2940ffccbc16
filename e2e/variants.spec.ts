import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { cliSummary } from './cli';
import { openScenario, runTo, scheduleHash } from './fixtures';

/**
 * Free play offers a built-in's variants (a lesson shows them side by side): the same scenario with
 * one choice changed, listed under the open built-in in the scenario menu. Picking one runs what
 * `&variant=` runs — the CLI's hash for that variant; after an edit the menu names the built-in
 * only; a built-in without variants lists none.
 */
const shots = 'e2e-artifacts';

async function expectationsShown(page: Page, text: string): Promise<void> {
  await expect(page.getByTestId('expectation').filter({ hasText: text })).toHaveCount(1, { timeout: 60_000 });
}

test('the scenario menu lists the open built-in\'s variants and runs each one, in both languages', async ({ page }) => {
  test.setTimeout(240_000);
  mkdirSync(shots, { recursive: true });
  const cli = cliSummary('raft-prevote');
  await page.setViewportSize({ width: 1280, height: 720 });
  await openScenario(page, 'raft-prevote');
  const menu = page.getByTestId('scenario-select');
  await expect(menu).toHaveValue('raft-prevote');
  const variant = menu.locator('option[value="raft-prevote::prevote"]');
  await expect(variant).toHaveText(/↳ PreVote on$/);
  // Only the open built-in's variants are listed (raft-ps-majority's are not).
  await expect(menu.locator('option[value*="::"]')).toHaveCount(1);

  await menu.selectOption('raft-prevote::prevote');
  await expectationsShown(page, 'term[s4] <= 2');
  await expect(menu).toHaveValue('raft-prevote::prevote');
  await expect(menu).toHaveAttribute('title', /— PreVote on$/);
  // Closed, the menu shows the chosen option alone: the variant, then the built-in it belongs to.
  await expect(variant).toHaveText(/^PreVote on \(.+\)$/);
  await page.screenshot({ path: `${shots}/variant-menu-1280.png` });
  await runTo(page, 'end');
  expect(await scheduleHash(page)).toBe((await cli).variants!.find((v) => v.id === 'prevote')!.scheduleHash);
  await expect(page.getByTestId('error')).toHaveCount(0);

  // A changed cluster is not the variant any more: the menu names the built-in.
  await page.getByTestId('workers').fill('5');
  await page.getByTestId('workers').press('Enter');
  await expect(menu).toHaveValue('raft-prevote');

  // Back to the base: its own expectations and hash.
  await menu.selectOption('raft-prevote');
  await expectationsShown(page, 'term[s4] >= 15');
  await runTo(page, 'end');
  expect(await scheduleHash(page)).toBe((await cli).scheduleHash);

  await page.getByTestId('lang-toggle').click();
  await expect(variant).toHaveText(/↳ 开启 PreVote$/);

  // A built-in with no variants lists none; a variant opened by URL is the one selected.
  await openScenario(page, 'async-partition');
  await expect(menu.locator('option[value*="::"]')).toHaveCount(0);
  await openScenario(page, 'raft-ps-majority', { query: { variant: 'local-reads' } });
  await expect(menu).toHaveValue('raft-ps-majority::local-reads');
});

test('a link that asks a plain scenario for a lesson\'s step, or for a variant it does not have, is told so, and the scenario opens', async ({ page }) => {
  // A built-in lesson opened as a scenario: the step cannot apply, and the link that would.
  // With a bad value beside it: both problems in one box, though found at different stages of opening.
  await page.goto('./?scenario=raft-ps-majority&step=majority.n2&backend=wasm&sped=max');
  await expect(page.getByTestId('error')).toContainText('step: applies to a lesson only; this one opens as a lesson with lesson=raft-ps-majority');
  await expect(page.getByTestId('error')).toContainText('sped: the page has no such parameter — did you mean speed?');
  await expect(page.getByTestId('node-s4')).toBeVisible();
  await expect(page.getByTestId('lesson-panel')).toHaveCount(0);
  // A scenario without variants: said so, not "(variants: )".
  await page.goto('./?scenario=async-partition&variant=nope&mode=guided&backend=wasm&lang=zh');
  await expect(page.getByTestId('error')).toContainText('variant：没有名为“nope”的变体（这个场景没有变体）');
  await expect(page.getByTestId('error')).toContainText('mode：只对课程有效；请用 lesson=<id> 打开一节课');
  await expect(page.getByTestId('node-w0')).toBeVisible();
});
