import { join, resolve } from 'node:path';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { cspHeader, cspMeta } from './scripts/csp.mjs';
import { preactAlias } from './scripts/preactAlias.mjs';
import { closure, jsonImports, packageClosure, packageImports, packageName } from './scripts/sourceGraph.mjs';

// Cross-origin isolation keeps SharedArrayBuffer available should a backend want it,
// and costs nothing: every asset (WASM included) is served by the app itself.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * The built page carries its Content-Security-Policy as a <meta> (it holds on any static host);
 * the dev server does not, because Vite's dev client injects the CSS as inline <style> elements.
 */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'cap-playground-csp',
    apply: 'build',
    // Right after <meta charset>, before any script: a meta policy governs only what follows it.
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        const charset = /<meta charset="UTF-8" \/>/;
        if (!charset.test(html)) throw new Error('index.html: <meta charset="UTF-8" /> not found; the CSP goes right after it');
        return html.replace(charset, (m) => `${m}\n    <meta http-equiv="Content-Security-Policy" content="${cspMeta}" />`);
      },
    },
  };
}

/**
 * The app's chunk (src/main.tsx, which src/boot.ts imports once the static frame has painted) also
 * gets a <script> of its own in the built page, after the boot module's. Its modules are then
 * fetched while the page parses, and the load event waits for the app. It used to fire before the
 * app's code had even been asked for, in the same frame as the first paint, and ahead of that
 * paint in about half the loads. Measured (fresh loads of async-partition, the two builds taking
 * turns, 10 each, medians): first contentful paint 127 → 132 ms, the app's first render 374 →
 * 336 ms, paint before load in 6 → 10 of 10. The module runs once: boot's import() finds it in the
 * module map.
 */
function appScript(): Plugin {
  return {
    name: 'cap-playground-app-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => {
        if (!ctx.filename.endsWith('index.html')) return html; // bench.html has no app
        // The chunk that holds src/main.tsx: its own, or the first-load group's (firstLoadChunks).
        const isMain = (id: string | null): boolean => /[\\/]src[\\/]main\.tsx$/.test(id ?? '');
        const app = Object.values(ctx.bundle ?? {}).find((c): c is Rollup.OutputChunk => c.type === 'chunk' && (isMain(c.facadeModuleId) || c.moduleIds.some(isMain)));
        if (!app) throw new Error("index.html: no chunk for src/main.tsx (is it still boot.ts's dynamic import?)");
        const boot = /<script type="module" crossorigin src="[^"]+"><\/script>/;
        if (!boot.test(html)) throw new Error('index.html: the boot module\'s <script> not found; the app\'s goes right after it');
        // Its own static imports (the chunk shared with the benchmark page …) fetched alongside it,
        // not after it has parsed.
        const preloads = app.imports.filter((f) => !html.includes(`./${f}"`)).map((f) => `\n    <link rel="modulepreload" crossorigin href="./${f}">`);
        return html.replace(boot, (m) => `${m}\n    <script type="module" crossorigin src="./${app.fileName}"></script>${preloads.join('')}`);
      },
    },
  };
}

/**
 * d3's single-file ESM builds make some exports with an immediately-invoked function
 * (`var cardinal = (function custom(tension) { … })(0);`, d3-shape's curves, d3-ease's easings).
 * A bundler cannot tell such a call is free of side effects, so every one was kept, used or not
 * (d3-shape's curves: ~3 KiB gzip of the page's first load). Each only builds and returns a
 * function; marking the call pure lets the unused ones go.
 */
function d3PureFactories(): Plugin {
  return {
    name: 'cap-playground-d3-pure',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]d3-[a-z]+[\\/]dist[\\/][^\\/]+\.mjs$/.test(id)) return null;
      const marked = code.replace(/^(var \w+ = )\((function \w+\()/gm, '$1/* @__PURE__ */ ($2');
      return marked === code ? null : { code: marked, map: null };
    },
  };
}

/**
 * The app's first load as three chunks instead of some thirty, each compressed on its own (139.6
 * KiB gzip on a scenario's page, 131.9 as one file, when this was written): 'boot', what the boot
 * module needs before the first paint; 'app', the modules only the page runs (src/main.tsx's static
 * imports, less boot's); 'core', those the benchmark page (bench.html) runs as well — which must
 * not load the app's chunk, whose modules render the app as they run. Each takes the packages its
 * modules use. The lazily loaded parts (a strategy's text, the lesson and room code, the servers
 * panel) import from these, loaded first.
 */
function firstLoadChunks(): { boot: (id: string) => boolean; app: (id: string) => boolean; core: (id: string) => boolean } {
  const src = resolve('src');
  const boot = closure([join(src, 'boot.ts')]);
  const page = [...closure([join(src, 'main.tsx')])].filter((f) => !boot.has(f));
  const bench = closure([resolve('bench/page.ts')]);
  const shared = page.filter((f) => bench.has(f));
  const own = page.filter((f) => !bench.has(f));
  const sharedPackages = packagesOf(shared);
  const ownPackages = [...packagesOf(own)].filter((p) => !sharedPackages.has(p));
  const bootDeps = [...boot].filter((f) => !/[\\/]src[\\/]boot\.ts$/.test(f));
  // Vite's module-preload helper: the boot module, the app and the benchmark page all use it.
  const viteHelper = /^\0?vite\/(preload-helper|modulepreload-polyfill)/;
  const bootMember = member(bootDeps, []);
  return { boot: (id) => bootMember(id) || viteHelper.test(id), app: member(own, ownPackages), core: member(shared, sharedPackages) };
}

/** The packages the files use, with what those depend on; React's names resolve to Preact (scripts/preactAlias.mjs). */
function packagesOf(files: readonly string[]): Set<string> {
  return packageClosure(
    files.flatMap(packageImports).map((p) => (/^react(-dom)?$/.test(packageName(p)) ? 'preact' : packageName(p))),
    resolve('.'),
  );
}

/** A chunk group's test: the files (and the JSON they import), and the packages' modules. */
function member(files: readonly string[], packages: Iterable<string>): (id: string) => boolean {
  const modules = new Set([...files, ...files.flatMap(jsonImports)]);
  const names = [...packages].map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  const inPackages = names.length > 0 ? new RegExp(`[\\/]node_modules[\\/](${names.join('|')})[\\/]`) : /^$/;
  return (id) => modules.has(id.replace(/\?.*$/, '')) || inPackages.test(id);
}

const firstLoad = firstLoadChunks();

export default defineConfig({
  base: './',
  plugins: [contentSecurityPolicy(), appScript(), d3PureFactories()],
  // The page runs on Preact (scripts/preactAlias.mjs). Vite's own transform compiles the JSX (tsconfig's
  // react-jsx); @vitejs/plugin-react is not used, as its Fast Refresh patches React, not Preact: an edited
  // component was accepted but never redrawn. Without it an edit reloads the page.
  resolve: { alias: [...preactAlias] },
  worker: { format: 'es' },
  server: { headers: isolation },
  // The preview server is the built site: it sends the policy as a header too (with frame-ancestors).
  preview: { headers: { ...isolation, 'Content-Security-Policy': cspHeader } },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
    // One stylesheet, linked from the page's head: the app's modules load after the first paint
    // (src/boot.ts), and split CSS would arrive with them — after the static frame painted unstyled.
    cssCodeSplit: false,
    // Every browser the app runs in (module workers, OffscreenCanvas) preloads modules itself.
    modulePreload: { polyfill: false },
    rollupOptions: {
      // The benchmark page ships with the app so `npm run bench` measures the built worker pool.
      input: { main: 'index.html', bench: 'bench.html' },
      // zod and its configuration (jitless: no `new Function` probe, which the CSP reports) are one
      // chunk, so every schema is built after it whichever chunk builds one first: with protocol code
      // loaded on demand, schema modules land in chunks that the page evaluates before the entry's own.
      output: {
        codeSplitting: {
          groups: [
            // Rolldown puts a captured module's dependencies in its group unless a group of higher
            // priority took them: boot's and core's modules must be taken before the app's.
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]scenario[\\/]zodConfig\.ts$/, priority: 2 },
            { name: 'app', test: firstLoad.app, priority: 1 },
            { name: 'core', test: firstLoad.core, priority: 3 },
            { name: 'boot', test: firstLoad.boot, priority: 4 },
          ],
        },
      },
    },
  },
});
