import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { preactAlias } from './scripts/preactAlias.mjs';

export default defineConfig({
  // The same runtime as the page (see scripts/preactAlias.mjs).
  resolve: { alias: [...preactAlias] },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // The non-English catalogs are lazy chunks in the page; tests get them all up front.
    setupFiles: ['src/app/i18n/testSetup.ts'],
    // zustand imports 'react': inlined, it goes through the alias above (Node would look for React itself).
    server: { deps: { inline: ['zustand'] } },
    // Vitest's default leaves a core free (one worker on a 2-core machine, all files in a row);
    // the tests are single-threaded CPU work, so two at a time on two cores: 354 s -> 223 s here.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60000,
    hookTimeout: 60000,
  },
});
