/**
 * bench:web's browser side: waiting for a server, a fresh headless Chromium per load, and what one
 * load measures (paint times, frames, long tasks, busy % and CPU time).
 */
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';

export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no server at ${url}`);
}

const found = await findChromium();
if (!found) throw new Error('no Chromium (see npm test)');

export async function freshBrowser(): Promise<Browser> {
  // expose-gc: the long run reads the heap after a forced collection, not whatever garbage is left.
  return chromium.launch({ executablePath: found!.path, args: [...chromiumArgs, '--js-flags=--expose-gc'] });
}

export async function newPage(browser: Browser): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  // tsx keeps function names with a `__name` helper that page.evaluate's functions carry along.
  await page.addInitScript('window.__name = (f) => f');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, cdp };
}

/**
 * What a heap holds (MB, after a collection): V8's objects and the array buffers' backing stores,
 * which live outside V8's heap (`usedSize` and Performance's JSHeapUsedSize leave them out) and
 * are where typed columns (a run's history rows, its message spans, parameter vectors) are.
 */
export interface HeapMb {
  js: number;
  buffers: number;
}

type HeapUsage = { usedSize?: number; backingStorageSize?: number };

function heapMb(u: HeapUsage): HeapMb {
  return { js: (u.usedSize ?? 0) / 1e6, buffers: (u.backingStorageSize ?? 0) / 1e6 };
}

/** The page's heap, after a collection (the page must have been launched by `freshBrowser`). */
export async function pageHeapMb(page: Page, cdp: CDPSession): Promise<HeapMb> {
  await page.evaluate(() => (window as unknown as { gc?: () => void }).gc?.());
  return heapMb((await cdp.send('Runtime.getHeapUsage')) as HeapUsage);
}

/**
 * The heap (after a collection) of the page's workers whose script URL matches `url`: the
 * engine's worker holds the run's protocol state, and a worker's heap is not the page's. Through
 * the browser's CDP session (a worker is a target of its own).
 */
export async function workerHeapMb(browser: Browser, url: RegExp): Promise<HeapMb> {
  const bc = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await bc.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
    const sum: HeapMb = { js: 0, buffers: 0 };
    for (const t of targetInfos.filter((x) => x.type === 'worker' && url.test(x.url))) {
      const { sessionId } = (await bc.send('Target.attachToTarget', { targetId: t.targetId, flatten: false })) as { sessionId: string };
      let next = 0;
      const call = (method: string): Promise<HeapUsage> =>
        new Promise((resolve) => {
          const id = ++next;
          const on = (e: { sessionId: string; message: string }): void => {
            const m = JSON.parse(e.message) as { id?: number; result?: HeapUsage };
            if (e.sessionId !== sessionId || m.id !== id) return;
            bc.off('Target.receivedMessageFromTarget', on);
            resolve(m.result ?? {});
          };
          bc.on('Target.receivedMessageFromTarget', on);
          void bc.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
        });
      await call('HeapProfiler.collectGarbage');
      const h = heapMb(await call('Runtime.getHeapUsage'));
      sum.js += h.js;
      sum.buffers += h.buffers;
      await bc.send('Target.detachFromTarget', { sessionId });
    }
    return sum;
  } finally {
    await bc.detach();
  }
}

export async function metric(cdp: CDPSession, name: string): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return metrics.find((m) => m.name === name)?.value ?? NaN;
}

/** FCP and the load event of the page's navigation, in ms since navigation start. */
export async function paintTimes(page: Page): Promise<{ fcpMs: number | null; loadMs: number | null }> {
  await page.waitForFunction(() => performance.getEntriesByType('navigation').some((n) => (n as PerformanceNavigationTiming).loadEventEnd > 0));
  return page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return { fcpMs: fcp ? Math.round(fcp.startTime) : null, loadMs: nav ? Math.round(nav.loadEventStart) : null };
  });
}

export interface Animation {
  busyPct: number;
  /** The renderer's main thread CPU time over the window (from /proc): what busy % would be on an idle machine. */
  cpuPct: number | null;
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  longTasks: number;
  longestTaskMs: number;
}

export const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/**
 * CPU seconds of each renderer's main thread (its thread id is the process id), read from /proc:
 * unlike CDP's TaskDuration (wall time inside tasks) it does not grow when other processes take
 * the CPU, so it tells a change in the page from a busier machine. Null where /proc is missing.
 */
async function rendererCpu(page: Page): Promise<Map<number, number> | null> {
  const browserCdp = await page.context().browser()!.newBrowserCDPSession();
  try {
    const { processInfo } = (await browserCdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
    const out = new Map<number, number>();
    const tick = 100; // USER_HZ on Linux
    for (const p of processInfo) {
      if (p.type !== 'renderer') continue;
      try {
        const stat = readFileSync(`/proc/${p.id}/task/${p.id}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(p.id, (Number(f[11]) + Number(f[12])) / tick);
      } catch {
        // gone, or no /proc
      }
    }
    return out.size > 0 ? out : null;
  } catch {
    return null;
  } finally {
    await browserCdp.detach();
  }
}

/** Frames, long tasks and busy % over the next `seconds`. */
export async function measureAnimation(page: Page, cdp: CDPSession, seconds: number): Promise<Animation> {
  await page.evaluate(() => {
    const w = window as unknown as { __bench: { frames: number[]; long: number[]; stop: boolean } };
    w.__bench = { frames: [], long: [], stop: false };
    const tick = (t: number): void => {
      if (w.__bench.stop) return;
      w.__bench.frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!w.__bench.stop) w.__bench.long.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  const cpu0 = await rendererCpu(page);
  const task0 = await metric(cdp, 'TaskDuration');
  const ts0 = await metric(cdp, 'Timestamp');
  await page.waitForTimeout(seconds * 1000);
  const task1 = await metric(cdp, 'TaskDuration');
  const ts1 = await metric(cdp, 'Timestamp');
  const cpu1 = await rendererCpu(page);
  // The page's renderer is the one whose main thread worked most (a spare renderer idles).
  const cpuS = cpu0 && cpu1 ? Math.max(...[...cpu1].map(([pid, s]) => s - (cpu0.get(pid) ?? s))) : null;
  const { frames, long } = await page.evaluate(() => {
    const w = window as unknown as { __bench: { frames: number[]; long: number[]; stop: boolean } };
    w.__bench.stop = true;
    return w.__bench;
  });
  const dts = frames.slice(1).map((t, i) => t - frames[i]);
  const r1 = (x: number): number => Math.round(x * 10) / 10;
  return {
    busyPct: r1(((task1 - task0) / (ts1 - ts0)) * 100),
    cpuPct: cpuS === null ? null : r1((cpuS / (ts1 - ts0)) * 100),
    frames: dts.length,
    p50: r1(quantile(dts, 0.5)),
    p95: r1(quantile(dts, 0.95)),
    p99: r1(quantile(dts, 0.99)),
    longTasks: long.length,
    longestTaskMs: Math.round(Math.max(0, ...long)),
  };
}
