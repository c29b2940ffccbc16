/**
 * `npx tsx bench/frameCost.ts [--url QUERY] [--seconds 5] [--dist DIR] [--hide SEL,SEL,… [--reps 2]]`:
 * where the page's main thread spends its time while a run animates, at the level below our
 * JavaScript (which `bench:profile` covers): a Chrome trace of the renderer's main thread, summed
 * by Blink's phases (frame callbacks, style, layout, paint, commit, message and timer tasks).
 *
 * With `--hide`, it asks which part of the page costs what instead: busy % (CDP TaskDuration) with
 * each listed selector hidden (`display: none`), plus `none` for the page as it is, each in a
 * fresh browser, the list repeated `--reps` times so that runs of one part are spread over the
 * session. On this 2-core machine identical runs differ by ±5 points: only a difference larger
 * than that, in every repetition, says something.
 *
 * With `--at-ms N`, the run goes on (at the URL's speed, say `max`) to N simulated ms, then at
 * speed 1 for two seconds before measuring: what a long run costs late. The phases list ends with
 * each task of 50 ms or more and what ran inside it. A tool for finding work, never a test.
 */
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, findChromium } from '../scripts/chromium.mjs';
import { serveDist } from './serveDist';
import { runPast } from './runAt';
import { flag, has } from './args';

const dist = resolve(flag('dist', 'dist'));
const seconds = Number(flag('seconds', '5'));
const query = flag('url', '?scenario=async-partition&autoplay=1&speed=1&backend=wasm');
const hide = has('hide') ? ['none', ...flag('hide', '').split(',').filter(Boolean)] : null;
const reps = Number(flag('reps', '2'));
const atMs = Number(flag('at-ms', '1500'));

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { functionName?: string; url?: string; lineNumber?: number } };
}

const server = await serveDist(dist);
const found = await findChromium();
if (!found) throw new Error('no Chromium');

/** A fresh browser on the app, once the run has gone 1.5 simulated seconds. */
async function open(): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({ executablePath: found!.path, args: chromiumArgs });
  // bypassCSP: the hiding rules are an injected <style>, which the app's policy refuses.
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, bypassCSP: true });
  await page.goto(`http://127.0.0.1:${server.port}/${query}`);
  await runPast(page, atMs, has('at-ms'));
  return { browser, page };
}

/** Wall ms per Blink phase on the renderer's main thread over `seconds`, as % of the wall time. */
async function phases(): Promise<void> {
  const { browser, page } = await open();
  try {
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8', 'disabled-by-default-v8.gc'] });
    await page.waitForTimeout(seconds * 1000);
    const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
    const total = new Map<string, number>();
    for (const e of events) {
      if (e.ph !== 'X' || !e.dur || !main.has(`${e.pid}:${e.tid}`)) continue;
      total.set(e.name, (total.get(e.name) ?? 0) + e.dur / 1000);
    }
    // Nested phases overlap (RunTask holds the rest): each line is its own share, not a part of a sum.
    console.log(`renderer main thread, ${seconds} s of ${query.replace(/#.*/, '#…')}${has('at-ms') ? ` at ${atMs} simulated ms` : ''}`);
    for (const [name, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${((ms / (seconds * 1000)) * 100).toFixed(1).padStart(6)} %  ${name}`);
    longTasks(events.filter((e) => e.ph === 'X' && e.dur && main.has(`${e.pid}:${e.tid}`)));
  } finally {
    await browser.close();
  }
}

/** Each main-thread task of 50 ms or more, and the events inside it that took longest (by name; a function call by its function). */
function longTasks(mainEvents: TraceEvent[]): void {
  const tasks = mainEvents.filter((e) => e.name === 'RunTask' && e.dur! >= 50_000);
  console.log(`\ntasks of 50 ms or more: ${tasks.length}`);
  for (const t of tasks) {
    const inside = new Map<string, number>();
    for (const e of mainEvents) {
      if (e === t || e.ts < t.ts || e.ts + e.dur! > t.ts + t.dur! || e.name === 'RunTask') continue;
      const d = e.args?.data;
      const key = d?.functionName || d?.url ? `${e.name} ${d.functionName || '(anon)'} ${(d.url ?? '').split('/').pop()}:${d.lineNumber ?? ''}` : e.name;
      inside.set(key, (inside.get(key) ?? 0) + e.dur! / 1000);
    }
    console.log(`  ${(t.dur! / 1000).toFixed(1)} ms: ${[...inside].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(' · ')}`);
  }
}

/** Busy % over `seconds` with `sel` hidden ('none': nothing hidden). */
async function busyHiding(sel: string): Promise<number> {
  const { browser, page } = await open();
  try {
    if (sel !== 'none') await page.addStyleTag({ content: `${sel} { display: none !important; }` });
    await page.waitForTimeout(1000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const read = async (): Promise<Record<string, number>> => Object.fromEntries(((await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> }).metrics.map((m) => [m.name, m.value]));
    const a = await read();
    await page.waitForTimeout(seconds * 1000);
    const b = await read();
    return ((b.TaskDuration - a.TaskDuration) / (b.Timestamp - a.Timestamp)) * 100;
  } finally {
    await browser.close();
  }
}

try {
  if (!hide) await phases();
  else {
    const got = new Map<string, number[]>(hide.map((s) => [s, []]));
    for (let r = 0; r < reps; r++) for (const sel of hide) got.get(sel)!.push(await busyHiding(sel));
    console.log(`busy % with one part hidden, ${seconds} s each, ${reps} repetitions`);
    for (const [sel, v] of got) console.log(`${sel.padEnd(28)} ${v.map((x) => x.toFixed(1)).join(' / ')}`);
  }
} finally {
  server.close();
}
