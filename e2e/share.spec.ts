import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import type { TestHooks } from '../src/app/testHooks';
import { parseSamplesCsv } from '../src/engine/runExport';
import { decodeScenarioHashAny } from '../src/scenario/hashCodec';
import { cliSummary } from './cli';
import { openScenario, runTo, scheduleHash } from './fixtures';

/**
 * Runs you can share (CONTRACTS §5): a run with a user's cut, shared through the Share button and
 * reopened in a new page, and exported and run through the CLI, has the same schedule hash.
 * One page per export: Chromium under Playwright never fires an 11th download from one page.
 */

mkdirSync('e2e-artifacts', { recursive: true });
type Hooked = Window & { capPlayground: TestHooks };

async function userActions(page: Page) {
  return page.evaluate(() => (window as unknown as Hooked).capPlayground.userActions());
}

/**
 * Cuts a link through the UI: right-click it in the topology (dispatched on the element: its
 * centre may lie under a crossing link), choose "cut" in its context menu.
 */
async function cutLinkViaMenu(page: Page, from: string, to: string): Promise<void> {
  await page.getByTestId(`link-${from}-${to}`).dispatchEvent('contextmenu', { button: 2 });
  await expect(page.getByTestId('context-menu')).toContainText(`${from}↔${to}`);
  await page.getByTestId('context-menu').getByTestId('menu-cut').click();
  await expect(page.getByTestId('context-menu')).toHaveCount(0);
}

test('a run with a user’s cut at 6 s: shared link and exported file reproduce its schedule hash', async ({ page, context }) => {
  await openScenario(page, 'raft-leader-crash');
  await runTo(page, 6000);
  await cutLinkViaMenu(page, 'w1', 's0');
  // The engine's worker applies it and answers: the page has it a moment after the menu closes.
  await expect.poll(() => userActions(page)).toEqual([{ t: 6000, action: { do: 'cut', from: 'w1', to: 's0' } }]);
  await runTo(page, 'end');
  const hash = await scheduleHash(page);
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  // The user's cut changed the run: the plain scenario hashes differently.
  expect(hash).not.toBe((await cliSummary('raft-leader-crash')).scheduleHash);

  // Share: the dialog's link holds the scenario and the cut, compressed.
  await page.getByTestId('share').click();
  const linkBox = page.getByTestId('share-link');
  await expect(linkBox).toHaveValue(/#scenario=z:/);
  const link = await linkBox.inputValue();
  await page.screenshot({ path: 'e2e-artifacts/share-dialog.png' });
  const decoded = await decodeScenarioHashAny(new URL(link).hash);
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.problem));
  const shared = JSON.parse(decoded.json) as { timeline: Array<Record<string, unknown>> };
  expect(shared.timeline.filter((e) => e.by === 'user')).toEqual([{ at: 6000, by: 'user', do: 'cut', from: 'w1', to: 's0' }]);

  // Opened in a new page and played there (speed max, ▶): the same schedule hash.
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByTestId('node-s2')).toBeAttached();
  await other.getByTestId('speed').selectOption('max');
  await other.getByTestId('play').click();
  await expect(other.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
  await expect(other.getByTestId('schedule-hash')).toHaveText(hash);
  await other.close();

  // Export run: one zip; its scenario through the CLI gives the same hash; its log hashes to the
  // run's eventLogHash; its samples end with the run's steps; every view as SVG and PNG.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-run').click()]);
  expect(download.suggestedFilename()).toBe('raft-leader-crash-run-t10000.zip');
  const files = unzipSync(readFileSync(await download.path()));
  const names = Object.keys(files).sort();
  for (const v of ['topology', 'timeline', 'charts']) expect(names).toEqual(expect.arrayContaining([`views/${v}.svg`, `views/${v}.png`]));
  const dir = mkdtempSync(join(tmpdir(), 'cap-export-'));
  const scenarioFile = join(dir, 'raft-leader-crash.scenario.json');
  writeFileSync(scenarioFile, files['raft-leader-crash.scenario.json']);
  expect((await cliSummary(scenarioFile)).scheduleHash).toBe(hash);
  const summary = (await page.evaluate(() => (window as unknown as Hooked).capPlayground.summary()))!;
  expect(createHash('sha256').update(files['raft-leader-crash.events.jsonl']).digest('hex')).toBe(summary.eventLogHash);
  const rows = parseSamplesCsv(new TextDecoder().decode(files['raft-leader-crash.samples.csv']));
  expect(rows.find((r) => r.t === 10000 && r.metric === 'steps' && r.node === null)?.value).toBe(summary.metrics.steps);
  for (const n of names.filter((x) => x.endsWith('.svg'))) {
    const svg = new TextDecoder().decode(files[n]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), n).toBe(true);
    expect(svg, n).not.toContain('foreignObject');
    // What only a screen reader reads (the views' keyboard help) is not drawn.
    expect(svg, n).not.toContain('Keyboard:');
    // The computed styles are inlined as `style` (written under another name, renamed at the end).
    expect(svg, n).not.toContain('data-cv-inlined-style');
    expect(svg, n).not.toContain(' class="');
  }
  // The page's CSS is inlined: the topology's node labels carry their font, the charts' axis labels theirs.
  for (const n of ['views/topology.svg', 'views/charts.svg']) expect(new TextDecoder().decode(files[n]), n).toMatch(/<text [^>]*style="[^"]*font-size:/);
  // The charts' lines are in the exported charts, w0's among them (what views.svg draws is what the page shows).
  expect(new TextDecoder().decode(files['views/charts.svg'])).toMatch(/<path [^>]*stroke="#E69F00"/);
  for (const n of names.filter((x) => x.endsWith('.png'))) {
    expect([...files[n].subarray(0, 8)], n).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(files[n].length, n).toBeGreaterThan(2000);
    writeFileSync(join('e2e-artifacts', `export-${n.replace('views/', '')}`), files[n]);
  }
});
