import { expect, test } from '@playwright/test';

/**
 * Every registered strategy is selectable in the UI, builds a valid cluster, shows its knobs
 * (built from its zod declaration) and trains: versions advance with no error.
 */
test('each strategy in the picker runs, with its knobs and nodes', async ({ page }) => {
  await page.goto('./?scenario=allreduce-partition&backend=wasm&speed=4');
  const picker = page.getByTestId('strategy');
  await expect(page.getByTestId('node-w0')).toBeAttached(); // the scenario has loaded
  await expect.poll(() => picker.locator('option').count()).toBeGreaterThan(6);
  const kinds = await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(kinds).toEqual(expect.arrayContaining(['allreduce', 'ps-async', 'ps-sync', 'ssp', 'raft-ps', 'kafka-ps', 'degrade']));
  for (const kind of kinds) {
    await picker.selectOption(kind);
    await expect(picker).toHaveValue(kind);
    await expect(picker).toBeEnabled(); // the new run is built
    await expect(page.getByTestId('run-status')).toHaveText(/idle|paused/);
    await expect(async () => {
      if ((await page.getByTestId('run-status').textContent()) !== 'running') await page.getByTestId('play').click();
      await expect(page.getByTestId('run-status')).toHaveText('running', { timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    // Some worker's parameters move on within a few seconds of simulated time.
    await expect
      .poll(async () => Number(await page.getByTestId('node-w0').getAttribute('data-version')), { timeout: 30_000, message: kind })
      .toBeGreaterThan(1);
    await expect(page.getByTestId('error')).toHaveCount(0);
    // Its knobs, built from the strategy's schema: inline, or folded behind "Knobs (n)".
    const knobs = (await page.locator('[data-testid^="knob-"]').count()) + (await page.getByTestId('knobs-toggle').count());
    expect(knobs, kind).toBeGreaterThan(0);
    await expect(page.getByTestId('metric-violations')).toHaveText('0');
    if (kind === 'raft-ps') await expect(page.getByTestId('node-s4')).toBeAttached();
    if (kind === 'kafka-ps') await expect(page.getByTestId('node-b2')).toBeAttached();
    // Pause before switching — unless the run has ended meanwhile (a loaded machine): play would
    // then start the next run as soon as it is built.
    if ((await page.getByTestId('run-status').textContent()) === 'running') await page.getByTestId('play').click();
    await expect(page.getByTestId('run-status')).not.toHaveText('running');
  }
});

test('switching the strategy of a scenario with variants: the ones written for the old strategy are left out, said so, and the run is built', async ({ page }) => {
  await page.goto('./?scenario=raft-ps-majority&backend=wasm');
  await expect(page.getByTestId('node-s4')).toBeAttached();
  await page.getByTestId('strategy').selectOption('ps-sync');
  await expect(page.getByTestId('notice')).toContainText('Left out the variant local-reads, written for the previous strategy: it does not apply to this one.');
  await expect(page.getByTestId('notice')).toContainText('Left out 7 expectations on metrics of the previous strategy (maxCommitGapMs, staleReads, leaders).');
  await expect(page.getByTestId('error')).toHaveCount(0);
  // One parameter server: Raft's other four would stand idle.
  await expect(page.getByTestId('node-s0')).toBeAttached();
  await expect(page.getByTestId('node-s1')).toHaveCount(0);
  await page.getByTestId('play').click();
  await expect.poll(async () => Number(await page.getByTestId('node-w0').getAttribute('data-version')), { timeout: 30_000 }).toBeGreaterThan(1);
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test('fewer workers on a lesson with sessions and variants: the run is built, and the page says what went', async ({ page }) => {
  // degrade-merge-fencing: six workers, each with a coordination session (the change was refused:
  // "coordination.sessions.w5: node "w5" does not exist").
  await page.goto('./?scenario=degrade-merge-fencing&backend=wasm');
  await expect(page.getByTestId('node-w5')).toBeAttached();
  await page.getByTestId('workers').fill('4');
  await page.getByTestId('workers').press('Enter');
  await expect(page.getByTestId('node-w5')).toHaveCount(0);
  await expect(page.getByTestId('node-w3')).toBeAttached();
  await expect(page.getByTestId('notice')).toContainText(/Removed \d+ entries \(of the timeline, the expectations or node settings\)/);
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test('a knob refuses a bad value with the reason in the page’s language, and snaps back to its value', async ({ page }) => {
  await page.goto('./?scenario=allreduce-partition&backend=wasm&lang=zh');
  const rto = page.getByTestId('knob-rtoMs');
  await expect(rto).toHaveValue('200');
  await rto.fill('-5');
  await rto.press('Enter');
  await expect(page.getByTestId('error').first()).toContainText('参数 rtoMs：必须大于 0，输入的是 -5');
  await expect(rto).toHaveValue('200');
  // An accepted value rebuilds the run with it, and says nothing.
  await page.getByTestId('error').first().getByRole('button').click();
  await rto.fill('350');
  await rto.press('Enter');
  await expect(rto).toHaveValue('350');
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test('in the knobs panel, a refused value is said under the knobs (not behind the panel), in the page’s language', async ({ page }) => {
  await page.goto('./?scenario=raft-ps-majority&backend=wasm&lang=zh');
  await page.getByTestId('knobs-toggle').click();
  const timeout = page.getByTestId('knob-electionTimeoutMs');
  await expect(timeout).toHaveValue('150–300');
  await timeout.fill('300–150');
  await timeout.press('Enter');
  await expect(page.getByTestId('knob-problem')).toHaveText('参数 electionTimeoutMs：最小值不能大于最大值，输入的是 300–\u2060150');
  await expect(timeout).toHaveValue('150–300');
  await expect(timeout).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('error')).toHaveCount(0);
  // A value the knob takes clears it.
  await timeout.fill('200–400');
  await timeout.press('Enter');
  await expect(page.getByTestId('knob-problem')).toHaveCount(0);
  await expect(page.getByTestId('knob-electionTimeoutMs')).toHaveValue('200–400');
  await expect(page.getByTestId('knob-electionTimeoutMs')).not.toHaveAttribute('aria-invalid', 'true');
});

test('an action on a finished run is refused, and a 中文 page says why in Chinese', async ({ page }) => {
  await page.goto('./?scenario=allreduce-partition&backend=wasm&lang=zh&autoplay=1&speed=max');
  await expect(page.getByTestId('schedule-hash')).toHaveText(/^[0-9a-f]{64}$/, { timeout: 120_000 });
  await page.getByTestId('node-w1').click();
  await page.getByTestId('node-crash').click();
  await expect(page.getByTestId('error').first()).toContainText('这次运行已经结束；重新开始后再试');
  await expect(page.getByTestId('node-w1')).not.toHaveAttribute('data-up', 'false');
});
