/**
 * bench:web's sizes: the gzip size of the JavaScript the page's main thread and its training
 * worker load, from the build and from what a running page fetched.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Worker } from '@playwright/test';
import { base, waitRunning } from './app';
import { freshBrowser, newPage } from './browser';

export const gz = (buf: Buffer): number => gzipSync(buf, { level: 9 }).length;
export const kib = (n: number): number => Math.round((n / 1024) * 10) / 10;

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
 * What runs before the app's first render: index.html's module scripts — the boot module and the
 * app's chunk (vite.config.ts appScript), which boot.ts also imports once the static frame has
 * painted — and their static imports. The entry's other dynamic imports (a 中文 page's catalog)
 * load only on the pages that need them: resource timing counts them there.
 */
function appClosure(dir: string, scripts: readonly string[]): string[] {
  return [...new Set(scripts.flatMap((f) => staticClosure(dir, f)))];
}

export interface Sizes {
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

export async function sizes(distDir: string, scenario: string): Promise<Sizes> {
  const dir = join(distDir, 'assets');
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script type="module"[^>]*src="\.\/assets\/([^"]+)"/g)].map((m) => m[1]);
  if (scripts.length === 0) throw new Error(`${distDir}/index.html: no module script`);
  const initial = appClosure(dir, scripts).reduce((a, f) => a + gz(readFileSync(join(dir, f))), 0);
  const browser = await freshBrowser();
  try {
    const { page } = await newPage(browser);
    const workers: Worker[] = [];
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
    const initialFiles = appClosure(dir, scripts);
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
