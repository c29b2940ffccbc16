/**
 * bench:web's app side: the preview server of the build under test, the pages it measures (built-ins
 * and variants of them as `#scenario=` links) and one animation load of a page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { encodeScenarioHashCompressed } from '../../src/scenario/hashCodec';
import { freshBrowser, measureAnimation, newPage, paintTimes, type Animation } from './browser';

export const root = fileURLToPath(new URL('../../', import.meta.url));

export function startPreview(port: number, distDir: string): ChildProcess {
  return spawn('node', ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', distDir], { cwd: root, stdio: 'ignore' });
}

export const PORT = 4193;
export const base = `http://127.0.0.1:${PORT}/`;

export function builtinJson(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(root, 'public/scenarios', `${id}.json`), 'utf8')) as Record<string, unknown>;
}

/** A built-in with a bigger cluster or a longer duration, as a `#scenario=` link. */
export async function variantUrl(id: string, patch: (sc: Record<string, unknown>) => void, query: string): Promise<string> {
  const sc = builtinJson(id);
  patch(sc);
  return `${base}?${query}#scenario=${await encodeScenarioHashCompressed(JSON.stringify(sc))}`;
}

export const raft16 = (sc: Record<string, unknown>): void => {
  sc.id = 'raft-ps-16';
  sc.cluster = { ...(sc.cluster as object), workers: 16 };
  // Without its timeline (the partition names w0–w3 only) and expectations: the steady state, 16 lanes.
  sc.timeline = [];
  sc.expect = [];
};

export type Hooks = { capPlayground?: { run(): { scenario: string; now: number; done: boolean } | null } };

/** Waits until the page's run is going and has passed `ms` of simulated time. */
export async function waitRunning(page: Page, ms: number, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    (t) => {
      if (document.querySelector('[data-testid="error"]')) throw new Error(document.querySelector('[data-testid="error"]')?.textContent ?? 'error');
      const r = (window as unknown as Hooks).capPlayground?.run();
      return !!r && r.now >= t;
    },
    ms,
    { timeout, polling: 50 },
  );
}

export interface LoadResult extends Animation {
  name: string;
  fcpMs: number | null;
  loadMs: number | null;
  simMsPerWallS: number;
  /** With --loads N > 1: each load's busy %, in the order measured. */
  busyPcts?: number[];
}

/**
 * One page's loads as one result: the median of what varies with the machine's load (busy %,
 * CPU time, paint times, pace), the worst of what a viewer would see (frame quantiles, the
 * longest task) and the long tasks of all loads together.
 */
export function combineLoads(loads: LoadResult[]): LoadResult {
  if (loads.length === 1) return loads[0];
  const med = (f: (r: LoadResult) => number | null): number | null => {
    const xs = loads.map(f).filter((x): x is number => x !== null);
    if (xs.length === 0) return null;
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : Math.round(((s[m - 1] + s[m]) / 2) * 10) / 10;
  };
  const worst = (f: (r: LoadResult) => number): number => Math.max(...loads.map(f));
  return {
    name: loads[0].name,
    busyPct: med((r) => r.busyPct)!,
    cpuPct: med((r) => r.cpuPct),
    frames: Math.min(...loads.map((r) => r.frames)),
    p50: worst((r) => r.p50),
    p95: worst((r) => r.p95),
    p99: worst((r) => r.p99),
    longTasks: loads.reduce((n, r) => n + r.longTasks, 0),
    longestTaskMs: worst((r) => r.longestTaskMs),
    fcpMs: med((r) => r.fcpMs),
    loadMs: med((r) => r.loadMs),
    simMsPerWallS: med((r) => r.simMsPerWallS)!,
    busyPcts: loads.map((r) => r.busyPct),
  };
}

export async function animationCase(name: string, url: string, ready: (page: Page) => Promise<void>, seconds: number): Promise<LoadResult> {
  const browser = await freshBrowser();
  try {
    const { page, cdp } = await newPage(browser);
    await page.goto(url);
    const paint = await paintTimes(page);
    await ready(page);
    const now = (): Promise<number> => page.evaluate(() => (window as unknown as Hooks).capPlayground?.run()?.now ?? 0);
    const sim0 = await now();
    const wall0 = Date.now();
    const anim = await measureAnimation(page, cdp, seconds);
    const simMsPerWallS = ((await now()) - sim0) / ((Date.now() - wall0) / 1000);
    return { name, ...paint, ...anim, simMsPerWallS: Math.round(simMsPerWallS) };
  } finally {
    await browser.close();
  }
}
