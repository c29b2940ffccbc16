/**
 * `npm run bench:profile -- [--url QUERY] [--seconds 5] [--dist DIR]`: where the main thread's time
 * goes while a run animates — a CDP CPU profile of the page, self time summed by function and by
 * file. Build unminified for readable names (`npx vite build --outDir /tmp/distprof --minify false`
 * and `--dist /tmp/distprof`). With `--at-ms N`, the run goes on (at the URL's speed, say `max`) to
 * N simulated ms, then at speed 1 for two seconds before the profile: what a long run costs late.
 * With `--callers setAttribute,querySelector`, the JS callers of those functions' samples.
 * A tool for finding work, never a test.
 */
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumArgs, findChromium } from '../scripts/chromium.mjs';
import { serveDist } from './serveDist';
import { runPast } from './runAt';
import { flag, has } from './args';

const dist = resolve(flag('dist', 'dist'));
const seconds = Number(flag('seconds', '5'));
const query = flag('url', '?scenario=async-partition&autoplay=1&speed=1&backend=wasm');
const top = Number(flag('top', '40'));
const atMs = Number(flag('at-ms', '500'));
/** With `--callers a,b`: for samples whose own frame is one of these (say a native setAttribute), the JS callers' share. */
const callersOf = flag('callers')?.split(',') ?? [];

const server = await serveDist(dist);
const { port } = server;

interface Node {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
const found = await findChromium();
if (!found) throw new Error('no Chromium');
const browser = await chromium.launch({ executablePath: found.path, args: chromiumArgs });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`http://127.0.0.1:${port}/${query}`);
  await runPast(page, atMs, has('at-ms'));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.waitForTimeout(seconds * 1000);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: Node[]; samples: number[]; startTime: number; endTime: number } };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map<number, number>();
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const total = profile.samples.length;
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [id, c] of counts) {
    const f = byId.get(id)!.callFrame;
    const file = f.url.split('/').pop() || f.url || '(native)';
    const key = `${f.functionName || '(anon)'} ${file}:${f.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + c);
    byFile.set(file, (byFile.get(file) ?? 0) + c);
  }
  const wallMs = (profile.endTime - profile.startTime) / 1000;
  const idle = byFn.get('(idle) (native):0') ?? 0;
  console.log(`${seconds} s, ${total} samples, busy ${(((total - idle) / total) * 100).toFixed(1)} % (${wallMs.toFixed(0)} ms)`);
  const show = (m: Map<string, number>, n: number): void => {
    for (const [k, c] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${((c / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
  };
  // Inclusive time: a function's samples and its callees', counted once per sample (recursion).
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  for (const [id, c] of counts) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (!f.url) continue;
      const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + c);
    }
  }
  console.log('\nby function (inclusive)');
  show(incl, top);
  console.log('\nby file');
  show(byFile, 15);
  console.log('\nby function (self)');
  show(byFn, top);
  for (const name of callersOf) {
    // The nearest caller with a script URL: which of our functions a native call is spent for.
    const callers = new Map<string, number>();
    for (const [id, c] of counts) {
      if (byId.get(id)!.callFrame.functionName !== name) continue;
      let at = parent.get(id);
      while (at !== undefined && !byId.get(at)!.callFrame.url) at = parent.get(at);
      const f = at === undefined ? null : byId.get(at)!.callFrame;
      const key = f ? `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}` : '(none)';
      callers.set(key, (callers.get(key) ?? 0) + c);
    }
    console.log(`\ncallers of ${name}`);
    show(callers, 12);
  }
} finally {
  await browser.close();
  server.close();
}
