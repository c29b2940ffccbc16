import { expect, test, type Page } from '@playwright/test';

/**
 * What every security-minded spec listens for (issue 7, item 7): `securitypolicyviolation` in the
 * page, console errors in the page and its workers, uncaught exceptions, and requests that leave
 * the origin. `clean` asserts all of them stayed empty. The replays and the backend specs run
 * under it too, so every built-in and every tfjs backend is checked against the policy where it
 * already runs to its end, not in a second run of its own.
 */
export interface Watch {
  violations: () => Promise<Array<{ directive: string; blocked: string; sample: string; source: string }>>;
  errors: string[];
}

export async function watch(page: Page): Promise<Watch> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: unknown[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, source: `${e.sourceFile}:${e.lineNumber}:${e.columnNumber}` }));
  });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && errors.push(`worker: ${m.text()}`)));
  // Nothing may leave the origin (connect-src 'self' says so; this checks the app never even tries).
  const origin = new URL(test.info().project.use.baseURL!).origin;
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.origin !== origin) errors.push(`request left the origin: ${r.url()}`);
  });
  return { violations: () => page.evaluate(() => (window as unknown as { __csp: Array<{ directive: string; blocked: string; sample: string; source: string }> }).__csp), errors };
}

export async function clean(page: Page, w: Watch) {
  expect(await w.violations()).toEqual([]);
  expect(w.errors).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
}
