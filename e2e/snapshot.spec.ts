import { expect, test } from '@playwright/test';
import { scrubTo as scrub } from './fixtures';

/**
 * Raft log compaction in the servers panel (built-in raft-snapshot): s4 is down from 2 s to 8 s
 * while the others snapshot every 25 entries; it comes back, and the leader sends its snapshot.
 * The panel's legend names compacted boxes only once there are any (none before the first
 * snapshot), a row says where its snapshot ends and its log starts, and the explanation names
 * InstallSnapshot — all at the cursor's time.
 */
test('raft-snapshot: a down server shows its snapshot’s commit index, and catches up by InstallSnapshot', async ({ page }) => {
  await page.goto('./?scenario=raft-snapshot&autoplay=1&speed=max&backend=wasm');
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
  const legend = page.locator('g.sv-legend text');
  const s4 = page.getByTestId('server-s4');

  await scrub(page, 1000); // before any snapshot
  await expect(legend).toHaveText(['committed', 'not committed']);

  await scrub(page, 7900); // s4 down: its commit index is its snapshot's
  await expect(s4).toHaveAttribute('data-role', 'crashed');
  await expect(s4).toHaveAttribute('data-commit', '25');

  await scrub(page, 8600); // back, and caught up from the leader's snapshot
  await expect(s4).toHaveAttribute('data-role', 'follower');
  expect(Number(await s4.getAttribute('data-commit'))).toBeGreaterThan(125);
  await expect(s4.locator('title').first()).toContainText(/snapshot up to index \d+; its log starts at index \d+/);
  await expect(page.getByTestId('explain')).toContainText('InstallSnapshot, Raft §7');
  await expect(page.getByTestId('error')).toHaveCount(0);
});
