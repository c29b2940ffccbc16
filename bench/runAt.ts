import type { Page } from '@playwright/test';

/**
 * Waits until the page's run has passed `ms` simulated ms (at whatever speed its URL set); with
 * `thenSpeed1`, switches it to speed 1 and lets two seconds pass, so what is measured next is the
 * run at speed 1 from that point (a long run's late cost).
 */
export async function runPast(page: Page, ms: number, thenSpeed1: boolean): Promise<void> {
  await page.waitForFunction((t) => ((window as unknown as { capPlayground?: { run(): { now: number } | null } }).capPlayground?.run()?.now ?? 0) > t, ms, { timeout: 0, polling: 500 });
  if (!thenSpeed1) return;
  await page.getByTestId('speed').selectOption('1');
  await page.waitForTimeout(2000);
}
