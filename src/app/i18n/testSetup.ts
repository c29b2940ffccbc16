import { ensureLang } from './catalog';

/**
 * Vitest setup (vitest.config.ts): every catalog loaded before any test runs, as the page loads a
 * language's catalog before anything renders in it (main.tsx, loadLang). catalog.test.ts checks
 * the lazy load itself on a fresh copy of the module.
 */
await ensureLang('zh');
