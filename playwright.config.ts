import { defineConfig } from '@playwright/test';
import { chromiumArgs, findChromium } from './scripts/chromium.mjs';

const chromium = await findChromium();

/** A free port, chosen once by the main process; workers inherit it through the environment. */
async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 4180));
    });
  });
}
process.env.E2E_PORT ??= String(await freePort());
const port = Number(process.env.E2E_PORT);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 120_000,
  expect: { timeout: 60_000 },
  fullyParallel: false,
  workers: 1, // 2 cores: one browser at a time keeps the tfjs workers fast and the timings sane
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    viewport: { width: 1280, height: 720 },
    launchOptions: { executablePath: chromium?.path, args: chromiumArgs },
    // Recording a trace costs about a third of the suite's time (screencast frames, DOM snapshots
    // at every step: 151 → 95 s for textFit.spec here), so CI records one only when it retries a
    // failed test; a local run, without retries, keeps the failures' traces.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
  },
  webServer: {
    // `exec`: the shell becomes the preview server, so stopping it stops the server (a plain
    // `build && preview` chain left the server orphaned when Playwright stopped the shell).
    command: `node node_modules/vite/bin/vite.js build && exec node node_modules/vite/bin/vite.js preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
  },
});
