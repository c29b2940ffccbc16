// Run before the e2e tests: make sure a Chromium exists, or say in one line how to get one.
import { spawnSync } from 'node:child_process';
import { findChromium } from './chromium.mjs';

let found = await findChromium().catch((e) => {
  console.error(String(e.message ?? e));
  process.exit(1);
});
if (!found) {
  console.error('No Chromium found; trying `playwright install chromium` …');
  const r = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
  found = r.status === 0 ? await findChromium() : null;
}
if (!found) {
  console.error('No Chromium for the e2e tests: install one (Debian: `apt-get install chromium`), set CHROMIUM_PATH, or run `npx playwright install chromium` where the network allows.');
  process.exit(1);
}
console.error(`e2e: using ${found.source === 'playwright' ? "Playwright's own Chromium" : found.path} (${found.source})`);
