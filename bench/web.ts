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
 *    there against the same run with no UI (the worker pool and engine alone, bench.html), over
 *    `--input-loads` loads (3; the medians: one load's finish time varies by 10–15 %);
 *  - a long run (raft-ps, 8 workers, at max): simulated-time rate after 4 simulated minutes against
 *    the first 30 s, heap per simulated minute (the page's and the engine worker's, after a
 *    forced GC, V8's objects and array buffers' backing stores both; the hash, pack and paint
 *    workers' too) fitted over the first 5 minutes and measured again from minute 5 to minute 28
 *    (the figure an hour's growth follows: the first minutes' readings swing by ±2 MB), then speed 1
 *    late in the run (real time kept? frames?), then Share → Export run there (click to download,
 *    and the main thread's long tasks meanwhile);
 *  - paint: first contentful paint and the load event over several fresh loads of async-partition
 *    (`--paint-loads`, 7), interleaved with RaftScope's: one load's figures are mostly the browser's
 *    start-up (±150 ms between identical loads here), so the medians are what compares;
 *  - main-thread and worker JavaScript, gzip, from the build (what the page and the workers loaded),
 *    on async-partition, or on each scenario of `--sizes-scenarios a,b,…` (the page loads only the
 *    protocol code its scenario runs, so the figure depends on it).
 *
 * With RAFTSCOPE_DIR pointing at a RaftScope checkout, RaftScope is measured in the same run.
 * Prints a readable table on stderr and, last, one JSON line on stdout. Never a timed assertion.
 * The parts live in bench/web/: browser (one load's measures), app (the pages), inputAtMax,
 * longRun, paint (with RaftScope) and sizes.
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { flag, has } from './args';
import { PORT, animationCase, base, builtinJson, combineLoads, raft16, root, startPreview, variantUrl, waitRunning, type LoadResult } from './web/app';
import { serveDist } from './serveDist';
import { waitFor, type Animation } from './web/browser';
import { combineInputs, inputAtMax, type InputResult } from './web/inputAtMax';
import { longRun, type LongResult } from './web/longRun';
import { RAFTSCOPE_PORT, paintLoads, raftScope, type PaintResult } from './web/paint';
import { sizes, type Sizes } from './web/sizes';

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
/** Loads of the input-at-max run (each with its run without UI). */
const INPUT_LOADS = Math.max(1, Number(flag('input-loads') ?? 3));

// ---------------------------------------------------------------------------------------------- build

if (!has('no-build') && !flag('dist')) {
  log('bench:web: building dist/ …');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error('the build failed (npx vite build)');
}

// ---------------------------------------------------------------------------------------------- servers// ---------------------------------------------------------------------------------------------- run

const preview = startPreview(PORT, distDir);
const results: {
  load: number[];
  cores: number;
  animation: LoadResult[];
  raftScope?: LoadResult & { jsKiB: number };
  /** Medians over fresh loads: ours (async-partition) first, then RaftScope's where measured. */
  paint?: PaintResult[];
  input?: ReturnType<typeof combineInputs>;
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
      results.raftScope = await raftScope(rsDir, WINDOW_S);
    }
    // The pages take turns, so a spell of load on the machine spreads over all of them.
    const loads: LoadResult[][] = cases.map(() => []);
    for (let k = 0; k < ANIMATION_LOADS; k++) {
      for (const [i, [name, url]] of cases.entries()) {
        log(`${name}${ANIMATION_LOADS > 1 ? ` (load ${k + 1} of ${ANIMATION_LOADS})` : ''} …`);
        loads[i].push(await animationCase(name, await url(), (page) => waitRunning(page, 500), WINDOW_S));
      }
    }
    results.animation.push(...loads.map(combineLoads));
  }
  if (want('paint')) {
    log(`paint (${PAINT_LOADS} fresh loads each) …`);
    const pages: Array<[string, string]> = [['async-partition', `${base}?scenario=async-partition&${appQuery}`]];
    const srv = rsDir ? await serveDist(resolve(rsDir), RAFTSCOPE_PORT) : null;
    if (srv) pages.push(['RaftScope', `http://127.0.0.1:${RAFTSCOPE_PORT}/`]);
    try {
      results.paint = await paintLoads(pages, PAINT_LOADS);
    } finally {
      srv?.close();
    }
  }
  if (want('input')) {
    const sc = builtinJson('raft-ps-majority');
    raft16(sc);
    const runs: InputResult[] = [];
    for (let k = 0; k < INPUT_LOADS; k++) {
      log(`input at speed max${INPUT_LOADS > 1 ? ` (load ${k + 1} of ${INPUT_LOADS})` : ''} …`);
      runs.push(await inputAtMax('raft-ps ×16, 60 s', { ...sc, durationMs: 60_000 }));
    }
    results.input = combineInputs(runs);
  }
  if (want('sizes')) {
    const all: Sizes[] = [];
    for (const id of sizeScenarios) {
      log(`sizes (${id}) …`);
      all.push(await sizes(distDir, id));
    }
    results.sizes = all[0];
    if (all.length > 1) results.sizesByScenario = all;
  }
  if (want('long')) {
    log('long run …');
    results.long = await longRun(LONG_MINUTES, WINDOW_S, log);
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
  log(`input at speed max (${i.name}, ${i.paces.length} loads, ${i.clicks} clicks): answered in ${i.latencyP50Ms} ms median, ${i.latencyMaxMs} ms worst; run finished in ${i.appFinishS} s; without UI ${i.headlessFinishS} s with the engine on the page, ${i.headlessWorkerFinishS} s with it in a worker (medians; pace against the faster ${i.paceVsHeadless}, each load's ${i.paces.join(' / ')}); a crash key to its node drawn down, ${i.actionLatenciesMs.length} keys on a 600 s run: ${i.actionP50Ms} ms median, ${i.actionMaxMs} ms worst`);
}
if (results.long) {
  const l = results.long;
  log(`long run (raft-ps, ${l.workers} workers, max): ${l.earlyRate} sim s/s over the first 30 s, ${l.lateRate} from minute 4 to 5 (${l.lateOverEarly}); heap (page + engine worker + hash, pack and paint workers, objects and array buffers) ${l.heapMbPerSimMin} MB per simulated minute (${l.heapMbAt.map((h) => `${h.simS}s:${h.mb} (${h.pageMb}+${h.engineMb}+${h.othersMb}; buffers ${h.pageBuffersMb}+${h.engineBuffersMb})`).join(' ')})`);
  const speed1 = (a: { simSPerWallS: number } & Animation): string => `${a.simSPerWallS} sim s per s, busy ${a.busyPct} %, frames ${a.p50}/${a.p95}/${a.p99} ms, ${a.longTasks} long tasks${a.longTasks ? ` (longest ${a.longestTaskMs} ms)` : ''}`;
  if (l.early) log(`  at ${l.early.atS} simulated seconds, speed 1 (a fresh load): ${speed1(l.early)}`);
  if (l.heapLate) {
    const from = l.heapMbAt[l.heapMbAt.length - 1];
    log(`  heap at ${l.heapLate.simS} simulated seconds: ${l.heapLate.mb} MB (${l.heapLate.pageMb}+${l.heapLate.engineMb}+${l.heapLate.othersMb}): ${l.heapLate.mbPerSimMin} MB per simulated minute since ${from.simS} s (${from.mb} MB)`);
  }
  if (l.late) log(`  at ${l.late.atMin} simulated minutes, speed 1: ${speed1(l.late)}`);
  const x = l.export;
  if (x) log(`  Export run at ${x.simS} simulated seconds, the run going on: ${x.wallMs} ms from click to download (${x.zipMb} MB zip); main thread meanwhile: ${x.longTasks} long tasks, longest ${x.longestTaskMs} ms, ${x.longTaskTotalMs} ms in all`);
}
console.log(JSON.stringify(results));
