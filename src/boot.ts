/**
 * The page's entry. index.html carries a static first frame (the app's header), which the browser
 * paints while the app's modules load; this module starts the engine's worker meanwhile, which
 * starts the training workers, whose tfjs takes longest to load. The app's CSS stays one render-blocking <link> of the page
 * (vite.config.ts: cssCodeSplit off), so the first frame paints styled. The built page also gives
 * the app's chunk a <script> of its own (vite.config.ts appScript): its modules are fetched from
 * the start and the load event waits for them; `start` below then finds the app already there.
 * The dev server's page has no such script, and there the app starts on the first paint.
 */
import { prewarmEngine } from './workers/engineSpawn';

prewarmEngine();

// A 中文 page (public/theme.js has decided, by the app's rule) needs its catalog before the app's
// first render (main.tsx awaits it): ask for it now, alongside the app's scripts, not after them.
// The same chunks as the catalog's own imports (its zh.json and the Chinese sentence tables,
// i18n/catalog.ts `loaders`); a failure here is the catalog's to report.
if (document.documentElement.lang === 'zh-CN') {
  import('./app/i18n/locales/zh.json').catch(() => {});
  import('./app/words/zh').catch(() => {});
}

let started = false;
function start(): void {
  if (started) return;
  started = true;
  import('./main').catch((e: unknown) => {
    // Without the app the page would show its title forever; say why instead.
    const root = document.getElementById('root');
    if (root) root.textContent = `CAP Playground could not load its scripts: ${e instanceof Error ? e.message : String(e)}. Reload the page to try again.`;
    throw e;
  });
}

// Start on the first paint; a tab opened in the background never paints, and a browser without
// paint timing never says so: the timer covers both.
const fallback = setTimeout(start, 300);
try {
  const observer = new PerformanceObserver((list) => {
    if (list.getEntries().length === 0) return;
    observer.disconnect();
    clearTimeout(fallback);
    start();
  });
  observer.observe({ type: 'paint', buffered: true });
} catch {
  // No paint timing here: the timer starts the app.
}
