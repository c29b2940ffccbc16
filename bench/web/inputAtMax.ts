/**
 * bench:web's input part: clicks on a node while a 16-worker run goes at speed max, each timed from
 * the input event to the first frame that shows it, and how fast the run finishes against the same
 * run with no UI (bench.html); then actions at max — a crash key on a selected worker, timed until
 * the node is drawn down: the run's answer, not only the page's.
 */
import { encodeScenarioHashCompressed } from '../../src/scenario/hashCodec';
import { base, waitRunning, type Hooks } from './app';
import { freshBrowser, newPage, quantile } from './browser';

export interface InputResult {
  name: string;
  clicks: number;
  latencyP50Ms: number;
  latencyMaxMs: number;
  /** Every click's latency in order, so a slow first click (a chunk loaded on demand) shows. */
  latenciesMs: number[];
  appFinishS: number;
  headlessFinishS: number;
  /** The same run without UI, its engine in a worker and the page following it (engine/remote: what the app would do). */
  headlessWorkerFinishS: number;
  /** The faster run without UI's wall time over the app's: 1 = the UI costs the run nothing. */
  paceVsHeadless: number;
  /** Crash keys at max: from the key to the first frame with the node drawn down. */
  actionLatenciesMs: number[];
}

/**
 * Several loads of inputAtMax as one: the clicks of all, the median finish times and pace, and
 * each load's pace — one load's finish time varies by 10–15 % on a 2-core machine, enough to
 * make or unmake a change's effect.
 */
export function combineInputs(rs: readonly InputResult[]): InputResult & { paces: number[]; actionP50Ms: number; actionMaxMs: number } {
  const lat = rs.flatMap((r) => r.latenciesMs);
  const med = (xs: number[]): number => quantile(xs, 0.5);
  const app = med(rs.map((r) => r.appFinishS));
  const headless = med(rs.map((r) => r.headlessFinishS));
  const headlessWorker = med(rs.map((r) => r.headlessWorkerFinishS));
  const actions = rs.flatMap((r) => r.actionLatenciesMs);
  return {
    name: rs[0].name,
    clicks: lat.length,
    latencyP50Ms: Math.round(quantile(lat, 0.5)),
    latencyMaxMs: Math.max(...rs.map((r) => r.latencyMaxMs)),
    latenciesMs: lat,
    appFinishS: app,
    headlessFinishS: headless,
    headlessWorkerFinishS: headlessWorker,
    paceVsHeadless: Math.round((Math.min(headless, headlessWorker) / app) * 100) / 100,
    paces: rs.map((r) => r.paceVsHeadless),
    actionLatenciesMs: actions,
    actionP50Ms: Math.round(quantile(actions, 0.5)),
    actionMaxMs: Math.max(...actions),
  };
}

export async function inputAtMax(name: string, scenarioJson: Record<string, unknown>): Promise<InputResult> {
  const json = JSON.stringify(scenarioJson);
  const url = `${base}?autoplay=1&speed=max&backend=wasm#scenario=${await encodeScenarioHashCompressed(json)}`;
  let appFinishS: number;
  const latencies: number[] = [];
  {
    const browser = await freshBrowser();
    try {
      const { page } = await newPage(browser);
      await page.goto(url);
      await waitRunning(page, 1);
      const t0 = Date.now();
      await page.evaluate(() => {
        const w = window as unknown as { __input: { start: number; target: string; lat: number[] } };
        w.__input = { start: 0, target: '', lat: [] };
        window.addEventListener('pointerdown', (e) => (w.__input.start = e.timeStamp), { capture: true });
        // The clicked node gets the `selected` class; the first frame after that shows it.
        new MutationObserver(() => {
          const { start, target } = w.__input;
          if (start === 0 || !document.querySelector(`[data-testid="${target}"]`)?.classList.contains('selected')) return;
          w.__input.start = 0;
          requestAnimationFrame(() => w.__input.lat.push(performance.now() - start));
        }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] });
      });
      const done = (): Promise<boolean> => page.evaluate(() => !!(window as unknown as Hooks).capPlayground?.run()?.done);
      // Each node's box asked once: the servers stay put at max, and asking before every click
      // (a layout and a few round trips each) slowed the run it measures by ~0.4 s in 4.
      const boxes = new Map<string, { x: number; y: number; width: number; height: number }>();
      for (let i = 0; !(await done()); i++) {
        // The glyphs of two servers, where a hand aims (a plain click on the node's box lands
        // there too: its box is centred on the glyph).
        const target = `node-s${i % 2}`;
        await page.evaluate((t) => ((window as unknown as { __input: { target: string } }).__input.target = t), target);
        const box = boxes.get(target) ?? (await page.locator(`[data-testid="${target}"] path.cv-shape`).boundingBox());
        if (box) boxes.set(target, box);
        if (box) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        // 400 ms to the next click, or less where the run ends first: waiting out the 400 ms made
        // the finish time a multiple of it (4.0, 4.4, 4.8 s), coarser than the change it measures.
        await page.waitForFunction(() => !!(window as unknown as Hooks).capPlayground?.run()?.done, null, { timeout: 400, polling: 50 }).catch(() => undefined);
      }
      appFinishS = (Date.now() - t0) / 1000;
      latencies.push(...(await page.evaluate(() => (window as unknown as { __input: { lat: number[] } }).__input.lat)));
    } finally {
      await browser.close();
    }
  }
  // The same run with no UI: the engine and the same worker pool in bench.html — on the page, as
  // the app runs it, and in a worker of its own with the page following (engine/remote).
  const headless = async (fn: 'runHeadless' | 'runHeadlessRemote'): Promise<number> => {
    const browser = await freshBrowser();
    try {
      const { page } = await newPage(browser);
      await page.goto(`${base}bench.html`);
      await page.waitForSelector('body[data-ready="true"]');
      type Run = (x: { json: string; backend: string }) => Promise<number>;
      const ms = await page.evaluate(([j, f]) => (window as unknown as Record<string, Run>)[f]({ json: j, backend: 'wasm' }), [json, fn] as const);
      return ms / 1000;
    } finally {
      await browser.close();
    }
  };
  const headlessFinishS = await headless('runHeadless');
  const headlessWorkerFinishS = await headless('runHeadlessRemote');
  const actionLatenciesMs = await actionsAtMax({ ...scenarioJson, durationMs: 600_000 });
  const r2 = (x: number): number => Math.round(x * 100) / 100;
  return {
    name,
    clicks: latencies.length,
    latencyP50Ms: Math.round(quantile(latencies, 0.5)),
    latencyMaxMs: Math.round(Math.max(...latencies)),
    latenciesMs: latencies.map(Math.round),
    appFinishS: r2(appFinishS),
    headlessFinishS: r2(headlessFinishS),
    headlessWorkerFinishS: r2(headlessWorkerFinishS),
    paceVsHeadless: r2(Math.min(headlessFinishS, headlessWorkerFinishS) / appFinishS),
    actionLatenciesMs,
  };
}

/**
 * Four crash keys on selected workers while the run (long enough not to end meanwhile) goes at
 * speed max: each from the key to the first frame with the node drawn down. The app applies an
 * action in the engine's worker; the page shows it when the answer comes.
 */
async function actionsAtMax(scenarioJson: Record<string, unknown>): Promise<number[]> {
  const url = `${base}?autoplay=1&speed=max&backend=wasm#scenario=${await encodeScenarioHashCompressed(JSON.stringify(scenarioJson))}`;
  const browser = await freshBrowser();
  try {
    const { page } = await newPage(browser);
    await page.goto(url);
    await waitRunning(page, 1000);
    const out: number[] = [];
    for (const w of ['w3', 'w5', 'w7', 'w9']) {
      await page.getByTestId(`node-${w}`).click();
      await page.waitForTimeout(150);
      const ms = await page.evaluate(
        (id) =>
          new Promise<number>((resolve) => {
            const start = performance.now();
            const el = document.querySelector(`[data-testid="node-${id}"]`);
            const check = (): void => {
              if (el?.getAttribute('data-up') === 'false') resolve(performance.now() - start);
              else requestAnimationFrame(check);
            };
            window.dispatchEvent(new KeyboardEvent('keydown', { key: 'x', bubbles: true }));
            requestAnimationFrame(check);
          }),
        w,
      );
      out.push(Math.round(ms));
      await page.waitForTimeout(300);
    }
    return out;
  } finally {
    await browser.close();
  }
}
