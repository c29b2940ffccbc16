import { expect, test } from '@playwright/test';
import { scrubTo as scrub } from './fixtures';

/**
 * Every view is a function of (history, t): scrubbing back shows the protocol state of that
 * time. The stable hooks of CONTRACTS §5 — `node-<id>` with data-role, data-term, data-version —
 * are read at the cursor time.
 */

test('raft-leader-crash scrubbed: the first leader leads at 3.9 s, a new one at 6.9 s', async ({ page }) => {
  await page.goto('./?scenario=raft-leader-crash&autoplay=1&speed=max&backend=wasm');
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
  const leaders = page.locator('[data-testid^="node-s"][data-role="leader"]');

  await scrub(page, 3900);
  await expect(leaders).toHaveCount(1);
  const first = (await leaders.getAttribute('data-testid'))!;
  await expect(leaders).toHaveAttribute('data-term', '1');
  await expect(page.locator('[data-testid="node-w0"]')).toHaveAttribute('data-role', 'worker');

  await scrub(page, 6900);
  await expect(leaders).toHaveCount(1);
  const second = (await leaders.getAttribute('data-testid'))!;
  expect(second).not.toBe(first);
  await expect(leaders).toHaveAttribute('data-term', '2');
  // The old leader crashed at 4 s and restarts at 7 s: at 6.9 s it is down.
  await expect(page.getByTestId(first)).toHaveAttribute('data-role', 'crashed');
  // The servers panel follows the cursor too: the same roles and terms, no "live only".
  await expect(page.getByTestId(second.replace('node-', 'server-'))).toHaveAttribute('data-role', 'leader');
  await expect(page.getByTestId(second.replace('node-', 'server-'))).toHaveAttribute('data-term', '2');

  // Back to 3.9 s: the first leader again — and its version is the one it had then, not today's.
  await scrub(page, 3900);
  await expect(page.getByTestId(first)).toHaveAttribute('data-role', 'leader');
  const v39 = Number(await page.getByTestId(first).getAttribute('data-version'));
  await scrub(page, null);
  await expect(page.getByTestId(first)).toHaveAttribute('data-role', 'follower'); // rejoined after the restart
  expect(Number(await page.getByTestId(first).getAttribute('data-version'))).toBeGreaterThan(v39);
});

test('a shared moment: &at=3900 shows the first leader, &at=6900 the new one (hooks at the cursor time)', async ({ page }) => {
  const leaderAt = async (at: number) => {
    await page.goto(`./?scenario=raft-leader-crash&autoplay=1&speed=max&backend=wasm&at=${at}`);
    await expect(page.getByTestId('cursor-time')).toHaveText(String(at), { timeout: 60_000 });
    const leaders = page.locator('[data-testid^="node-s"][data-role="leader"]');
    await expect(leaders).toHaveCount(1);
    return { id: await leaders.getAttribute('data-testid'), term: await leaders.getAttribute('data-term') };
  };
  const first = await leaderAt(3900);
  const second = await leaderAt(6900);
  expect(first.term).toBe('1');
  expect(second.term).toBe('2');
  expect(second.id).not.toBe(first.id);
});

test("the metrics strip says which sample it shows: the newest at or before the cursor, within one sampling period (the servers' counters are at the cursor itself)", async ({ page }) => {
  const sampled = page.getByTestId('metrics-sampled-at');
  for (const at of [3900, 6900]) {
    await page.goto(`./?scenario=raft-leader-crash&autoplay=1&speed=max&backend=wasm&at=${at}`);
    await expect(page.getByTestId('cursor-time')).toHaveText(String(at), { timeout: 60_000 });
    const ms = Number(await sampled.getAttribute('data-value'));
    expect(ms).toBeLessThanOrEqual(at);
    expect(ms).toBeGreaterThan(at - 250);
    await expect(sampled).toHaveText(`${(ms / 1000).toFixed(2)} s`);
  }
  await expect(page.locator('.metric.sample-at')).toHaveAttribute('title', /newest sample at or before the time shown/);
});
