import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import type { TestHooks } from '../src/app/testHooks';
import { openScenario, runTo, scrubTo } from './fixtures';

type Hooked = Window & { capPlayground: TestHooks };

/**
 * A run long enough that the page packs what has aged of it (sim/packer.ts: history batches from
 * 4 MB, message spans from their third chunk; the packing in a worker of its own) still reads its
 * past back exactly: scrubbed to 5 s it shows what a run stopped at 5 s shows, and Export run's
 * log — written in the export's worker from the packed batches — hashes to the engine's
 * eventLogHash.
 */

function longRaft(): string {
  const sc = JSON.parse(readFileSync('public/scenarios/raft-ps-majority.json', 'utf8')) as Record<string, unknown>;
  sc.id = 'raft-ps-long';
  sc.cluster = { ...(sc.cluster as object), workers: 8 };
  sc.durationMs = 90_000;
  sc.expect = [];
  const file = join(mkdtempSync(join(tmpdir(), 'cap-long-')), 'raft-ps-long.json');
  writeFileSync(file, JSON.stringify(sc));
  return file;
}

/** Every node's role, term and version as the topology shows them at the cursor. */
async function nodesShown(page: Page): Promise<string[]> {
  return page.locator('[data-testid^="node-"][data-role]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-testid')} ${e.getAttribute('data-role')} ${e.getAttribute('data-term')} ${e.getAttribute('data-version')}`).sort());
}

test('a long run, packed as it ages, shows its past as it was and exports its whole log', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const file = longRaft();
  await openScenario(page, file, { query: { speed: 'max' } });
  // 80 simulated seconds of 8 workers: ~190,000 events, ~64,000 messages.
  await runTo(page, 80_000, { timeout: 180_000 });
  expect(page.workers().some((w) => /packWorker/.test(w.url())), 'the pack worker started').toBe(true);
  await page.waitForTimeout(1000); // the last packings come back

  await scrubTo(page, 5000);
  const back = await nodesShown(page);
  expect(back.length).toBeGreaterThan(8);

  const fresh = await browser.newPage();
  await openScenario(fresh, file);
  await runTo(fresh, 5000);
  expect(back).toEqual(await nodesShown(fresh));
  await fresh.close();

  await scrubTo(page, null);
  await page.getByTestId('share').click();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByTestId('export-run').click()]);
  const files = unzipSync(readFileSync(await download.path()));
  const summary = (await page.evaluate(() => (window as unknown as Hooked).capPlayground.summary()))!;
  const log = files['raft-ps-long.events.jsonl'];
  expect(log.length).toBeGreaterThan(10_000_000);
  expect(createHash('sha256').update(log).digest('hex')).toBe(summary.eventLogHash);
});
