/**
 * `npm run bench:web`: the app as a classroom laptop sees it (issue 9), in headless Chromium at
 * 1280×720, a fresh browser per load:
 *
 *  - animation: 10 s of requestAnimationFrame intervals and long tasks (PerformanceObserver), and
 *    main-thread busy % from CDP `Performance.getMetrics` TaskDuration, on async-partition and
 *    raft-ps-majority at speed 1 (4 workers each) and a 16-worker raft-ps run; first contentful
 *    paint and the load event of each load; with `--loads N`, each page N times, the pages taking
 *    turns, and the table gives the median busy % and CPU time and the worst frames of the N (a
 *    single load's busy % varies by ±5 points on this 2-core machine);
 *  - input at speed max: a click on a node while the run goes flat out, timed from the input
 *    event to the first animation frame after the page reflects it; and how fast the run finishes
 *    there against the same run with no UI (the worker pool and engine alone, bench.html);
 *  - a long run (raft-ps, 8 workers, at max): simulated-time rate after 4 simulated minutes against
 *    the first 30 s, main-thread heap per simulated minute (after a forced GC), then speed 1 late
 *    in the run (real time kept? frames?);
 *  - paint: first contentful paint and the load event over several fresh loads of async-partition
 *    (`--paint-loads`, 7), interleaved with RaftScope's: one load's figures are mostly the browser's
 *    start-up (±150 ms between identical loads here), so the medians are what compares;
 *  - main-thread and worker JavaScript, gzip, from the build (what the page and the workers loaded),
 *    on async-partition, or on each scenario of `--sizes-scenarios a,b,…` (the page loads only the
 *    protocol code its scenario runs, so the figure depends on it).
 *
 * With RAFTSCOPE_DIR pointing at a RaftScope checkout, RaftScope is measured in the same run.
 * Prints a readable table on stderr and, last, one JSON line on stdout. Never a timed assertion.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { chromiumArgs, findChromium } from '../scripts/chromium.mjs';
import { encodeScenarioHashCompressed } from '../src/scenario/url';
import { flag, has } from './args';
import { runPast } from './runAt';

const root = fileURLToPath(new URL('../', import.meta.url));
const log = (s: string): void => void process.stderr.write(s + '\n');
/** Seconds of animation measured per load. */
const WINDOW_S = Number(flag('window') ?? 10);
/** The long run: simulated minutes at max before the late speed-1 sample (0: skip that sample). */
const LONG_MINUTES = Number(flag('long-minutes') ?? 30);
const only = flag('only')?.split(',');
/** Another build to measure (e.g. an older commit's, for a before/after in the same session); implies --no-build. */
const distDir = resolve(root, flag('dist') ?? 'dist');
const want = (part: string): boolean => !only || only.includes(part);
/** The built-ins the sizes are measured on (the first one is the table's figure). */
const sizeScenarios = flag('sizes-scenarios')?.split(',') ?? ['async-partition'];
/** Fresh loads per page for the paint figures. */
const PAINT_LOADS = Number(flag('paint-loads') ?? 7);
/** Fresh loads per page for the animation figures. */
const ANIMATION_LOADS = Math.max(1, Number(flag('loads') ?? 1));

// ---------------------------------------------------------------------------------------------- build

if (!has('no-build') && !flag('dist')) {
  log('bench:web: building dist/ …');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error('the build failed (npx vite build)');
}

// ---------------------------------------------------------------------------------------------- servers

function startPreview(port: number): ChildProcess {
  return spawn('node', ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', distDir], { cwd: root, stdio: 'ignore' });
}

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.woff': 'font/woff', '.ttf': 'font/ttf', '.png': 'image/png' };

/** A plain static server for RaftScope (no build step: it is a 2014 jQuery page). */
function staticServer(dir: string, port: number): Promise<Server> {
  const srv = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]));
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((r) => srv.listen(port, '127.0.0.1', () => r(srv)));
}

async function waitFor(url: string): Promise<void> {
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

// ---------------------------------------------------------------------------------------------- browser

const found = await findChromium();
if (!found) throw new Error('no Chromium (see npm test)');

async function freshBrowser(): Promise<Browser> {
  // expose-gc: the long run reads the heap after a forced collection, not whatever garbage is left.
  return chromium.launch({ executablePath: found!.path, args: [...chromiumArgs, '--js-flags=--expose-gc'] });
}

async function newPage(browser: Browser): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  // tsx keeps function names with a `__name` helper that page.evaluate's functions carry along.
  await page.addInitScript('window.__name = (f) => f');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, cdp };
}

async function metric(cdp: CDPSession, name: string): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return metrics.find((m) => m.name === name)?.value ?? NaN;
}

/** FCP and the load event of the page's navigation, in ms since navigation start. */
async function paintTimes(page: Page): Promise<{ fcpMs: number | null; loadMs: number | null }> {
  await page.waitForFunction(() => performance.getEntriesByType('navigation').some((n) => (n as PerformanceNavigationTiming).loadEventEnd > 0));
  return page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return { fcpMs: fcp ? Math.round(fcp.startTime) : null, loadMs: nav ? Math.round(nav.loadEventStart) : null };
  });
}

interface Animation {
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

const quantile = (xs: number[], q: number): number => {
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
async function measureAnimation(page: Page, cdp: CDPSession, seconds: number): Promise<Animation> {
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

// ---------------------------------------------------------------------------------------------- the app

const PORT = 4193;
const base = `http://127.0.0.1:${PORT}/`;

function builtinJson(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(root, 'public/scenarios', `${id}.json`), 'utf8')) as Record<string, unknown>;
}

/** A built-in with a bigger cluster or a longer duration, as a `#scenario=` link. */
async function variantUrl(id: string, patch: (sc: Record<string, unknown>) => void, query: string): Promise<string> {
  const sc = builtinJson(id);
  patch(sc);
  return `${base}?${query}#scenario=${await encodeScenarioHashCompressed(JSON.stringify(sc))}`;
}

const raft16 = (sc: Record<string, unknown>): void => {
  sc.id = 'raft-ps-16';
  sc.cluster = { ...(sc.cluster as object), workers: 16 };
  // Without its timeline (the partition names w0–w3 only) and expectations: the steady state, 16 lanes.
  sc.timeline = [];
  sc.expect = [];
};

type Hooks = { capPlayground?: { run(): { scenario: string; now: number; done: boolean } | null } };

/** Waits until the page's run is going and has passed `ms` of simulated time. */
async function waitRunning(page: Page, ms: number, timeout = 60_000): Promise<void> {
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

interface LoadResult extends Animation {
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
function combineLoads(loads: LoadResult[]): LoadResult {
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

async function animationCase(name: string, url: string, ready: (page: Page) => Promise<void>): Promise<LoadResult> {
  const browser = await freshBrowser();
  try {
    const { page, cdp } = await newPage(browser);
    await page.goto(url);
    const paint = await paintTimes(page);
    await ready(page);
    const now = (): Promise<number> => page.evaluate(() => (window as unknown as Hooks).capPlayground?.run()?.now ?? 0);
    const sim0 = await now();
    const wall0 = Date.now();
    const anim = await measureAnimation(page, cdp, WINDOW_S);
    const simMsPerWallS = ((await now()) - sim0) / ((Date.now() - wall0) / 1000);
    return { name, ...paint, ...anim, simMsPerWallS: Math.round(simMsPerWallS) };
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------- input at max

interface InputResult {
  name: string;
  clicks: number;
  latencyP50Ms: number;
  latencyMaxMs: number;
  /** Every click's latency in order, so a slow first click (a chunk loaded on demand) shows. */
  latenciesMs: number[];
  appFinishS: number;
  headlessFinishS: number;
  /** Headless wall time over the app's: 1 = the UI costs the run nothing. */
  paceVsHeadless: number;
}

async function inputAtMax(name: string, scenarioJson: Record<string, unknown>): Promise<InputResult> {
  const json = JSON.stringify(scenarioJson);
  const url = `${base}?autoplay=1&speed=max&backend=wasm#scenario=${await encodeScenarioHashCompressed(json)}`;
  let appFinishS: number;
  const latencies: number[] = [];
  {
    const browser = await freshBrowser();
    try {
      const { page } = await newPage(browser);
      await page.goto(url);
      await waitRunning(page, 1);
      const t0 = Date.now();
      await page.evaluate(() => {
        const w = window as unknown as { __input: { start: number; target: string; lat: number[] } };
        w.__input = { start: 0, target: '', lat: [] };
        window.addEventListener('pointerdown', (e) => (w.__input.start = e.timeStamp), { capture: true });
        // The clicked node gets the `selected` class; the first frame after that shows it.
        new MutationObserver(() => {
          const { start, target } = w.__input;
          if (start === 0 || !document.querySelector(`[data-testid="${target}"]`)?.classList.contains('selected')) return;
          w.__input.start = 0;
          requestAnimationFrame(() => w.__input.lat.push(performance.now() - start));
        }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] });
      });
      const done = (): Promise<boolean> => page.evaluate(() => !!(window as unknown as Hooks).capPlayground?.run()?.done);
      for (let i = 0; !(await done()); i++) {
        // The glyphs of two servers, where a hand aims (a plain click on the node's box lands
        // there too: its box is centred on the glyph).
        const target = `node-s${i % 2}`;
        await page.evaluate((t) => ((window as unknown as { __input: { target: string } }).__input.target = t), target);
        const box = await page.locator(`[data-testid="${target}"] path.cv-shape`).boundingBox();
        if (box) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        await page.waitForTimeout(400);
      }
      appFinishS = (Date.now() - t0) / 1000;
      latencies.push(...(await page.evaluate(() => (window as unknown as { __input: { lat: number[] } }).__input.lat)));
    } finally {
      await browser.close();
    }
  }
  // The same run with no UI: the engine and the same worker pool in bench.html.
  let headlessFinishS: number;
  {
    const browser = await freshBrowser();
    try {
      const { page } = await newPage(browser);
      await page.goto(`${base}bench.html`);
      await page.waitForSelector('body[data-ready="true"]');
      const ms = await page.evaluate((j) => (window as unknown as { runHeadless(x: { json: string; backend: string }): Promise<number> }).runHeadless({ json: j, backend: 'wasm' }), json);
      headlessFinishS = ms / 1000;
    } finally {
      await browser.close();
    }
  }
  const r2 = (x: number): number => Math.round(x * 100) / 100;
  return {
    name,
    clicks: latencies.length,
    latencyP50Ms: Math.round(quantile(latencies, 0.5)),
    latencyMaxMs: Math.round(Math.max(...latencies)),
    latenciesMs: latencies.map(Math.round),
    appFinishS: r2(appFinishS),
    headlessFinishS: r2(headlessFinishS),
    paceVsHeadless: r2(headlessFinishS / appFinishS),
  };
}

// ---------------------------------------------------------------------------------------------- long run

interface LongResult {
  workers: number;
  /** Simulated seconds per wall second over the first 30 simulated seconds, and from minute 4 on. */
  earlyRate: number;
  lateRate: number;
  lateOverEarly: number;
  heapMbAt: Array<{ simS: number; mb: number }>;
  heapMbPerSimMin: number;
  /** Speed 1 late in the run (after `atMin` simulated minutes at max). */
  late?: { atMin: number; simSPerWallS: number } & Animation;
  /** The same run at speed 1 from its start, measured from `atS` simulated seconds: what `late` compares with. */
  early?: { atS: number; simSPerWallS: number } & Animation;
}

/**
 * The long run's page at speed 1 early on, in a fresh browser: the figures its late sample must
 * match for the cost to be independent of the run's length. From 40 s: the lesson's crash,
 * partition and restart (3–14 s) are over, as they are late in the run, and the charts' and the
 * timeline's 30-s window is full (timelineModel.ts), as it is late in the run.
 */
async function earlySample(url: string, atS: number): Promise<NonNullable<LongResult['early']>> {
  const browser = await freshBrowser();
  try {
    const { page, cdp } = await newPage(browser);
    await page.goto(url.replace('speed=max', 'speed=1'));
    await waitRunning(page, atS * 1000, (atS + 60) * 1000);
    return { atS, ...(await speed1Sample(page, cdp)) };
  } finally {
    await browser.close();
  }
}

/** The animation figures over the next window, and how many simulated seconds each wall second ran. */
async function speed1Sample(page: Page, cdp: CDPSession): Promise<{ simSPerWallS: number } & Animation> {
  const now = (): Promise<number> => page.evaluate(() => (window as unknown as Hooks).capPlayground?.run()?.now ?? 0);
  const sim0 = await now();
  const w0 = Date.now();
  const anim = await measureAnimation(page, cdp, WINDOW_S);
  return { simSPerWallS: Math.round((((await now()) - sim0) / (Date.now() - w0)) * 100) / 100, ...anim };
}

async function longRun(): Promise<LongResult> {
  const workers = 8;
  const url = await variantUrl(
    'raft-ps-majority',
    (sc) => {
      sc.id = 'raft-ps-long';
      sc.cluster = { ...(sc.cluster as object), workers };
      sc.durationMs = Math.max(LONG_MINUTES, 6) * 60_000 + 60_000;
      sc.expect = [];
    },
    'autoplay=1&speed=max&backend=wasm',
  );
  const early = LONG_MINUTES > 5 ? await earlySample(url, 40) : undefined;
  const browser = await freshBrowser();
  try {
    const { page, cdp } = await newPage(browser);
    await page.goto(url);
    await waitRunning(page, 1);
    const t0 = Date.now();
    const pts: Array<{ wall: number; sim: number }> = [];
    const heap: Array<{ simS: number; mb: number }> = [];
    const sample = async (): Promise<number> => {
      const sim = await page.evaluate(() => (window as unknown as Hooks).capPlayground?.run()?.now ?? 0);
      pts.push({ wall: (Date.now() - t0) / 1000, sim: sim / 1000 });
      return sim / 1000;
    };
    let nextHeap = 0;
    for (;;) {
      const simS = await sample();
      if (simS >= nextHeap) {
        await page.evaluate(() => (window as unknown as { gc?: () => void }).gc?.());
        const used = await metric(cdp, 'JSHeapUsedSize');
        heap.push({ simS: Math.round(await sample()), mb: Math.round((used / 1e6) * 10) / 10 });
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
    if (LONG_MINUTES > 5) {
      const atMin = LONG_MINUTES - 2;
      log(`  long run: on to ${atMin} simulated minutes at max …`);
      await runPast(page, atMin * 60_000, true);
      out.late = { atMin, ...(await speed1Sample(page, cdp)) };
    }
    return out;
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------- sizes

const gz = (buf: Buffer): number => gzipSync(buf, { level: 9 }).length;
const kib = (n: number): number => Math.round((n / 1024) * 10) / 10;

/** JS files reachable from `entry` by static imports in the build (what must load before it runs). */
function staticClosure(dir: string, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (f: string): void => {
    if (seen.has(f) || !existsSync(join(dir, f))) return;
    seen.add(f);
    const src = readFileSync(join(dir, f), 'utf8');
    for (const m of src.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) visit(m[1]);
  };
  visit(entry);
  return [...seen];
}

/**
 * What runs before the app's first render: the entry, the app it starts once the static frame has
 * painted (src/boot.ts's dynamic import of main-*.js), and their static imports. The entry's other
 * dynamic imports (a 中文 page's catalog) load only on the pages that need them: resource timing
 * counts them there.
 */
function appClosure(dir: string, entry: string): string[] {
  const started = [...readFileSync(join(dir, entry), 'utf8').matchAll(/\bimport\(\s*[`"']\.\/(main-[^`"']+\.js)[`"']\s*\)/g)].map((m) => m[1]);
  return [...new Set([entry, ...started].flatMap((f) => staticClosure(dir, f)))];
}

interface Sizes {
  /** The entry, the app it starts and their static imports: what runs before the first render. */
  initialKiB: number;
  /** Every script the page itself (main thread) had loaded once the run was going. */
  mainThreadKiB: number;
  mainThreadFiles: Record<string, number>;
  /** The built-in the page ran. */
  scenario: string;
  /** The training worker's scripts as loaded with backend=wasm. */
  workerKiB: number;
  workerFiles: Record<string, number>;
  wasmKiB: number;
}

async function sizes(scenario: string): Promise<Sizes> {
  const dir = join(distDir, 'assets');
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\.\/assets\/([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error(`${distDir}/index.html: no module script`);
  const initial = appClosure(dir, entry).reduce((a, f) => a + gz(readFileSync(join(dir, f))), 0);
  const browser = await freshBrowser();
  try {
    const { page } = await newPage(browser);
    const workers: Array<import('@playwright/test').Worker> = [];
    page.on('worker', (w) => workers.push(w));
    await page.goto(`${base}?scenario=${encodeURIComponent(scenario)}&autoplay=1&speed=1&backend=wasm`);
    await waitRunning(page, 1000);
    const file = (url: string): string | undefined => /\/assets\/([^/?#]+)$/.exec(url)?.[1];
    const entries = (): string[] => performance.getEntriesByType('resource').map((e) => e.name);
    // The page's resource timing also lists the worker's script and its static imports.
    const pageFiles = (await page.evaluate(entries)).map(file).filter((f): f is string => !!f);
    const workerFiles = new Set<string>();
    for (const w of workers) {
      const entry = file(w.url());
      if (entry) for (const f of staticClosure(dir, entry)) workerFiles.add(f);
      for (const u of await w.evaluate(entries)) if (file(u)) workerFiles.add(file(u)!);
    }
    const initialFiles = appClosure(dir, entry);
    const mainFiles = new Set([...initialFiles, ...pageFiles.filter((f) => !workerFiles.has(f))]);
    const sized = (files: Iterable<string>): Record<string, number> => Object.fromEntries([...files].filter((f) => f.endsWith('.js')).map((f) => [f, kib(gz(readFileSync(join(dir, f))))]));
    const main = sized(mainFiles);
    const worker = sized(workerFiles);
    const wasm = [...workerFiles].filter((f) => f.endsWith('.wasm')).reduce((a, f) => a + gz(readFileSync(join(dir, f))), 0);
    const sum = (o: Record<string, number>): number => Math.round(Object.values(o).reduce((a, v) => a + v, 0) * 10) / 10;
    return { scenario, initialKiB: kib(initial), mainThreadKiB: sum(main), mainThreadFiles: main, workerKiB: sum(worker), workerFiles: worker, wasmKiB: kib(wasm) };
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------- paint

interface PaintResult {
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
async function paintLoads(pages: Array<[string, string]>, n: number): Promise<PaintResult[]> {
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

// ---------------------------------------------------------------------------------------------- RaftScope

const RAFTSCOPE_PORT = 4194;

async function raftScope(dir: string): Promise<LoadResult & { jsKiB: number }> {
  const srv = await staticServer(resolve(dir), RAFTSCOPE_PORT);
  try {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const js = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]).reduce((a, f) => a + gz(readFileSync(join(dir, f))), 0);
    // RaftScope animates from the moment it loads.
    const r = await animationCase('RaftScope', `http://127.0.0.1:${RAFTSCOPE_PORT}/`, (page) => page.waitForTimeout(1000));
    return { ...r, jsKiB: kib(js) };
  } finally {
    srv.close();
  }
}

// ---------------------------------------------------------------------------------------------- run

const preview = startPreview(PORT);
const results: {
  load: number[];
  cores: number;
  animation: LoadResult[];
  raftScope?: LoadResult & { jsKiB: number };
  /** Medians over fresh loads: ours (async-partition) first, then RaftScope's where measured. */
  paint?: PaintResult[];
  input?: InputResult;
  long?: LongResult;
  sizes?: Sizes;
  /** With --sizes-scenarios: the sizes on each (sizes is the first). */
  sizesByScenario?: Sizes[];
} = { load: loadavg().map((x) => Math.round(x * 100) / 100), cores: cpus().length, animation: [] };
try {
  await waitFor(base);
  const appQuery = 'autoplay=1&speed=1&backend=wasm';
  const cases: Array<[string, () => Promise<string>]> = [
    ['async-partition', async () => `${base}?scenario=async-partition&${appQuery}`],
    ['raft-ps-majority', async () => `${base}?scenario=raft-ps-majority&${appQuery}`],
    ['raft-ps ×16', () => variantUrl('raft-ps-majority', raft16, appQuery)],
  ];
  const rsDir = process.env.RAFTSCOPE_DIR;
  if (want('animation')) {
    // Interleaved with RaftScope, so both see the same machine.
    if (rsDir && want('raftscope')) {
      log('RaftScope …');
      results.raftScope = await raftScope(rsDir);
    }
    // The pages take turns, so a spell of load on the machine spreads over all of them.
    const loads: LoadResult[][] = cases.map(() => []);
    for (let k = 0; k < ANIMATION_LOADS; k++) {
      for (const [i, [name, url]] of cases.entries()) {
        log(`${name}${ANIMATION_LOADS > 1 ? ` (load ${k + 1} of ${ANIMATION_LOADS})` : ''} …`);
        loads[i].push(await animationCase(name, await url(), (page) => waitRunning(page, 500)));
      }
    }
    results.animation.push(...loads.map(combineLoads));
  }
  if (want('paint')) {
    log(`paint (${PAINT_LOADS} fresh loads each) …`);
    const pages: Array<[string, string]> = [['async-partition', `${base}?scenario=async-partition&${appQuery}`]];
    const srv = rsDir ? await staticServer(resolve(rsDir), RAFTSCOPE_PORT) : null;
    if (srv) pages.push(['RaftScope', `http://127.0.0.1:${RAFTSCOPE_PORT}/`]);
    try {
      results.paint = await paintLoads(pages, PAINT_LOADS);
    } finally {
      srv?.close();
    }
  }
  if (want('input')) {
    log('input at speed max …');
    const sc = builtinJson('raft-ps-majority');
    raft16(sc);
    results.input = await inputAtMax('raft-ps ×16, 60 s', { ...sc, durationMs: 60_000 });
  }
  if (want('sizes')) {
    const all: Sizes[] = [];
    for (const id of sizeScenarios) {
      log(`sizes (${id}) …`);
      all.push(await sizes(id));
    }
    results.sizes = all[0];
    if (all.length > 1) results.sizesByScenario = all;
  }
  if (want('long')) {
    log('long run …');
    results.long = await longRun();
  }
} finally {
  preview.kill();
}
results.load = results.load.map((x, i) => Math.max(x, Math.round(loadavg()[i] * 100) / 100));

// ---------------------------------------------------------------------------------------------- report

const cols = [...(results.raftScope ? [results.raftScope] : []), ...results.animation];
const pad = (s: string, n: number): string => s.padEnd(n);
const row = (label: string, f: (r: LoadResult) => string): string => `| ${pad(label, 34)} | ${cols.map((c) => pad(f(c), 19)).join(' | ')} |`;
log('');
log(`load average ${results.load.join(' ')} on ${results.cores} cores; ${WINDOW_S} s per load${ANIMATION_LOADS > 1 ? `, ${ANIMATION_LOADS} loads per page (median busy, CPU and paint; worst frames; all long tasks)` : ''}, 1280×720, headless Chromium, backend wasm`);
if (cols.length > 0) {
  log(row('', (c) => c.name));
  log(`|${'-'.repeat(36)}|${cols.map(() => '-'.repeat(21)).join('|')}|`);
  log(row('main thread busy while animating', (c) => `${c.busyPct} %`));
  if (cols.some((c) => c.busyPcts)) log(row('  each load', (c) => (c.busyPcts ?? [c.busyPct]).join(' / ')));
  log(row('  its CPU time (load-independent)', (c) => (c.cpuPct === null ? '—' : `${c.cpuPct} %`)));
  log(row('frame p50 / p95 / p99 (ms)', (c) => `${c.p50} / ${c.p95} / ${c.p99}`));
  log(row(`long tasks in ${ANIMATION_LOADS > 1 ? `${ANIMATION_LOADS} × ` : ''}${WINDOW_S} s`, (c) => (c.longTasks === 0 ? '0' : `${c.longTasks} (max ${c.longestTaskMs} ms)`)));
  log(row('first contentful paint / load', (c) => `${c.fcpMs} / ${c.loadMs} ms`));
  log(row('simulated ms per wall s', (c) => (c.name === 'RaftScope' ? '—' : String(c.simMsPerWallS))));
}
if (results.sizes) {
  const z = results.sizes;
  if (cols.length > 0) log(row('main-thread JS, gzip', (c) => (c.name === 'RaftScope' ? `${results.raftScope?.jsKiB} KiB` : `${z.mainThreadKiB} KiB (${z.initialKiB} first)`)));
  log(`worker JS (backend wasm), gzip: ${z.workerKiB} KiB + ${z.wasmKiB} KiB wasm — ${Object.entries(z.workerFiles).map(([f, k]) => `${f} ${k}`).join(', ')}`);
  for (const y of results.sizesByScenario ?? [z]) log(`main-thread files on ${y.scenario}, ${y.mainThreadKiB} KiB: ${Object.entries(y.mainThreadFiles).map(([f, k]) => `${f} ${k}`).join(', ')}`);
}
for (const p of results.paint ?? []) {
  log(`first contentful paint / load, ${p.name}, median of ${p.fcpMs.length} fresh loads: ${p.fcpMedianMs} / ${p.loadMedianMs} ms; paint before load in ${p.fcpBeforeLoad} of ${p.fcpMs.length} (FCP ${p.fcpMs.join(' ')})`);
}
if (results.input) {
  const i = results.input;
  log(`input at speed max (${i.name}, ${i.clicks} clicks): answered in ${i.latencyP50Ms} ms median, ${i.latencyMaxMs} ms worst; run finished in ${i.appFinishS} s, ${i.headlessFinishS} s without UI (pace ${i.paceVsHeadless})`);
}
if (results.long) {
  const l = results.long;
  log(`long run (raft-ps, ${l.workers} workers, max): ${l.earlyRate} sim s/s over the first 30 s, ${l.lateRate} from minute 4 to 5 (${l.lateOverEarly}); heap ${l.heapMbPerSimMin} MB per simulated minute (${l.heapMbAt.map((h) => `${h.simS}s:${h.mb}`).join(' ')})`);
  const speed1 = (a: { simSPerWallS: number } & Animation): string => `${a.simSPerWallS} sim s per s, busy ${a.busyPct} %, frames ${a.p50}/${a.p95}/${a.p99} ms, ${a.longTasks} long tasks${a.longTasks ? ` (longest ${a.longestTaskMs} ms)` : ''}`;
  if (l.early) log(`  at ${l.early.atS} simulated seconds, speed 1 (a fresh load): ${speed1(l.early)}`);
  if (l.late) log(`  at ${l.late.atMin} simulated minutes, speed 1: ${speed1(l.late)}`);
}
console.log(JSON.stringify(results));
