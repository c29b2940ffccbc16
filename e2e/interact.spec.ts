import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { openScenario, runTo, scrubTo } from './fixtures';

mkdirSync('e2e-artifacts', { recursive: true });

async function version(page: Page, node: string): Promise<number> {
  return Number(await page.getByTestId(`node-${node}`).getAttribute('data-version'));
}

async function simTime(page: Page): Promise<number> {
  return Number(await page.getByTestId('sim-time').textContent());
}

/** Wait until simulated time has advanced by `ms`. */
async function waitSim(page: Page, ms: number) {
  const start = await simTime(page);
  await expect.poll(() => simTime(page), { timeout: 60_000 }).toBeGreaterThan(start + ms);
}

test('clicking a ring link cuts it: every version stops advancing; clicking again restores it and training resumes', async ({ page }) => {
  // A scenario without a timeline, so only the click changes the network.
  await page.goto('./?scenario=allreduce-partition&autoplay=1&speed=2&backend=wasm');
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await expect.poll(() => version(page, 'w0'), { timeout: 60_000 }).toBeGreaterThan(2);
  await page.getByTestId('link-w1-w2').click();
  await waitSim(page, 600); // the round in flight cannot finish
  const frozen = await Promise.all(['w0', 'w1', 'w2', 'w3'].map((w) => version(page, w)));
  await waitSim(page, 1500);
  expect(await Promise.all(['w0', 'w1', 'w2', 'w3'].map((w) => version(page, w)))).toEqual(frozen);
  await expect(page.getByTestId('metric-availability')).toHaveText(/^0/);
  await page.screenshot({ path: 'e2e-artifacts/link-cut-1280x720.png' });
  await page.getByTestId('link-w1-w2').click();
  await expect.poll(() => version(page, 'w2'), { timeout: 60_000 }).toBeGreaterThan(Math.max(...frozen) + 1);
});

test('the linearizability tab loads its panel when first opened; a verdict survives a tab switch', async ({ page }) => {
  await page.goto('./?scenario=async-partition&autoplay=1&speed=5&backend=wasm');
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await waitSim(page, 1500);
  // Loaded on demand (issue 9): nothing of it before the tab is reached.
  await expect(page.getByTestId('linearizability-panel')).toHaveCount(0);
  await page.getByTestId('show-linearizability').click();
  await expect(page.getByTestId('linearizability-panel')).toBeVisible();
  await page.getByTestId('lin-check').click();
  await expect(page.getByTestId('lin-verdict')).toHaveAttribute('data-result', /^(linearizable|not-linearizable|unknown)$/);
  await page.locator('.checks-tabs').getByRole('tab').first().click();
  await expect(page.getByTestId('linearizability-panel')).toBeHidden();
  await page.getByTestId('show-linearizability').click();
  await expect(page.getByTestId('lin-verdict')).toBeVisible();
});

test('a bad #scenario= shows an error naming the problem and keeps the loaded scenario', async ({ page }) => {
  await page.goto('./?scenario=async-partition');
  await expect(page.getByTestId('node-s0')).toBeVisible();
  const bad = Buffer.from(JSON.stringify({ schema: 1, id: 'x', seed: 1, durationMs: 1000, cluster: { workers: 2 }, strategy: { kind: 'allreduce' }, timeline: [{ at: 10, do: 'partition', groups: [['w0'], ['w9']] }] })).toString('base64url');
  await page.goto(`./?scenario=async-partition#scenario=${bad}`);
  await expect(page.getByTestId('error')).toContainText('timeline[0].groups');
  await expect(page.getByTestId('error')).toContainText('w9');
  await expect(page.getByTestId('node-w0')).toBeVisible();
});

test('a worker that crashes marks its node failed, shows the error, and the others keep training', async ({ page }) => {
  await page.goto('./?scenario=async-partition&autoplay=1&speed=2&backend=wasm');
  await expect.poll(() => version(page, 'w0'), { timeout: 60_000 }).toBeGreaterThan(3);
  await page.evaluate(() => (window as unknown as { capPlayground: { injectFault(n: string, m: string): void } }).capPlayground.injectFault('w2', 'throw'));
  await expect(page.getByTestId('node-w2')).toHaveAttribute('data-up', 'false', { timeout: 30_000 });
  await expect(page.getByTestId('error')).toContainText('w2');
  const v = await version(page, 'w0');
  await expect.poll(() => version(page, 'w0'), { timeout: 60_000 }).toBeGreaterThan(v + 3);
  await expect(page.getByTestId('run-status')).toHaveText('running');
});

for (const [w, h] of [
  [1280, 720],
  [1920, 1080],
] as const) {
  for (const lang of ['en', 'zh'] as const) {
    test(`screenshot of the main view during a partition at ${w}×${h} (${lang})`, async ({ page }) => {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`./?scenario=async-partition&autoplay=1&speed=4&backend=wasm&lang=${lang}`);
      await expect.poll(() => simTime(page), { timeout: 60_000 }).toBeGreaterThan(9000);
      await page.getByTestId('play').click(); // pause: messages freeze mid-flight
      await expect(page.getByTestId('run-status')).toHaveText('paused');
      await page.screenshot({ path: `e2e-artifacts/main-${lang}-${w}x${h}.png` });
      // Every test id of CONTRACTS.md §4 is present.
      for (const id of ['run-status', 'sim-time', 'schedule-hash', 'metric-divergence', 'metric-staleness', 'node-w0', 'node-s0', 'link-w0-s0']) {
        await expect(page.getByTestId(id).first()).toBeAttached();
      }
      await expect(page.getByTestId('expectation').first()).toBeAttached();
    });
  }
}

test('16 logical workers run on the worker pool of a 2-core machine and finish', async ({ page }) => {
  const scenario = {
    schema: 1,
    id: 'sixteen',
    seed: 3,
    durationMs: 3000,
    cluster: { workers: 16 },
    model: { dataset: 'circles', hidden: [8, 8], batchSize: 16, learningRate: 0.2, samples: 400 },
    strategy: { kind: 'allreduce' },
    expect: [{ at: 'end', metric: 'versionConflicts', op: '==', value: 0 }, { at: 'end', metric: 'steps', node: 'w15', op: '>', value: 5 }],
  };
  const hash = Buffer.from(JSON.stringify(scenario)).toString('base64url');
  await page.goto(`./?autoplay=1&speed=max&backend=wasm#scenario=${hash}`);
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: 110_000 });
  await expect(page.getByTestId('node-w15')).toBeAttached();
  const expectations = page.getByTestId('expectation');
  for (let i = 0; i < (await expectations.count()); i++) await expect(expectations.nth(i)).toHaveAttribute('data-pass', 'true');
  const workers = await page.evaluate(() => navigator.hardwareConcurrency);
  test.info().annotations.push({ type: 'pool', description: `hardwareConcurrency ${workers}` });
});

test('sixteen workers around five Raft servers: no two glyphs overlap and a plain click on any node selects it', async ({ page }) => {
  const scenario = JSON.parse(readFileSync('public/scenarios/raft-ps-majority.json', 'utf8'));
  scenario.cluster.workers = 16;
  scenario.expect = [];
  await page.goto(`./?backend=wasm#scenario=${Buffer.from(JSON.stringify(scenario)).toString('base64url')}`);
  await expect(page.getByTestId('node-w15')).toBeVisible();
  const ids = [...Array.from({ length: 5 }, (_, i) => `s${i}`), ...Array.from({ length: 16 }, (_, i) => `w${i}`)];
  // Playwright clicks the centre of the node group's box: it must be the glyph, not a label or a neighbour.
  for (const id of ids) {
    await page.getByTestId(`node-${id}`).click();
    await expect(page.getByTestId(`node-${id}`)).toHaveClass(/\bselected\b/);
  }
  // With a node selected (the panel at its smallest), the worker discs stay apart.
  const discs = await page.locator('g.cv-node:not(.infra) path.cv-shape').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2, r: r.width / 2 };
    }),
  );
  expect(discs).toHaveLength(16);
  for (let i = 0; i < discs.length; i++)
    for (let j = i + 1; j < discs.length; j++) expect(Math.hypot(discs[i].x - discs[j].x, discs[i].y - discs[j].y)).toBeGreaterThanOrEqual(discs[i].r + discs[j].r);
  await page.screenshot({ path: 'e2e-artifacts/sixteen-raft-selected.png' });
});

test('a drawn version label may trail a running run by a tenth of a second, and says the node\'s version once it pauses', async ({ page }) => {
  const scenario = JSON.parse(readFileSync('public/scenarios/raft-ps-majority.json', 'utf8'));
  scenario.cluster.workers = 16;
  scenario.timeline = [];
  scenario.expect = [];
  await page.goto(`./?autoplay=1&speed=1&backend=wasm#scenario=${Buffer.from(JSON.stringify(scenario)).toString('base64url')}`);
  await expect.poll(() => version(page, 'w15'), { timeout: 60_000 }).toBeGreaterThan(20);
  // What the labels draw against the data-version hooks (which follow every frame): labels left
  // out for room have no text.
  const drawnVsHook = () =>
    page.locator('.cv-topo-front g.cv-node').evaluateAll((gs) =>
      gs.flatMap((g) => {
        const text = g.querySelector('text.cv-ver')?.textContent ?? '';
        return text === '' || text === `v${g.getAttribute('data-version')}` ? [] : [`${g.getAttribute('data-testid')}: ${text} vs v${g.getAttribute('data-version')}`];
      }),
    );
  await page.keyboard.press('Space');
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  // No frame follows a pause: what waited is written by the rate limiter's timer.
  await expect.poll(drawnVsHook, { timeout: 2_000 }).toEqual([]);
});

/** Pixels of two same-sized screenshots whose colours differ by `least` or more in some channel, counted in `page`. */
function differingPixels(page: Page, a: Buffer, b: Buffer, least: number): Promise<number> {
  return page.evaluate(
    async ([x, y, min]) => {
      const pixels = async (b64: string): Promise<Uint8ClampedArray> => {
        const bm = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))]));
        const g = new OffscreenCanvas(bm.width, bm.height).getContext('2d')!;
        g.drawImage(bm, 0, 0);
        return g.getImageData(0, 0, bm.width, bm.height).data;
      };
      const [p, q] = await Promise.all([pixels(x), pixels(y)]);
      let n = 0;
      for (let i = 0; i < p.length; i += 4) if (Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i + 1] - q[i + 1]), Math.abs(p[i + 2] - q[i + 2])) >= min) n++;
      return n;
    },
    [a.toString('base64'), b.toString('base64'), least] as const,
  );
}

test('the paint worker paints the moving parts as the SVG layer draws them', async ({ browser }) => {
  // One shared moment (3.17 s: a vote in flight, three lost messages' ✕ fading) in this page, whose
  // layer is a canvas the worker paints, and in one without OffscreenCanvas, which keeps the SVG.
  const url = './?scenario=raft-ps-majority&autoplay=1&speed=max&backend=wasm&at=3170';
  // At two device pixels per CSS pixel, as on most laptops: a dot is a few hundred pixels, not a few dozen.
  const context = { baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 720 }, deviceScaleFactor: 2 };
  const page = await (await browser.newContext(context)).newPage();
  const fallback = await (await browser.newContext(context)).newPage();
  await fallback.addInitScript('delete HTMLCanvasElement.prototype.transferControlToOffscreen');
  type Layer = Element & { cvFrame?: { items: Array<{ d: string }> } };
  const stage = async (p: Page, canvas: boolean): Promise<Buffer> => {
    await p.goto(url);
    await expect(p.locator('.cv-timeline svg[role=slider]')).toHaveAttribute('aria-valuenow', '3170', { timeout: 60_000 });
    const drawn = (): Promise<number> =>
      p.locator('.cv-topo-moving').evaluate((el: Layer) => {
        const f = el.cvFrame;
        const paths = el instanceof HTMLCanvasElement ? (f?.items ?? []).map((k) => k.d) : [...el.querySelectorAll('path')].map((q) => q.getAttribute('d') ?? '');
        return paths.filter((d) => d !== '').length;
      });
    await expect.poll(drawn).toBeGreaterThan(1);
    expect(await p.locator('.cv-topo-moving').evaluate((el) => el instanceof HTMLCanvasElement)).toBe(canvas);
    // The worker paints on its own clock: give it a few frames.
    await p.waitForTimeout(500);
    return p.locator('.cv-topo-stage').screenshot();
  };
  const painted = await stage(page, true);
  const svg = await stage(fallback, false);
  // The same page without the layer: what the layer adds.
  await page.locator('.cv-topo-moving').evaluate((el: HTMLElement) => (el.style.visibility = 'hidden'));
  await page.waitForTimeout(200);
  const without = await page.locator('.cv-topo-stage').screenshot();
  // Half the range or more in some channel: anti-aliasing differs by less.
  const differing = (a: Buffer, b: Buffer): Promise<number> => differingPixels(page, a, b, 128);
  expect(await differing(painted, without), 'the layer paints something').toBeGreaterThan(40);
  expect(await differing(painted, svg), 'canvas and SVG differ beyond anti-aliasing').toBeLessThan(8);
  await page.context().close();
  await fallback.context().close();
});

test('the paint worker paints the time-space diagram\'s messages on the wire', async ({ browser }) => {
  const page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 720 }, deviceScaleFactor: 2 })).newPage();
  await page.goto('./?scenario=raft-ps-majority&autoplay=1&speed=0.25&backend=wasm');
  await expect(page.getByTestId('run-status')).toHaveText('running');
  const live = page.locator('.cv-timeline canvas.cv-live-layer');
  // Paused with a message on the wire drawn at least 20 px long (the last frame painted rides on
  // the canvas; a message just sent is a dot): the run is resumed and paused again until it is.
  type Layer = HTMLCanvasElement & { cvFrame?: { items: Array<{ name: string; d: string }> } };
  const longest = (): Promise<number> =>
    live.evaluate((el: Layer) =>
      Math.max(
        0,
        ...(el.cvFrame?.items ?? [])
          .filter((i) => i.name === 'cv-live-flying')
          .flatMap((i) => [...i.d.matchAll(/M(-?[\d.]+),(-?[\d.]+)L(-?[\d.]+),(-?[\d.]+)/g)].map((m) => Math.hypot(Number(m[3]) - Number(m[1]), Number(m[4]) - Number(m[2])))),
      ),
    );
  for (let tries = 0; ; tries++) {
    await expect.poll(longest, { timeout: 30_000, intervals: [30] }).toBeGreaterThanOrEqual(20);
    await page.keyboard.press('Space');
    await expect(page.getByTestId('run-status')).toHaveText('paused');
    await page.waitForTimeout(500);
    if ((await longest()) >= 20 || tries === 5) break;
    await page.keyboard.press('Space');
  }
  expect(await longest()).toBeGreaterThanOrEqual(20);
  const painted = await page.locator('.cv-timeline').screenshot();
  await live.evaluate((el: HTMLElement) => (el.style.visibility = 'hidden'));
  await page.waitForTimeout(200);
  const without = await page.locator('.cv-timeline').screenshot();
  // A one-pixel line at 0.6 opacity: a quarter of the range is plenty.
  const differing = await differingPixels(page, painted, without, 32);
  expect(differing, 'the live layer paints the messages on the wire').toBeGreaterThan(10);
  await page.context().close();
});

test('the future veil, painted with the timeline\'s live layer, looks as the veil element does', async ({ browser }) => {
  // Both pages paused at 6.5 s of an 18-s run (the veil covers the rest, its edge the live cursor),
  // then scrubbed back to 3 s (the veil stays at the run's now, without its edge). Compared from the
  // veil's edge to the panel's right: before it, what sits on the settled canvas and what still rides
  // the live layer depends on wall-clock flushes, so overlapping marks stack differently.
  const context = { baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 720 }, deviceScaleFactor: 2 };
  const page = await (await browser.newContext(context)).newPage();
  const fallback = await (await browser.newContext(context)).newPage();
  await fallback.addInitScript('delete HTMLCanvasElement.prototype.transferControlToOffscreen');
  type Layer = Element & { cvFrame?: { items: Array<{ name: string; d: string }> } };
  const veilNames = (p: Page): Promise<string[]> => p.locator('.cv-veil-layer').evaluate((el: Layer) => (el.cvFrame?.items ?? []).filter((i) => i.name.startsWith('cv-future')).map((i) => i.name));
  let clip: { x: number; y: number; width: number; height: number } | null = null;
  const shot = async (p: Page): Promise<Buffer> => {
    await p.waitForTimeout(500);
    return p.screenshot({ clip: clip! });
  };
  const shots = async (p: Page, canvas: boolean): Promise<Buffer[]> => {
    await openScenario(p, 'raft-ps-majority');
    await runTo(p, 6500);
    await expect(p.locator('.cv-timeline .cv-future')).toHaveCount(canvas ? 0 : 1);
    if (canvas) {
      await expect.poll(() => veilNames(p)).toEqual(['cv-future', 'cv-future-edge']);
      const veilX = await p.locator('.cv-veil-layer').evaluate((el: Layer) => Number(/^M(-?[\d.]+),/.exec(el.cvFrame!.items.find((i) => i.name === 'cv-future')!.d)![1]));
      const box = (await p.locator('.cv-timeline').boundingBox())!;
      clip = { x: box.x + veilX, y: box.y, width: box.width - veilX, height: box.height };
    }
    const live = await shot(p);
    await scrubTo(p, 3000);
    if (canvas) await expect.poll(() => veilNames(p)).toEqual(['cv-future']);
    return [live, await shot(p)];
  };
  const painted = await shots(page, true);
  const element = await shots(fallback, false);

  for (const [i, what] of ['following the run', 'scrubbed back'].entries()) expect(await differingPixels(page, painted[i], element[i], 128), what).toBeLessThan(8);
  // What the veil covers: without it, the lanes run on in full after the run's now.
  await page.locator('.cv-veil-layer').evaluate((el: HTMLElement) => (el.style.visibility = 'hidden'));
  expect(await differingPixels(page, painted[1], await shot(page), 96), 'the veil covers the lanes after now').toBeGreaterThan(1000);
  await page.context().close();
  await fallback.context().close();
});

test('messages in flight are drawn on the links they cross: every dot lies between two nodes', async ({ page }) => {
  // Raft heartbeats, appends and their acks: several kinds in flight at once.
  await page.goto('./?scenario=raft-ps-majority&autoplay=1&speed=1&backend=wasm');
  await expect(page.getByTestId('run-status')).toHaveText('running');
  // The dots' first points and the nodes' centres, read in one frame (the dots move every frame).
  const seen = await page.waitForFunction(
    () => {
      const num = (s: string): number => Number(s);
      // The layer is a canvas the paint worker paints (its last frame rides on the element) or an SVG.
      const layer = document.querySelector('.cv-topo-moving') as (Element & { cvFrame?: { items: Array<{ name: string; d: string }> } }) | null;
      const frame = layer?.cvFrame;
      const ds = layer instanceof HTMLCanvasElement ? (frame?.items ?? []).filter((k) => k.name === 'cv-msg').map((k) => k.d) : [...(layer?.querySelectorAll('path.cv-msg') ?? [])].map((p) => p.getAttribute('d') ?? '');
      const starts = ds.flatMap((d) => [...d.matchAll(/M(-?[\d.]+),(-?[\d.]+)/g)].map((m) => [num(m[1]), num(m[2])]));
      if (starts.length < 2) return null;
      const nodes = [...document.querySelectorAll('.cv-topo-front g.cv-node')].flatMap((g) => {
        const m = /translate\((-?[\d.]+),(-?[\d.]+)\)/.exec(g.getAttribute('transform') ?? '');
        return m ? [[num(m[1]), num(m[2])]] : [];
      });
      return { starts, nodes };
    },
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
  const { starts, nodes } = (await seen.jsonValue())!;
  expect(nodes.length).toBe(9);
  /** Distance from p to the segment a–b. */
  const toSegment = ([px, py]: number[], [ax, ay]: number[], [bx, by]: number[]): number => {
    const dx = bx - ax;
    const dy = by - ay;
    const k = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(px - (ax + k * dx), py - (ay + k * dy));
  };
  for (const p of starts) {
    const nearest = Math.min(...nodes.flatMap((a, i) => nodes.slice(i + 1).map((b) => toSegment(p, a, b))));
    // A dot's first vertex is at most its symbol's radius (≤ 9 px here) off the line its message
    // follows, which runs 3.5 px beside the link's centre line (one side per direction).
    expect(nearest, `dot at ${p.join(',')}`).toBeLessThan(14);
  }
  // Following the run, the charts show no cursor (only a scrub puts one there): sampled over a second.
  await expect(page.getByTestId('run-status')).toHaveText('running');
  const shown: number[] = [];
  for (let i = 0; i < 10; i++) {
    shown.push(await page.locator('.cv-charts line.cv-cursor').evaluateAll((ls) => ls.filter((l) => getComputedStyle(l).display !== 'none').length));
    await page.waitForTimeout(100);
  }
  expect(shown, 'chart cursors shown while following the run').toEqual(Array(10).fill(0));
});
