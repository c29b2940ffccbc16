/**
 * bench:web's paint part: first contentful paint and the load event over fresh loads, the pages
 * taking turns; and RaftScope, served as it is, measured as one of the animation pages.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { animationCase, type LoadResult } from './app';
import { serveDist } from '../serveDist';
import { freshBrowser, newPage, paintTimes, quantile } from './browser';
import { gz, kib } from './sizes';

export interface PaintResult {
  name: string;
  fcpMs: number[];
  loadMs: number[];
  fcpMedianMs: number;
  loadMedianMs: number;
  /** Loads whose first contentful paint came before their load event. */
  fcpBeforeLoad: number;
}

async function paintOnce(url: string): Promise<{ fcpMs: number; loadMs: number }> {
  const browser = await freshBrowser();
  try {
    const { page } = await newPage(browser);
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    const t = await paintTimes(page);
    return { fcpMs: t.fcpMs ?? NaN, loadMs: t.loadMs ?? NaN };
  } finally {
    await browser.close();
  }
}

/** Each page's loads alternate with the others', so both see the same machine. */
export async function paintLoads(pages: Array<[string, string]>, n: number): Promise<PaintResult[]> {
  const all = pages.map(([name]) => ({ name, fcpMs: [] as number[], loadMs: [] as number[] }));
  for (let i = 0; i < n; i++) {
    for (const [k, [, url]] of pages.entries()) {
      const t = await paintOnce(url);
      all[k].fcpMs.push(t.fcpMs);
      all[k].loadMs.push(t.loadMs);
    }
  }
  return all.map((r) => ({
    ...r,
    fcpMedianMs: quantile(r.fcpMs, 0.5),
    loadMedianMs: quantile(r.loadMs, 0.5),
    fcpBeforeLoad: r.fcpMs.filter((f, i) => f < r.loadMs[i]).length,
  }));
}

export const RAFTSCOPE_PORT = 4194;

/** RaftScope (a checkout at `dir`) as one animation load, and its scripts' gzip size. */
export async function raftScope(dir: string, seconds: number): Promise<LoadResult & { jsKiB: number }> {
  const srv = await serveDist(resolve(dir), RAFTSCOPE_PORT);
  try {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const js = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]).reduce((a, f) => a + gz(readFileSync(join(dir, f))), 0);
    // RaftScope animates from the moment it loads.
    const r = await animationCase('RaftScope', `http://127.0.0.1:${RAFTSCOPE_PORT}/`, (page) => page.waitForTimeout(1000), seconds);
    return { ...r, jsKiB: kib(js) };
  } finally {
    srv.close();
  }
}
