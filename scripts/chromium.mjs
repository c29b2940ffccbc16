// Finds a Chromium for Playwright without downloading anything at test time:
// $CHROMIUM_PATH, then the system's (Debian: /usr/bin/chromium), then Playwright's own browser.
import { existsSync } from 'node:fs';

const systemPaths = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export async function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return { path: fromEnv, source: 'CHROMIUM_PATH' };
    throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
  }
  for (const p of systemPaths) if (existsSync(p)) return { path: p, source: 'system' };
  try {
    const { chromium } = await import('@playwright/test');
    const own = chromium.executablePath();
    if (own && existsSync(own)) return { path: undefined, source: 'playwright' };
  } catch {
    // Playwright has no browser of its own installed.
  }
  return null;
}

/** Flags that keep a headless Chromium from phoning home (there is no network here). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--enable-unsafe-webgpu',
];
