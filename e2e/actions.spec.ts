import { expect, test, type Page } from '@playwright/test';
import type { TestHooks } from '../src/app/testHooks';
import { actionTable } from '../src/scenario/actions';
import type { Action } from '../src/sim/types';
import { openScenario, runTo } from './fixtures';

/**
 * One action table, one effect: in the browser, every key of the table, pressed on a suitable
 * selection, applies the action it names (recorded as the user's in the run), and the node and
 * link context menus — generated from the same table — reach every action by mouse.
 */

type Hooked = Window & { capPlayground: TestHooks };
const lastAction = async (page: Page): Promise<Action | undefined> => (await page.evaluate(() => (window as unknown as Hooked).capPlayground.userActions())).at(-1)?.action;

/**
 * A right-click on the link (dispatched on the element itself: its centre may lie under a crossing
 * link's hit line) opens its menu, which selects it; closing the menu keeps the selection.
 */
async function selectLink(page: Page, from: string, to: string): Promise<void> {
  await page.getByTestId(`link-${from}-${to}`).dispatchEvent('contextmenu', { button: 2 });
  await expect(page.getByTestId('context-menu')).toContainText(`${from}↔${to}`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('context-menu')).toHaveCount(0);
}

test('every key of the action table applies its action on a suitable selection', async ({ page }) => {
  await openScenario(page, 'raft-leader-crash');
  await runTo(page, 1000);
  const pressed = new Set<string>();
  const press = async (key: string, expected: Action | null) => {
    const before = await lastAction(page);
    await page.keyboard.press(key);
    pressed.add(key.toLowerCase());
    if (expected) await expect.poll(() => lastAction(page), { message: key }).toEqual(expected);
    else expect(await lastAction(page), key).toEqual(before);
  };

  await page.getByTestId('node-s1').click();
  await press('t', { do: 'timeout', node: 's1' });
  await press('x', { do: 'crash', node: 's1' });
  await press('t', null); // a crashed server has no election timer to fire
  await press('x', { do: 'restart', node: 's1' });
  await press('s', { do: 'slow', node: 's1', factor: 4 });
  await press('s', { do: 'slow', node: 's1', factor: 1 });
  await page.getByTestId('node-w0').click();
  await press('t', null); // a worker has no election timer
  await press('g', { do: 'pause', node: 'w0', ms: 2000 });
  await press('w', null); // no coordination service here: no metadata to write
  await press('u', null); // training clients update on their own: nothing to submit by hand
  await press('y', { do: 'byzantine', node: 'w0', attack: 'sign-flip', scale: 10 });
  await press('y', { do: 'honest', node: 'w0' });
  await page.getByTestId('node-s1').click();
  await press('y', null); // a server computes no gradients

  await selectLink(page, 'w1', 's0');
  await press('c', { do: 'cut', from: 'w1', to: 's0' });
  await press('c', { do: 'restore', from: 'w1', to: 's0' });
  await press('m', { do: 'tamper', from: 'w1', to: 's0', attack: 'flip', scale: 10 });
  await press('m', { do: 'untamper', from: 'w1', to: 's0' });
  await press('l', null);
  await expect(page.getByRole('tab', { name: 'Links' })).toHaveAttribute('aria-selected', 'true');

  // n opens the link settings for the whole network (no link selected); applying writes one action.
  await page.getByRole('tab', { name: 'Node' }).click();
  await press('n', null);
  await expect(page.getByRole('tab', { name: 'Links' })).toHaveAttribute('aria-selected', 'true');
  await page.locator('.link-form input[type=number]').first().fill('40');
  await page.getByTestId('apply-link').click();
  await expect.poll(() => lastAction(page)).toEqual({ do: 'network', latencyMs: 40 });

  // p with no partition drawn opens the partition tool; with one drawn, applies it.
  await page.getByRole('tab', { name: 'Node' }).click();
  await press('p', null);
  await expect(page.getByRole('tab', { name: 'Partition' })).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('group-B-w2').click();
  await page.getByTestId('group-B-w3').click();
  await page.getByTestId('group-B-s2').click();
  await press('p', { do: 'partition', groups: [['w0', 'w1', 's0', 's1'], ['w2', 'w3', 's2']] });
  await press('h', { do: 'heal' });

  // Every key the table binds was pressed.
  expect([...pressed].sort()).toEqual([...new Set(actionTable.flatMap((a) => (a.key ? [a.key] : [])))].sort());
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test('node and link context menus come from the table and reach every action by mouse', async ({ page }) => {
  await openScenario(page, 'raft-leader-crash');
  await runTo(page, 1000);
  const menu = page.getByTestId('context-menu');
  const items = () => menu.getByRole('menuitem').allTextContents();

  await page.getByTestId('node-s0').click({ button: 'right' });
  await expect(menu).toBeVisible();
  expect(await items()).toEqual(['crash s0X', 'slow s0 ×2S', 'slow s0 ×4S', 'slow s0 ×8S', 'election timeout on s0T', 'pause s0 2 s (GC)G']);
  await page.screenshot({ path: 'e2e-artifacts/context-menu-node.png' });
  await menu.getByTestId('menu-timeout').click();
  await expect.poll(() => lastAction(page)).toEqual({ do: 'timeout', node: 's0' });

  const byzantine = (w: string) => [`${w} turns Byzantine: sign flip ×10Y`, `${w} turns Byzantine: huge gradient ×10Y`, `${w} turns Byzantine: random noise ×10Y`, `${w} turns Byzantine: "A Little Is Enough" ×10Y`];
  await page.getByTestId('node-w2').click({ button: 'right' });
  expect(await items()).toEqual(['crash w2X', 'slow w2 ×2S', 'slow w2 ×4S', 'slow w2 ×8S', 'pause w2 2 s (GC)G', ...byzantine('w2')]);
  await menu.getByTestId('menu-slow-8').click();
  await expect.poll(() => lastAction(page)).toEqual({ do: 'slow', node: 'w2', factor: 8 });
  await page.getByTestId('node-w2').click({ button: 'right' });
  expect(await items()).toEqual(['crash w2X', 'w2 back to normal speedS', 'slow w2 ×2S', 'slow w2 ×4S', 'pause w2 2 s (GC)G', ...byzantine('w2')]);
  await menu.getByTestId('menu-byzantine-alie').click();
  await expect.poll(() => lastAction(page)).toEqual({ do: 'byzantine', node: 'w2', attack: 'alie', scale: 10 });
  await page.getByTestId('node-w2').click({ button: 'right' });
  expect(await items()).toEqual(['crash w2X', 'w2 back to normal speedS', 'slow w2 ×2S', 'slow w2 ×4S', 'pause w2 2 s (GC)G', 'w2 is honest againY']);
  await menu.getByTestId('menu-crash').click();
  await expect.poll(() => lastAction(page)).toEqual({ do: 'crash', node: 'w2' });
  await page.getByTestId('node-w2').click({ button: 'right' });
  // A compromised program stays compromised across a crash: "honest again" is still offered.
  expect(await items()).toEqual(['restart w2X', 'w2 is honest againY']);
  // Keyboard inside the menu: Enter chooses the focused item.
  await page.keyboard.press('Enter');
  await expect.poll(() => lastAction(page)).toEqual({ do: 'restart', node: 'w2' });

  // The menu key opens the menu of the selected (or focused) link too.
  await selectLink(page, 'w1', 's0');
  await page.keyboard.press('Shift+F10');
  await expect(menu).toContainText('w1↔s0');
  expect(await items()).toEqual(['cut w1↔s0C', 'Link settings…L', 'tamper w1→s0: flip ×10M', 'tamper w1→s0: scale ×10M', 'tamper w1→s0: noise ×10M', 'tamper w1→s0: replay ×10M']);
  await page.screenshot({ path: 'e2e-artifacts/context-menu-link.png' });
  await menu.getByTestId('menu-link').click();
  await expect(page.getByRole('tab', { name: 'Links' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.link-form select')).toHaveValue('s0-w1');
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test('with a coordination service: w opens the metadata form, which writes through the leader; g pauses a worker', async ({ page }) => {
  await openScenario(page, 'coordination-fencing');
  await runTo(page, 1000);
  await page.getByTestId('node-w2').click();
  await page.keyboard.press('g');
  await expect.poll(() => lastAction(page)).toEqual({ do: 'pause', node: 'w2', ms: 2000 });
  await page.keyboard.press('w');
  await expect(page.getByRole('tab', { name: 'Metadata' })).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('meta-value').fill('ckpt-1000');
  await page.getByTestId('apply-meta').click();
  // An empty key takes the suggested one (the checkpoint pointer).
  await expect.poll(() => lastAction(page)).toEqual({ do: 'putMeta', key: '/ckpt/latest', value: 'ckpt-1000' });
  await expect(page.getByTestId('error')).toHaveCount(0);
});
