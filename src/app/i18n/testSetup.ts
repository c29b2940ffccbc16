import { addAllEnglish } from './allEnglish';
import { ensureLang } from './catalog';

/**
 * Vitest setup (vitest.config.ts): every catalog, with its language's sentence tables
 * (app/words/tables.ts), loaded before any test runs, as the page loads them before anything
 * renders in that language (main.tsx, loadLang); tests then say Chinese synchronously. English
 * whole, as the parts that own a namespace hand it over when they load (catalog.ts `addEnglish`).
 * catalog.test.ts and words/tables.test.ts check the lazy load itself on fresh copies of the modules.
 */
addAllEnglish();
await ensureLang('zh');
