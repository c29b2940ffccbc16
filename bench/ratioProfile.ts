/**
 * `npx tsx bench/ratioProfile.ts --dist DIR [--scenario allreduce-partition] [--duration 20000]
 * [--bare 10] [--interval 100] [--top 30] [--no-profile] [--engine-only --params 105 --samples 400]`:
 * where time goes while the browser bench's cluster runs (bench/page.ts runBench).
 *  - CPU per thread from /proc (Linux): the page's main thread and each training worker, over the
 *    cluster run and over the bare phase. On a shared machine wall time is mostly other people's;
 *    CPU ms per step is what the cluster itself costs.
 *  - Unless --no-profile: CDP CPU profiles of the main thread and of every worker at once (a raw
 *    CDP socket: Playwright cannot open worker sessions), self and inclusive time by function and
 *    by source module. Sampled wall time: a thread the OS preempted inside postMessage shows it as
 *    postMessage time, so read those lines next to the CPU figures.
 *  - --engine-only: the engine on the main thread with a stand-in gradient (no worker, no messages).
 * Build unminified for readable names (`npx vite build --outDir /tmp/distprof --minify false`).
 * A tool for finding work, never a test.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import WebSocket from 'ws';
import { chromiumArgs, findChromium } from '../scripts/chromium.mjs';
import { serveDist } from './serveDist';
import { flag, has } from './args';

const dist = resolve(flag('dist', 'dist'));
const scenario = flag('scenario', 'allreduce-partition');
const durationMs = Number(flag('duration', '20000'));
const bareSteps = Number(flag('bare', '10'));
const interval = Number(flag('interval', '100'));
const top = Number(flag('top', '30'));
const save = flag('save', '');
const noProfile = has('no-profile');

const server = await serveDist(dist);
const { port } = server;

interface PNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: PNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Unminified bundles mark each module with a `// src/…` line: line → source module, per bundle file. */
const moduleMaps = new Map<string, Array<[number, string]>>();
function moduleOf(url: string, line: number): string {
  const file = url.split('/').pop() ?? '';
  if (!file) return '(native)';
  let marks = moduleMaps.get(file);
  if (!marks) {
    marks = [];
    const path = join(dist, 'assets', file);
    if (existsSync(path)) {
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((l, i) => {
          const m = /^\/\/ (\S+)$/.exec(l);
          if (m && (m[1].startsWith('src/') || m[1].startsWith('node_modules/') || m[1].startsWith('bench/'))) marks!.push([i, m[1]]);
        });
    }
    moduleMaps.set(file, marks);
  }
  let found = file;
  for (const [at, mod] of marks) {
    if (at > line) break;
    found = mod.replace(/^node_modules\/(\.pnpm\/)?/, 'nm:');
  }
  return found;
}

function report(name: string, profile: Profile, from: number, to: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Only samples inside [from, to] (µs, the profiler clock): the cluster run's window.
  const counts = new Map<number, number>();
  let t = profile.startTime;
  let total = 0;
  profile.samples.forEach((s, i) => {
    t += profile.timeDeltas[i];
    if (t < from || t > to) return;
    counts.set(s, (counts.get(s) ?? 0) + 1);
    total++;
  });
  const key = (f: PNode['callFrame']) => `${f.functionName || '(anon)'} ${f.url.split('/').pop() || '(native)'}:${f.lineNumber + 1}`;
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  for (const [id, c] of counts) {
    const k = key(byId.get(id)!.callFrame);
    self.set(k, (self.get(k) ?? 0) + c);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (!f.url && at !== id) continue;
      const kk = key(f);
      if (seen.has(kk)) continue;
      seen.add(kk);
      incl.set(kk, (incl.get(kk) ?? 0) + c);
    }
  }
  const byModule = new Map<string, number>();
  for (const [id, c] of counts) {
    const f = byId.get(id)!.callFrame;
    const m = f.url ? moduleOf(f.url, f.lineNumber) : `${f.functionName}`;
    byModule.set(m, (byModule.get(m) ?? 0) + c);
  }
  const idle = self.get('(idle) (native):0') ?? 0;
  console.log(`\n=== ${name}: ${total} samples in window, (idle) ${((idle / total) * 100).toFixed(1)} %, (program) ${(((self.get('(program) (native):0') ?? 0) / total) * 100).toFixed(1)} %, (garbage collector) ${(((self.get('(garbage collector) (native):0') ?? 0) / total) * 100).toFixed(1)} %`);
  const show = (m: Map<string, number>, n: number) => {
    for (const [k, c] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${((c / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
  };
  console.log('-- self by source module');
  show(byModule, top);
  console.log('-- inclusive');
  show(incl, top);
  console.log('-- self');
  show(self, top);
}

/** A bare CDP client over the browser's debugging socket: Playwright's own cannot open worker sessions. */
class Cdp {
  private id = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly onEvent: Array<(method: string, params: Record<string, unknown>, sessionId?: string) => void> = [];
  constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string }; method?: string; params?: Record<string, unknown>; sessionId?: string };
      if (m.id !== undefined) {
        const w = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (m.error) w?.reject(new Error(m.error.message));
        else w?.resolve(m.result);
      } else if (m.method) for (const f of this.onEvent) f(m.method, m.params ?? {}, m.sessionId);
    });
  }
  static async connect(url: string): Promise<Cdp> {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
    await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
    return new Cdp(ws);
  }
  send<T = unknown>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    const id = ++this.id;
    this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise<T>((resolve, reject) => this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject }));
  }
  close(): void {
    this.ws.close();
  }
}

async function startProfiler(cdp: Cdp, session: string): Promise<void> {
  await cdp.send('Profiler.enable', {}, session);
  await cdp.send('Profiler.setSamplingInterval', { interval }, session);
  await cdp.send('Profiler.start', {}, session);
}

/** Per-thread CPU ms (utime + stime) of the browser's renderer threads, from /proc (Linux). */
function rendererThreads(browserPid: number): Map<string, number> {
  const out = new Map<string, number>();
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone
    }
  }
  const all: number[] = [];
  const walk = (p: number) => (kids.get(p) ?? []).forEach((k) => (all.push(k), walk(k)));
  walk(browserPid);
  const tick = 1000 / 100; // USER_HZ
  for (const pid of all) {
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmd.includes('--type=renderer')) continue;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        const comm = Number(tid) === pid ? 'main' : name;
        if (comm !== 'main' && !comm.startsWith('DedicatedWorker')) continue;
        const st = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
        out.set(`${comm}#${tid}`, (Number(f[11]) + Number(f[12])) * tick);
        out.set(`sys:${comm}#${tid}`, Number(f[12]) * tick);
      } catch {
        // gone
      }
    }
  }
  return out;
}

function browserPidFor(port: number): number {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(`--remote-debugging-port=${port}`)) return Number(d);
    } catch {
      // gone
    }
  }
  throw new Error('browser process not found');
}

const found = await findChromium();
if (!found) throw new Error('no Chromium');
const debugPort = 9300 + Math.floor(Math.random() * 500);
const browser = await chromium.launch({ executablePath: found.path, args: [...chromiumArgs, `--remote-debugging-port=${debugPort}`] });
try {
  const page = await browser.newPage();
  // Workers are terminated when the pool is disposed: hold them until their profiles are read.
  await page.addInitScript(() => {
    const w = window as unknown as { __held: Worker[] };
    w.__held = [];
    Worker.prototype.terminate = function (this: Worker) {
      w.__held.push(this);
    };
  });
  const version = (await (await fetch(`http://127.0.0.1:${debugPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const cdp = await Cdp.connect(version.webSocketDebuggerUrl);
  const workerSessions: string[] = [];
  let pageSession = '';
  cdp.onEvent.push((method, params, parentSession) => {
    if (method !== 'Target.attachedToTarget') return;
    const info = params.targetInfo as { type: string; url: string };
    const sid = params.sessionId as string;
    if (info.type === 'page' && !parentSession) {
      pageSession = sid;
      void cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sid);
    } else if (info.type === 'worker') {
      workerSessions.push(sid);
      if (!noProfile) void startProfiler(cdp, sid);
    }
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true, filter: [{ type: 'page' }, { type: 'worker' }] });
  await page.goto(`http://127.0.0.1:${port}/bench.html`);
  await page.waitForSelector('body[data-ready="true"]');
  if (!pageSession) throw new Error('no page session');
  if (!noProfile) await startProfiler(cdp, pageSession);
  const bpid = browserPidFor(debugPort);
  if (has('engine-only')) {
    // The engine alone on the page's main thread (stand-in gradients): CPU per step, no messaging.
    const paramCount = Number(flag('params', '105'));
    const samples = Number(flag('samples', '400'));
    for (let rep = 0; rep < 3; rep++) {
      const c0 = rendererThreads(bpid);
      const e = (await page.evaluate((o) => (window as unknown as { runEngineOnly(x: unknown): Promise<{ steps: number; msPerStep: number }> }).runEngineOnly(o), { scenario, durationMs, reps: 3, paramCount, samples }));
      const c1 = rendererThreads(bpid);
      let main = 0;
      for (const [k, v] of c1) if (k.startsWith('main')) main += v - (c0.get(k) ?? 0);
      console.log(`engine only, ${scenario}: ${e.steps} steps ×3, main thread ${((main / (3 * e.steps)) * 1000).toFixed(0)} µs CPU/step; best wall ${(e.msPerStep * 1000).toFixed(0)} µs/step`);
    }
    process.exit(0);
  }
  const polls: Array<{ at: number; cpu: Map<string, number> }> = [];
  const poller = setInterval(() => polls.push({ at: performance.now(), cpu: rendererThreads(bpid) }), 25);
  const r = await page.evaluate(
    (o) => (window as unknown as { runBench(x: unknown): Promise<Record<string, number | string>> }).runBench(o),
    { scenario, backend: 'wasm', durationMs, bareSteps },
  );
  const endAt = performance.now();
  clearInterval(poller);
  polls.push({ at: endAt, cpu: rendererThreads(bpid) });
  console.log(JSON.stringify(r));
  {
    // CPU each renderer thread spent over the cluster run (the last clusterWallMs before runBench returned).
    const wallMs = Number(r.clusterWallMs);
    const steps = Number(r.clusterSteps);
    const at = (t: number) => [...polls].reverse().find((p) => p.at <= t) ?? polls[0];
    const startPoll = at(endAt - wallMs);
    const endPoll = polls[polls.length - 1];
    // The bare phase ran just before: every worker did bareSteps steps at about bareStepsPerSec / workers each.
    const bareWall = (bareSteps / (Number(r.bareStepsPerSec) / Number(r.poolSize))) * 1000;
    const b0 = at(endAt - wallMs - bareWall + 30);
    const b1 = at(endAt - wallMs - 30);
    const bw: string[] = [];
    for (const [k, v] of b1.cpu) if (k.startsWith('Dedicated') || k.startsWith('sys:Dedicated')) bw.push(`${(((v - (b0.cpu.get(k) ?? 0)) / (b1.at - b0.at)) * 100).toFixed(0)} % cpu`);
    // The poll is every 25 ms and 30 ms are left off each end: a shorter bare phase has no window.
    if (b1.at - b0.at < 100) console.log(`bare phase: ${bareSteps} steps (~${bareWall.toFixed(0)} ms) are too few to measure it or to read the ratio above; ask for more with --bare (1500 is npm run bench's)`);
    else console.log(`bare phase (~${bareWall.toFixed(0)} ms, measured over ${(b1.at - b0.at).toFixed(0)} ms): workers ${bw.join(', ')}; ${((1000 * Number(r.poolSize)) / Number(r.bareStepsPerSec)).toFixed(3)} ms wall/step/worker`);
    const span = endPoll.at - startPoll.at;
    const parts: string[] = [];
    let workers = 0;
    for (const [k, v] of endPoll.cpu) {
      const d = v - (startPoll.cpu.get(k) ?? 0);
      if (k.startsWith('sys:')) continue;
      const sys = v - (startPoll.cpu.get(`sys:${k}`) ?? 0) === v ? 0 : (endPoll.cpu.get(`sys:${k}`) ?? 0) - (startPoll.cpu.get(`sys:${k}`) ?? 0);
      if (d > 0) parts.push(`[${k.split('#')[0]} of which system ${sys.toFixed(0)} ms]`);
      if (k.startsWith('Dedicated')) workers += d;
      parts.push(`${k.split('#')[0]} ${d.toFixed(0)} ms = ${((d / span) * 100).toFixed(0)} % (${((d / steps) * 1000).toFixed(0)} µs/step)`);
    }
    console.log(`cpu over ${span.toFixed(0)} ms wall, ${steps} steps: ${parts.join(', ')}; workers together ${((workers / steps) * 1000).toFixed(0)} µs/step`);
  }
  // With a build carrying the timing patch (/tmp/br/instrument.patch): per request [slot, posted, worker start, worker end, reply seen].
  const raw = (await page.evaluate('globalThis.__tm ?? null')) as number[][] | null;
  if (raw && raw.length) {
    // With a build carrying the timing patch (/tmp/br/instrument.patch).
    const tm = raw.map((x) => ({ slot: x[0], posted: x[1], start: x[2], end: x[3], pmSum: x[4], pmN: x[5], seen: x[6] }));
    const posts = (await page.evaluate('globalThis.__post')) as number[][];
    const t0 = Math.min(...tm.map((x) => x.posted));
    const t1 = Math.max(...tm.map((x) => x.seen));
    const span = t1 - t0;
    const lines: string[] = [];
    for (const sl of [...new Set(tm.map((x) => x.slot))]) {
      const mine = tm.filter((x) => x.slot === sl).sort((a, b) => a.start - b.start);
      const busy = mine.reduce((a, x) => a + (x.end - x.start), 0);
      let startLag = 0; // posted → worker begins, counting only while the worker had nothing else
      let prevEnd = 0;
      for (const x of mine) {
        startLag += Math.max(0, x.start - Math.max(x.posted, prevEnd));
        prevEnd = x.end;
      }
      const replyLag = mine.reduce((a, x) => a + (x.seen - x.end), 0);
      const f = mine[0];
      const l = mine[mine.length - 1];
      const pm = ((l.pmSum - f.pmSum) / Math.max(1, l.pmN - f.pmN)) * 1000;
      lines.push(`slot ${sl}: ${mine.length} steps, gradientAt ${(busy / mine.length).toFixed(3)} ms/step (wall), busy ${((busy / span) * 100).toFixed(1)} % of ${span.toFixed(0)} ms; post→start lag (idle worker) ${(startLag / mine.length).toFixed(3)} ms/step; end→reply seen ${(replyLag / mine.length).toFixed(3)} ms/step; worker postMessage ${pm.toFixed(1)} µs`);
    }
    const gp = posts.filter((p) => p[1] >= t0 && p[1] <= t1);
    const postMs = gp.reduce((a, p) => a + (p[2] - p[1]), 0);
    lines.push(`main: ${gp.length} posts, postMessage ${((postMs / gp.length) * 1000).toFixed(1)} µs each (wall), ${((postMs / span) * 100).toFixed(1)} % of span`);
    console.log(lines.join('\n'));
  }
  if (!noProfile) {
    const { profile: mp } = await cdp.send<{ profile: Profile }>('Profiler.stop', {}, pageSession);
    const wps: Profile[] = [];
    for (const s of workerSessions) {
      try {
        wps.push((await cdp.send<{ profile: Profile }>('Profiler.stop', {}, s)).profile);
      } catch (e) {
        console.log(`worker profile lost: ${String(e)}`);
      }
    }
    // Window: the cluster run, which ended when runBench returned (the pool's dispose is quick).
    const wall = Number(r.clusterWallMs ?? 0) * 1000;
    const end = mp.endTime;
    const from = wall ? end - wall : mp.startTime;
    console.log(`window ${(wall / 1000).toFixed(0)} ms; ${wps.length} worker profiles`);
    report('main', mp, from, end);
    wps.forEach((p, i) => report(`worker ${i}`, p, from, end));
    if (save) writeFileSync(save, JSON.stringify({ main: mp, workers: wps, from, end }));
  }
  cdp.close();
} finally {
  await browser.close();
  server.close();
}
