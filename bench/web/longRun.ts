/**
 * bench:web's long run: what a run costs late against early — the simulated-time rate and the heap
 * per simulated minute at speed max, and speed 1 late in the run beside a fresh load's — and what
 * exporting it costs the page at the end.
 */
import { statSync } from 'node:fs';
import type { CDPSession, Page } from '@playwright/test';
import { runPast } from '../runAt';
import { variantUrl, waitRunning, type Hooks } from './app';
import { freshBrowser, measureAnimation, newPage, pageHeapMb, workerHeapMb, type Animation } from './browser';

export interface LongResult {
  workers: number;
  /** Simulated seconds per wall second over the first 30 simulated seconds, and from minute 4 on. */
  earlyRate: number;
  lateRate: number;
  lateOverEarly: number;
  /**
   * The page's heap (which holds the run's history and its index), the engine's worker's (the
   * protocols' state) and the page's other workers' but the training ones (hashing, packing,
   * painting), each V8's objects plus array buffers' backing stores, and their sum `mb`.
   */
  heapMbAt: Array<{ simS: number; mb: number; pageMb: number; engineMb: number; othersMb: number; pageBuffersMb: number; engineBuffersMb: number }>;
  heapMbPerSimMin: number;
  /**
   * With `minutes` > 5: the heap read again late in the run (at `late.atMin`), and the growth per
   * simulated minute from the last reading of the first 5 minutes to it — over ~20 simulated minutes,
   * where the first 5 minutes' readings swing by ±2 MB with whichever batches and chunks are unpacked
   * when one is taken (a reading just before the first packing flattens the fit above).
   */
  heapLate?: { simS: number; mb: number; pageMb: number; engineMb: number; othersMb: number; mbPerSimMin: number };
  /** Speed 1 late in the run (after `atMin` simulated minutes at max). */
  late?: { atMin: number; simSPerWallS: number } & Animation;
  /** The same run at speed 1 from its start, measured from `atS` simulated seconds: what `late` compares with. */
  early?: { atS: number; simSPerWallS: number } & Animation;
  /** "Export run" at the end, the run still going: click to download, and the main thread's long tasks meanwhile. */
  export?: ExportSample;
}

export interface ExportSample {
  simS: number;
  wallMs: number;
  zipMb: number;
  longTasks: number;
  longestTaskMs: number;
  longTaskTotalMs: number;
}

/** Share → Export run on the page as it is, timed from the click to the download. */
async function exportSample(page: Page): Promise<ExportSample> {
  await page.evaluate(() => {
    const w = window as unknown as { benchLongTasks: number[] };
    w.benchLongTasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.benchLongTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  await page.getByTestId('share').click();
  const simS = await page.evaluate(() => (window as unknown as Hooks).capPlayground?.run()?.now ?? 0);
  const t0 = Date.now();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), page.getByTestId('export-run').click()]);
  const wallMs = Date.now() - t0;
  const zipBytes = statSync(await download.path()).size;
  const longs = await page.evaluate(() => (window as unknown as { benchLongTasks: number[] }).benchLongTasks);
  return {
    simS: Math.round(simS / 1000),
    wallMs,
    zipMb: Math.round((zipBytes / 1e6) * 10) / 10,
    longTasks: longs.length,
    longestTaskMs: Math.round(Math.max(0, ...longs)),
    longTaskTotalMs: Math.round(longs.reduce((a, b) => a + b, 0)),
  };
}

/**
 * The long run's page at speed 1 early on, in a fresh browser: the figures its late sample must
 * match for the cost to be independent of the run's length. From 40 s: the lesson's crash,
 * partition and restart (3–14 s) are over, as they are late in the run, and the charts' and the
 * timeline's 30-s window is full (timelineModel.ts), as it is late in the run.
 */
async function earlySample(url: string, atS: number, windowS: number): Promise<NonNullable<LongResult['early']>> {
  const browser = await freshBrowser();
  try {
    const { page, cdp } = await newPage(browser);
    await page.goto(url.replace('speed=max', 'speed=1'));
    await waitRunning(page, atS * 1000, (atS + 60) * 1000);
    return { atS, ...(await speed1Sample(page, cdp, windowS)) };
  } finally {
    await browser.close();
  }
}

/** The animation figures over the next window, and how many simulated seconds each wall second ran. */
async function speed1Sample(page: Page, cdp: CDPSession, windowS: number): Promise<{ simSPerWallS: number } & Animation> {
  const now = (): Promise<number> => page.evaluate(() => (window as unknown as Hooks).capPlayground?.run()?.now ?? 0);
  const sim0 = await now();
  const w0 = Date.now();
  const anim = await measureAnimation(page, cdp, windowS);
  return { simSPerWallS: Math.round((((await now()) - sim0) / (Date.now() - w0)) * 100) / 100, ...anim };
}

/**
 * raft-ps with 8 workers at speed max: the rate and heap over the first 5 simulated minutes; with
 * `minutes` > 5, speed 1 at `minutes` − 2 beside a fresh load's speed 1 at 40 s.
 */
export async function longRun(minutes: number, windowS: number, log: (s: string) => void): Promise<LongResult> {
  const workers = 8;
  const url = await variantUrl(
    'raft-ps-majority',
    (sc) => {
      sc.id = 'raft-ps-long';
      sc.cluster = { ...(sc.cluster as object), workers };
      sc.durationMs = Math.max(minutes, 6) * 60_000 + 60_000;
      sc.expect = [];
    },
    'autoplay=1&speed=max&backend=wasm',
  );
  const early = minutes > 5 ? await earlySample(url, 40, windowS) : undefined;
  const browser = await freshBrowser();
  try {
    const { page, cdp } = await newPage(browser);
    await page.goto(url);
    await waitRunning(page, 1);
    const t0 = Date.now();
    /** Wall time the run spent paused for the heap samples: left out of the rates. */
    let pausedMs = 0;
    const pts: Array<{ wall: number; sim: number }> = [];
    const heap: LongResult['heapMbAt'] = [];
    const sample = async (): Promise<number> => {
      const sim = await page.evaluate(() => (window as unknown as Hooks).capPlayground?.run()?.now ?? 0);
      pts.push({ wall: (Date.now() - t0 - pausedMs) / 1000, sim: sim / 1000 });
      return sim / 1000;
    };
    const r1 = (x: number): number => Math.round(x * 10) / 10;
    /**
     * What the run holds, not the garbage of its last answers: at max the page takes in MBs of rows
     * a second, and a reading while it runs varied by 2× (a collection frees an array buffer's
     * memory after it returns). Paused, the second reading after a collection is steady.
     */
    const readHeap = async (): Promise<LongResult['heapMbAt'][number]> => {
      const p0 = Date.now();
      await page.getByTestId('play').click();
      await page.waitForTimeout(400);
      const at = Math.round(await sample());
      pts.pop(); // the paused sample
      await pageHeapMb(page, cdp);
      await page.waitForTimeout(200);
      const p = await pageHeapMb(page, cdp);
      const e = await workerHeapMb(browser, /engineWorker/);
      const o = await workerHeapMb(browser, /hashWorker|packWorker|paintWorker/);
      const pageMb = p.js + p.buffers;
      const engineMb = e.js + e.buffers;
      const othersMb = o.js + o.buffers;
      await page.getByTestId('play').click();
      pausedMs += Date.now() - p0;
      return { simS: at, mb: r1(pageMb + engineMb + othersMb), pageMb: r1(pageMb), engineMb: r1(engineMb), othersMb: r1(othersMb), pageBuffersMb: r1(p.buffers), engineBuffersMb: r1(e.buffers) };
    };
    let nextHeap = 0;
    for (;;) {
      const simS = await sample();
      if (simS >= nextHeap) {
        heap.push(await readHeap());
        nextHeap += 30;
      }
      if (simS >= 300) break;
      await page.waitForTimeout(500);
    }
    const wallAt = (s: number): number => {
      const i = pts.findIndex((p) => p.sim >= s);
      const a = pts[Math.max(0, i - 1)];
      const b = pts[i];
      return a.sim === b.sim ? b.wall : a.wall + ((s - a.sim) / (b.sim - a.sim)) * (b.wall - a.wall);
    };
    const earlyRate = 30 / wallAt(30);
    const lateRate = 60 / (wallAt(300) - wallAt(240));
    // Least squares over the samples from the first simulated minute on (start-up excluded).
    const fit = heap.filter((h) => h.simS >= 60);
    const mx = fit.reduce((a, h) => a + h.simS, 0) / fit.length;
    const my = fit.reduce((a, h) => a + h.mb, 0) / fit.length;
    const slope = fit.reduce((a, h) => a + (h.simS - mx) * (h.mb - my), 0) / fit.reduce((a, h) => a + (h.simS - mx) ** 2, 0);
    const r2 = (x: number): number => Math.round(x * 100) / 100;
    const out: LongResult = { workers, earlyRate: r2(earlyRate), lateRate: r2(lateRate), lateOverEarly: r2(lateRate / earlyRate), heapMbAt: heap, heapMbPerSimMin: r2(slope * 60), ...(early ? { early } : {}) };
    if (minutes > 5) {
      const atMin = minutes - 2;
      log(`  long run: on to ${atMin} simulated minutes at max …`);
      await runPast(page, atMin * 60_000, false);
      const h = await readHeap();
      const from = heap[heap.length - 1];
      out.heapLate = { simS: h.simS, mb: h.mb, pageMb: h.pageMb, engineMb: h.engineMb, othersMb: h.othersMb, mbPerSimMin: r2(((h.mb - from.mb) / (h.simS - from.simS)) * 60) };
      await page.getByTestId('speed').selectOption('1');
      await page.waitForTimeout(2000);
      out.late = { atMin, ...(await speed1Sample(page, cdp, windowS)) };
    }
    out.export = await exportSample(page);
    return out;
  } finally {
    await browser.close();
  }
}
