import { z } from 'zod';

/**
 * Zod compiles fast object parsers with `new Function` when it may, probing for that with a
 * `Function("")` call as each object schema is built. Under the app's Content-Security-Policy
 * (no 'unsafe-eval') the probe fails and is reported as a violation. A scenario is parsed once,
 * so the interpreter is fast enough: turn the compiler off. This module must be evaluated before
 * any schema is built — the app's entry imports it first.
 */
z.config({ jitless: true });
