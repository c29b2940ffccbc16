import { z } from 'zod/mini';

/**
 * Zod's classic object schemas compile fast parsers with `new Function` when they may, probing for
 * that with a `Function("")` call as each object schema is built; under the app's
 * Content-Security-Policy (no 'unsafe-eval') the probe fails and is reported as a violation. The
 * app's schemas are zod/mini, whose objects are interpreted and never probe; `jitless` keeps it so
 * for any schema built with the classic API as well. This module must be evaluated before any
 * schema is built: the engine worker's entry (workers/engineHost.ts) and every module
 * that builds schemas import it first. The page's first load builds none (app/checks).
 */
z.config({ jitless: true });
