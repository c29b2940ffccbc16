/**
 * `npx tsx bench/workerStart.ts --dist DIR[,DIR…] [--reps 7] [--backends cpu,wasm,auto]
 * [--scenario allreduce-partition]`: how long training workers take to start, in headless
 * Chromium, for one build or several compared (e.g. before/after a change; build each with
 * `npx vite build --outDir DIR`). Every sample is a fresh browser context (empty HTTP and code
 * caches), the builds interleaved and their order alternated from one round to the next, so a
 * shared machine's slow spells fall on all of them alike. Per build and backend, medians of:
 *  - init: one worker, from `new Worker` to its `init` reply (the worker's script fetched, parsed
 *    and run, the model's data made, the backend chosen and ready) — bench page, measureBackends;
 *  - app: the app page on the scenario with `autoplay=1`, from navigation to the run going (its
 *    whole worker pool ready).
 * Then each build against the first, as the median of the round-by-round differences. Prints a
 * table on stderr and one JSON line on stdout. A measurement, never a test.
 */
import { resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs, findChromium } from '../scripts/chromium.mjs';
import { serveDist } from './serveDist';
import { flag } from './args';

const dists = flag('dist', 'dist').split(',').map((d) => resolve(d));
const reps = Number(flag('reps', '7'));
const backends = flag('backends', 'cpu,wasm,auto').split(',');
const scenario = flag('scenario', 'allreduce-partition');
const log = (s: string): void => void process.stderr.write(s + '\n');

const servers = await Promise.all(dists.map((d) => serveDist(d)));
const found = await findChromium();
const browser: Browser = await chromium.launch({ executablePath: found?.path, args: chromiumArgs });

/** One worker's start-up on the bench page, ms. */
async function initMs(port: number, backend: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/bench.html`);
    await page.waitForSelector('body[data-ready="true"]');
    return await page.evaluate(
      async ([sc, b]) => (await (window as unknown as { measureBackends(o: object): Promise<{ initMs: number }> }).measureBackends({ scenario: sc, backend: b })).initMs,
      [scenario, backend] as const,
    );
  } finally {
    await context.close();
  }
}

/** The app page from navigation to its run going, ms (performance.now() counts from navigation). */
async function appMs(port: number, backend: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/?scenario=${scenario}&backend=${backend}&autoplay=1&lang=en`);
    const h = await page.waitForFunction(
      () => {
        const s = document.querySelector('[data-testid="run-status"]')?.textContent;
        return s === 'running' || s === 'done' ? performance.now() : 0;
      },
      undefined,
      { polling: 'raf', timeout: 120_000 },
    );
    return (await h.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

const samples = new Map<string, number[]>();
const add = (key: string, v: number): void => void samples.set(key, [...(samples.get(key) ?? []), v]);
const name = (i: number): string => dists[i].split('/').filter(Boolean).pop() ?? String(i);

for (let r = 0; r < reps; r++) {
  const order = dists.map((_, i) => i);
  if (r % 2) order.reverse();
  for (const b of backends) {
    for (const i of order) {
      add(`${name(i)} init ${b}`, await initMs(servers[i].port, b));
      add(`${name(i)} app ${b}`, await appMs(servers[i].port, b));
    }
  }
  log(`round ${r + 1}/${reps} done`);
}
await browser.close();
for (const s of servers) s.close();

const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const result: Record<string, { median: number; min: number; max: number; n: number }> = {};
for (const [k, xs] of samples) result[k] = { median: Math.round(median(xs)), min: Math.round(Math.min(...xs)), max: Math.round(Math.max(...xs)), n: xs.length };
for (const [k, v] of Object.entries(result)) log(`${k.padEnd(40)} median ${String(v.median).padStart(6)} ms  (min ${v.min}, max ${v.max}, n ${v.n})`);
// Each build against the first, round by round (the two samples were taken back to back): the
// median of the differences shrugs off the slow spells that widen each build's own spread.
const paired: Record<string, number> = {};
for (let i = 1; i < dists.length; i++) {
  for (const kind of ['init', 'app']) {
    for (const b of backends) {
      const a = samples.get(`${name(0)} ${kind} ${b}`) ?? [];
      const x = samples.get(`${name(i)} ${kind} ${b}`) ?? [];
      const key = `${name(i)} − ${name(0)} ${kind} ${b}`;
      paired[key] = Math.round(median(x.map((v, r) => v - a[r])));
      log(`${key.padEnd(40)} median difference ${String(paired[key]).padStart(6)} ms`);
    }
  }
}
process.stdout.write(JSON.stringify({ scenario, reps, result, paired }) + '\n');
