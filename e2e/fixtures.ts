import { existsSync, readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { builtinIds } from '../src/cli/builtins';
import { encodeScenarioHashShortest } from '../src/scenario/hashCodec';
import type { TestHooks } from '../src/app/testHooks';

/**
 * Replays for test authors (README "Replays"): drive the built app to exact simulated times
 * through the same hooks `npm run replay` uses. Plain functions of a Playwright `Page` — no
 * `expect` inside — so they work in a spec and in a script alike.
 *
 *   await openScenario(page, 'raft-leader-crash');           // a built-in id, or a scenario file
 *   await runTo(page, 3900);                                 // run unpaced to t = 3.9 s, paused there
 *   await page.getByTestId('node-s0').click();               // … act through the UI …
 *   await runTo(page, 'end');                                // to the end: run-status "done"
 *   await scrubTo(page, 3900);                               // cursor back to 3.9 s, views redrawn
 *   await page.screenshot({ path: 'at-3900.png' });
 *   expect(await scheduleHash(page)).toBe(cliSummary('raft-leader-crash').scheduleHash);
 */

type Hooked = Window & { capPlayground: TestHooks };

export interface OpenOptions {
  /** tfjs backend of the workers (default wasm: fast and available everywhere). */
  backend?: 'wasm' | 'cpu' | 'webgl' | 'webgpu' | 'auto';
  lang?: 'en' | 'zh';
  /** Further URL parameters (autoplay, speed, at …). */
  query?: Record<string, string>;
  /** How long the page may take to build the run (workers start), in ms. */
  timeout?: number;
}

/** Is the argument a scenario file rather than a built-in id? (The CLI's rule: resolveScenario.) */
export function isScenarioFile(fileOrId: string): boolean {
  return /[/\\]/.test(fileOrId) || fileOrId.endsWith('.json') || (!builtinIds().includes(fileOrId) && existsSync(fileOrId));
}

/**
 * Opens a built-in (`?scenario=<id>`) or a scenario file (sent as `#scenario=`, compressed) and
 * waits until that scenario's run is built and idle. Throws with the page's error text if the
 * page refused it.
 */
export async function openScenario(page: Page, fileOrId: string, opts: OpenOptions = {}): Promise<{ id: string; durationMs: number }> {
  const q = new URLSearchParams({ backend: opts.backend ?? 'wasm', ...(opts.lang ? { lang: opts.lang } : {}), ...opts.query });
  let id = fileOrId;
  let hash = '';
  if (isScenarioFile(fileOrId)) {
    const json = readFileSync(fileOrId, 'utf8');
    id = (JSON.parse(json) as { id?: string }).id ?? '';
    hash = `#scenario=${await encodeScenarioHashShortest(json)}`;
  } else q.set('scenario', fileOrId);
  await page.goto(`./?${q}${hash}`);
  const timeout = opts.timeout ?? 60_000;
  const handle = await page.waitForFunction(
    (want) => {
      const err = document.querySelector('[data-testid="error"]');
      if (err) return { error: err.textContent ?? 'error' };
      const run = (window as unknown as Partial<Hooked>).capPlayground?.run();
      return run && run.scenario === want ? { ok: true, durationMs: run.durationMs } : false;
    },
    id,
    { timeout },
  );
  const r = (await handle.jsonValue()) as { error?: string; durationMs?: number };
  if (r.error) throw new Error(`openScenario(${fileOrId}): the page shows an error: ${r.error}`);
  return { id, durationMs: r.durationMs ?? 0 };
}

/**
 * Runs unpaced to simulated time `ms` — every event at `ms` included — and pauses there; `'end'`
 * runs to the end and waits for `run-status` "done" and the schedule hash. Resolves when there.
 */
export async function runTo(page: Page, ms: number | 'end', opts: { timeout?: number } = {}): Promise<void> {
  const timeout = opts.timeout ?? 120_000;
  const target = ms === 'end' ? Number.MAX_SAFE_INTEGER : ms;
  await Promise.race([
    page.evaluate((t) => (window as unknown as Hooked).capPlayground.runTo(t), target),
    page.waitForTimeout(timeout).then(() => {
      throw new Error(`runTo(${ms}): not there after ${timeout} ms`);
    }),
  ]);
  if (ms === 'end') await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.textContent === 'done' && !!document.querySelector('[data-testid="schedule-hash"]')?.textContent, null, { timeout });
  else await page.waitForFunction((t) => Number(document.querySelector('[data-testid="sim-time"]')?.textContent) >= t || document.querySelector('[data-testid="run-status"]')?.textContent === 'done', ms, { timeout });
}

/** Puts the scrub cursor at `ms` (null: back to live; capped at the run's time) and waits until the views have redrawn. */
export async function scrubTo(page: Page, ms: number | null): Promise<void> {
  // The cursor goes no later than the run has got: wait for where it actually went.
  const at = await page.evaluate((t) => (window as unknown as Hooked).capPlayground.scrubTo(t), ms);
  await page.waitForFunction((t) => document.querySelector('[data-testid="cursor-time"]')?.textContent === (t === null ? '' : String(Math.round(t))), at);
  // Two animation frames: React commits, then the D3 effects draw.
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** The schedule hash the page shows once the run is done (it comes from the hash worker a moment after the end). */
export async function scheduleHash(page: Page): Promise<string> {
  const shown = page.getByTestId('schedule-hash');
  await expect(shown).toHaveText(/^[0-9a-f]{64}$/);
  return (await shown.textContent()) ?? '';
}

/** The simulated time the page shows, in ms. */
export async function simTime(page: Page): Promise<number> {
  return Number(await page.getByTestId('sim-time').textContent());
}
