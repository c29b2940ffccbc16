/**
 * `npm run replay -- <scenario file | id> [--at t1,t2,…] [--out DIR] [--lang en|zh] [--size WxH]`
 *
 * Replays a run in the built app in headless Chromium (found as `npm test` finds it), checks that
 * the page's schedule hash equals the CLI's for the same file, and saves a screenshot at each
 * requested simulated time (scrubbed there after the run): DIR/<id>-t<ms>.png. For slides, bug
 * reports and lesson reviews. Builds `dist/` first only when it is older than its sources.
 *
 * Exit status: 0 the hashes match (and the screenshots are written); 1 they differ, or the run
 * failed in the page; 2 bad arguments or scenario; 3 no Chromium, or the build or a tool failed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { resolveScenario } from '../src/cli/builtins';
import { openScenario, runTo, scheduleHash, scrubTo } from '../e2e/fixtures';
import { chromiumArgs, findChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));

class Exit extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Args {
  target: string;
  at: number[];
  out: string;
  lang?: 'en' | 'zh';
  width: number;
  height: number;
}

const usage = 'usage: npm run replay -- <scenario file | built-in id> [--at t1,t2,…] [--out DIR] [--lang en|zh] [--size WxH]';

function parseArgs(argv: string[]): Args {
  const args: Args = { target: '', at: [], out: 'replays', width: 1280, height: 720 };
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Exit(2, `${flag} needs a value`);
      return v;
    };
    if (flag === '-h' || flag === '--help') throw new Exit(0, usage);
    else if (flag === '--at') {
      args.at = value()
        .split(',')
        .map((s) => {
          const n = Number(s.trim());
          if (s.trim() === '' || !Number.isFinite(n) || n < 0) throw new Exit(2, `--at: "${s}" is not a simulated time in ms`);
          return n;
        });
    } else if (flag === '--out') args.out = value();
    else if (flag === '--lang') {
      const v = value();
      if (v !== 'en' && v !== 'zh') throw new Exit(2, `--lang: "${v}" is not en or zh`);
      args.lang = v;
    } else if (flag === '--size') {
      const m = /^(\d+)x(\d+)$/.exec(value());
      if (!m) throw new Exit(2, '--size: expected WxH, e.g. 1920x1080');
      args.width = Number(m[1]);
      args.height = Number(m[2]);
    } else if (a.startsWith('-')) throw new Exit(2, `unknown option "${a}"`);
    else pos.push(a);
  }
  if (pos.length !== 1) throw new Exit(2, pos.length === 0 ? `missing scenario\n${usage}` : `expected one scenario, got ${pos.length}`);
  args.target = pos[0];
  return args;
}

/** Newest modification time under `path` (files only). */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of readdirSync(path)) m = Math.max(m, newest(join(path, e)));
  return m;
}

/** Builds dist/ unless it is newer than everything it is built from. */
function ensureBuilt(): boolean {
  const built = existsSync(join(root, 'dist/index.html')) ? statSync(join(root, 'dist/index.html')).mtimeMs : 0;
  const inputs = ['src', 'public', 'index.html', 'bench.html', 'vite.config.ts', 'package.json', 'package-lock.json'];
  const source = Math.max(...inputs.map((p) => newest(join(root, p))));
  if (built > source) return false;
  process.stderr.write('replay: dist/ is older than its sources; building…\n');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Exit(3, 'the build failed (npx vite build)');
  return true;
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? res(addr.port) : rej(new Error('no port'))));
    });
  });
}

/** The CLI's schedule hash for the same scenario, computed in a child process (in parallel). */
function cliHash(target: string): Promise<string> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', target, '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      // Exit 1 is a failed expectation: the run (and its hash) is still complete.
      if (code !== 0 && code !== 1) return rej(new Exit(3, `the CLI failed (exit ${code}): ${err.trim().split('\n').pop() ?? ''}`));
      try {
        res((JSON.parse(out) as { scheduleHash: string }).scheduleHash);
      } catch {
        rej(new Exit(3, 'the CLI printed no JSON summary'));
      }
    });
  });
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const loaded = resolveScenario(args.target);
  if (!loaded.ok) throw new Exit(2, loaded.errors.join('\n'));
  const sc = loaded.scenario;
  for (const t of args.at) if (t > sc.durationMs) throw new Exit(2, `--at: ${t} is after the end of the run (durationMs ${sc.durationMs})`);
  const found = await findChromium();
  if (!found) throw new Exit(3, 'no Chromium: install one (Debian: `apt-get install chromium`) or set CHROMIUM_PATH');

  const t0 = performance.now();
  const rebuilt = ensureBuilt();
  const tBuilt = performance.now();
  const cli = cliHash(args.target);
  cli.catch(() => undefined); // awaited below; do not let an early failure go unhandled
  const port = await freePort();
  const server = await preview({ root, logLevel: 'silent', preview: { host: '127.0.0.1', port, strictPort: true, open: false } });
  const browser = await chromium.launch({ executablePath: found.path, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: args.width, height: args.height }, baseURL: `http://127.0.0.1:${port}/` });
    await openScenario(page, args.target, { lang: args.lang });
    await runTo(page, 'end', { timeout: 30 * 60_000 });
    const tRun = performance.now();
    const status = await page.getByTestId('run-status').textContent();
    if (status !== 'done') throw new Exit(1, `the run ended "${status}" in the page: ${(await page.getByTestId('error').allTextContents()).join(' | ')}`);
    const [browserHash, cliScheduleHash] = await Promise.all([scheduleHash(page), cli]);
    const tCli = performance.now();
    if (browserHash !== cliScheduleHash) throw new Exit(1, `schedule hash differs for ${sc.id}: browser ${browserHash} ≠ CLI ${cliScheduleHash}`);
    mkdirSync(args.out, { recursive: true });
    const shots: string[] = [];
    for (const t of args.at) {
      await scrubTo(page, t);
      const file = join(args.out, `${sc.id}-t${Math.round(t)}${args.lang ? `-${args.lang}` : ''}.png`);
      await page.screenshot({ path: file });
      shots.push(resolve(file));
    }
    for (const f of shots) process.stdout.write(`${f}\n`);
    const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    process.stderr.write(
      `replay: ${sc.id}: schedule hash ${browserHash.slice(0, 12)}… equals the CLI's; ${shots.length} screenshot(s) in ${args.out}` +
        ` (build ${rebuilt ? sec(tBuilt - t0) : 'current'}, browser run ${sec(tRun - tBuilt)}, CLI done after ${sec(tCli - tBuilt)})\n`,
    );
    return 0;
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof Exit) {
      (e.code === 0 ? process.stdout : process.stderr).write(`${e.code === 0 ? '' : 'replay: '}${e.message}\n`);
      process.exit(e.code);
    }
    process.stderr.write(`replay: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(3);
  },
);
