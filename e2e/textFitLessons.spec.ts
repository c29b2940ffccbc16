import { expect, test } from '@playwright/test';
import { runTo } from './fixtures';
import { expectPhrasesApart, openLessonAt, settle } from './textFit';

/**
 * Text a reader needs whole is on screen whole in a lesson and on the way into one: variant titles
 * and CAP chips, readouts, the run time, the lesson's name, its charts' titles, and room for each
 * panel to draw at a projector's 1024 px. textFit.spec.ts has the views of a free run.
 */

test("a lesson's free play, eight workers, 1280 presenter: the replicas' captions stand apart, and the way back to the lesson covers no metric", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`./?${new URLSearchParams({ lesson: 'ssp-bounded-staleness', backend: 'wasm', lang: 'en', mode: 'free', present: '1' })}`);
  const back = page.getByTestId('lesson-guided');
  await expect(back).toBeInViewport({ ratio: 1 });
  await runTo(page, 3000);
  await settle(page);
  await expectPhrasesApart(page, 16);
  const backBox = (await back.boundingBox())!;
  const metrics = await page.locator('.metric').evaluateAll((els) => els.map((el) => {
      const r = el.getBoundingClientRect();
      return { text: el.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }),
  );
  expect(metrics.length).toBeGreaterThan(8);
  for (const m of metrics) {
    const overlap = m.left < backBox.x + backBox.width && backBox.x < m.right && m.top < backBox.y + backBox.height && backBox.y < m.bottom;
    expect(overlap, `"${m.text}" under the button`).toBe(false);
  }
});

test("a lesson's short servers panel draws every row, smaller where it must (lesson 9's second consumer, the one it is about, was cut)", async ({ page }) => {
  await openLessonAt(page, [1280, 720], 'kafka-log-lag', 'en', true, 2000);
  const m = await page.locator('.sv-servers svg').first().evaluate((svg) => {
    const box = svg.getBoundingClientRect();
    const rows = [...svg.querySelectorAll('g.sv-row')].map((g) => {
      const r = g.querySelector('rect.sv-band')!.getBoundingClientRect();
      return { id: g.getAttribute('data-testid'), top: r.top, bottom: r.bottom };
    });
    return { top: box.top, bottom: box.bottom, rows };
  });
  expect(m.rows.map((r) => r.id)).toEqual(['server-b0', 'server-b1', 'server-b2', 'server-s0', 'server-s1']);
  for (const r of m.rows) expect(r.bottom, `${r.id} inside the panel`).toBeLessThanOrEqual(m.bottom + 0.5);
});

test('a lesson\'s variant titles and CAP chips are whole at 1280 presenter ("ZooKeeper lock, no fenc…", "PC/…")', async ({ page }) => {
  await openLessonAt(page, [1280, 720], 'coordination-fencing', 'en', true);
  await expect(page.locator('.vp .vp-title')).toHaveCount(2);
  const heads = await page.locator('.vp .vp-head').evaluateAll((els) =>
    els.map((h) => {
      const title = h.querySelector('.vp-title') as HTMLElement;
      const chip = h.querySelector('.cap-chip') as HTMLElement;
      return { title: title.textContent, cut: title.scrollHeight > title.clientHeight + 1 || title.scrollWidth > title.clientWidth + 1, chip: chip.textContent, chipCut: chip.scrollWidth > chip.clientWidth + 1 };
    }),
  );
  expect(heads.map((h) => h.title)).toEqual(['ZooKeeper lock, no fencing', 'ZooKeeper lock + fencing token']);
  for (const h of heads) {
    expect(h.cut, `${h.title}: whole`).toBe(false);
    expect(h.chipCut, `${h.title}: chip ${h.chip} whole`).toBe(false);
  }
});

test('side-by-side panels line up when only one title takes two lines (L11 at 1920 presenter: one panel\'s drawings sat 23 px lower), and so does the comparison card', async ({ page }) => {
  const parts = ['.vp-head', '.vp-body', '.view-topology', '.view-timeline', '.view-charts', '.vp-checks'];
  const tops = async (): Promise<Array<{ title: string; lines: number; at: Record<string, number> }>> =>
    page.locator('.vp:not(.vp-compare)').evaluateAll((els, sel) =>
      els.map((v) => {
        const title = v.querySelector('.vp-title') as HTMLElement;
        const at: Record<string, number> = {};
        for (const s of sel) {
          const el = v.querySelector(s);
          if (el && el.getBoundingClientRect().height > 0) at[s] = Math.round(el.getBoundingClientRect().top);
        }
        return { title: title.textContent ?? '', lines: Math.round(title.getBoundingClientRect().height / parseFloat(getComputedStyle(title).lineHeight)), at };
      }),
    parts);
  await openLessonAt(page, [1920, 1080], 'coordination-fencing', 'en', true);
  const two = await tops();
  // The case this is about: one title on one line, the other on two.
  expect(two.map((p) => p.lines).sort()).toEqual([1, 2]);
  expect(Object.keys(two[0].at).length).toBeGreaterThanOrEqual(5);
  expect(two[1].at, `${two[0].title} | ${two[1].title}`).toEqual(two[0].at);

  // Three variants and the comparison card, two rows of two: each row's panels line up.
  await openLessonAt(page, [1280, 720], 'kafka-acks-isr', 'en', true, 0, 'isr.1');
  const four = await page.locator('.vp').evaluateAll((els) =>
    els.map((v) => {
      const body = v.querySelector(':scope > .vp-body, :scope > .vp-compare-body')!.getBoundingClientRect();
      return { top: Math.round(v.getBoundingClientRect().top), body: Math.round(body.top) };
    }),
  );
  expect(four).toHaveLength(4);
  expect(four[1]).toEqual(four[0]);
  expect(four[3]).toEqual(four[2]);
  expect(four[2].top).toBeGreaterThan(four[0].body);
});

test("a lesson's focused metric readout is whole at 1280 presenter (L13's accuracy read '0.9…', the number the step points at)", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`./?${new URLSearchParams({ lesson: 'secure-updates-byzantine', backend: 'wasm', lang: 'en', present: '1', step: '1.3' })}`);
  const values = page.locator('[data-testid="variant-metric-accuracy"]');
  await expect(values).toHaveCount(2);
  // Once the runs have a sample, each value holds three digits after the point.
  await expect(values.first()).toHaveText(/^\d\.\d{3}$/, { timeout: 60_000 });
  const cut = await values.evaluateAll((els) => els.map((el) => ({ text: el.textContent ?? '', cut: el.scrollWidth > el.clientWidth + 1 })));
  for (const c of cut) expect(c.cut, `"${c.text}" whole`).toBe(false);
});

test('the run time in the top bar is whole on one line ("t=1.9" lost its " s" on runs under 10 s)', async ({ page }) => {
  for (const present of [false, true]) {
    await openLessonAt(page, [1280, 720], 'raft-figure-8', 'en', present, 1900);
    const m = await page.locator('.sim-time-text').evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const rects = [...range.getClientRects()];
      return { text: el.textContent ?? '', lines: new Set(rects.map((r) => Math.round(r.top))).size, right: Math.max(...rects.map((r) => r.right)), boxRight: el.getBoundingClientRect().right };
    });
    expect(m.text).toBe('t=1.9 s');
    expect(m.lines, `presenter ${present}: one line`).toBe(1);
    expect(m.right, `presenter ${present}: inside its box`).toBeLessThanOrEqual(m.boxRight + 1);
  }
});

test("1920 presenter: each panel's timeline gives its nine lanes room for their names at full size and their versions (13 px lanes had both at the floor or left out)", async ({ page }) => {
  await openLessonAt(page, [1920, 1080], 'paxos-vs-2pc', 'en', true, 3000);
  const lanes = await page.locator('.vp .view-timeline').evaluateAll((views) =>
    views.map((v) => {
      const labels = [...v.querySelectorAll<SVGTextElement>('text.cv-lane-label')];
      const ys = labels.map((l) => Number(l.getAttribute('y')));
      return { count: labels.length, gap: Math.min(...ys.slice(1).map((y, i) => y - ys[i])), shrunk: labels.filter((l) => l.style.fontSize !== '').length };
    }),
  );
  expect(lanes).toHaveLength(2);
  for (const l of lanes) {
    expect(l.count).toBe(9);
    // 22 px: the least height at which a lane shows its versions (VersionTimeline).
    expect(l.gap, 'lane height').toBeGreaterThanOrEqual(22);
    expect(l.shrunk, 'lane names below the stylesheet size').toBe(0);
  }
});

test("1920 presenter: the last second on a timeline's or a chart's axis is whole inside its drawing (\"30 s\" ran past the edge)", async ({ page }) => {
  await openLessonAt(page, [1920, 1080], 'secure-updates-byzantine', 'zh', true);
  const cut = await page.locator('.vp .view-timeline, .vp .view-charts').evaluateAll((views) =>
    views.flatMap((view) =>
      [...view.querySelectorAll('.tick text')]
        .filter((t) => t.getBoundingClientRect().right > Math.min(view.getBoundingClientRect().right, t.closest('svg')!.getBoundingClientRect().right) - 1)
        .map((t) => t.textContent),
    ),
  );
  expect(await page.locator('.vp .view-timeline .cv-axis .tick text').filter({ hasText: '30 s' }).count()).toBe(2);
  expect(cut).toEqual([]);
});

test("1920 presenter: a link's choices wrap under its select in the lesson's narrow tools column (\"tamper\" was cut at the panel's edge)", async ({ page }) => {
  // The step that asks what s1's cut does selects s1's link to b0, with its choices.
  await openLessonAt(page, [1920, 1080], 'kafka-log-lag', 'en', true, 0, 'lag.3');
  await expect(page.locator('.col-left .tools .link-form button').filter({ hasText: 'cut s1↔b0' })).toBeVisible();
  const out = await page.locator('.col-left .tools .link-form').evaluate((form) => {
    const right = form.closest('.tools')!.getBoundingClientRect().right;
    return [...form.querySelectorAll('button, select, input')].filter((e) => e.getBoundingClientRect().right > right + 0.5).map((e) => e.textContent || e.tagName);
  });
  expect(out, "past the tools panel's right edge").toEqual([]);
});

test("a lesson's Try-it card shows the selected node's facts whole, on lines of their own", async ({ page }) => {
  await openLessonAt(page, [1920, 1080], 'paxos-vs-2pc', 'zh', true, 3000); // the step that waits for s4's crash selects s4
  const facts = page.locator('.try [data-testid="node-facts"]');
  await expect(facts).toContainText('学习者'); // s4's learner line, after its role and acceptor lines
  const m = await facts.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth, left: el.getBoundingClientRect().left, card: el.closest('.try')!.getBoundingClientRect().left }));
  expect(m.sw, 'not cut').toBeLessThanOrEqual(m.cw + 1);
  expect(m.left - m.card, 'starts its own line').toBeLessThan(30);
});

test('a phone: the landing doors and their close button are on screen, one door above the other', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./?backend=wasm&lang=zh');
  await expect(page.getByTestId('doors')).toBeVisible();
  const boxes = await page.locator('[data-testid="doors"] button').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right, top: r.top })));
  expect(boxes).toHaveLength(3);
  for (const b of boxes) {
    expect(b.left).toBeGreaterThanOrEqual(0);
    expect(b.right).toBeLessThanOrEqual(390);
  }
  expect(boxes[1].top, 'the second door under the first').toBeGreaterThan(boxes[0].top);
  await expect(page.getByTestId('door-lessons')).toContainText('选一节课'); // not 上一节课, "the previous lesson"
});

test("a phone: a one-run lesson's views stack, each as wide as the page (the right column was 130 px)", async ({ page }) => {
  await openLessonAt(page, [390, 844], 'raft-ps-majority', 'zh', false);
  const widths = await page.locator('.lesson-stage.single .view').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().width)));
  expect(widths.length).toBeGreaterThanOrEqual(4);
  for (const w of widths) expect(w).toBeGreaterThan(350);
});

test("a one-run lesson at 1024 presenter: its four charts keep a readable height and the panel scrolls, rather than squeeze two rows into 57 px", async ({ page }) => {
  await openLessonAt(page, [1024, 768], 'raft-ps-majority', 'en', true, 2000);
  const charts = page.locator('.lesson-stage .cv-charts');
  await expect(charts).toHaveClass(/\bscroll\b/);
  const heights = await charts.locator('.cv-chart').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
  expect(heights).toHaveLength(4);
  for (const h of heights) expect(h).toBeGreaterThanOrEqual(100);
});

test("a four-run lesson at 1024 presenter: each topology keeps room to draw under its legend (Raft PS's seven-kind legend left it 74 px)", async ({ page }) => {
  await openLessonAt(page, [1024, 768], 'interview-consistency-answer', 'en', true, 2000);
  const stages = await page.locator('.lesson-stage .cv-topo-stage').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
  expect(stages).toHaveLength(4);
  for (const h of stages) expect(h).toBeGreaterThanOrEqual(95);
});

test("a three-run act at 1024 presenter, 中文, with a readout: the readout is one line, the topology keeps room, no chart's y labels overlap", async ({ page }) => {
  await openLessonAt(page, [1024, 768], 'kafka-acks-isr', 'zh', true, 4000, '2.2');
  // Name and number side by side (stacked, they took 50 px from the panel).
  const readouts = await page.locator('.vp-metric').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
  expect(readouts.length).toBe(3);
  for (const h of readouts) expect(h).toBeLessThan(40);
  const stages = await page.locator('.lesson-stage .cv-topo-stage').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
  for (const h of stages) expect(h).toBeGreaterThanOrEqual(80);
  // Each chart's y tick labels stand apart ("1.0" was drawn over "0.50" in a 25-px plot).
  const axes = await page.locator('.lesson-stage .cv-y').evaluateAll((els) => els.map((g) => [...g.querySelectorAll('.tick text')].map((t) => { const r = t.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, text: t.textContent }; })));
  expect(axes.length).toBeGreaterThanOrEqual(6);
  for (const ticks of axes) {
    const sorted = [...ticks].sort((a, b) => a.top - b.top);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i].top, `${sorted[i - 1].text} / ${sorted[i].text}`).toBeGreaterThanOrEqual(sorted[i - 1].bottom - 0.5);
  }
});

test('four-digit versions stay inside their panel: the labels\' room grows with the longest version (the asynchronous PS\'s "v1357" ran past a 1280 desk panel\'s edge)', async ({ page }) => {
  await openLessonAt(page, [1280, 720], 'pacelc-barrier-stragglers', 'en', false, 24_000, '2.1');
  const panels = await page.locator('.lesson-stage .view-topology').evaluateAll((views) =>
    views.map((v) => {
      const stage = v.querySelector('.cv-topo-stage')!.getBoundingClientRect();
      const labels = [...v.querySelectorAll('text.cv-ver')].filter((t) => (t.textContent ?? '') !== '').map((t) => { const r = t.getBoundingClientRect(); return { text: t.textContent ?? '', left: r.left, right: r.right }; });
      return { left: stage.left, right: stage.right, labels };
    }),
  );
  expect(panels).toHaveLength(4);
  expect(panels.flatMap((p) => p.labels).some((l) => /^v\d{4,}$/.test(l.text)), 'the asynchronous PS is past v1000').toBe(true);
  for (const p of panels)
    for (const l of p.labels) {
      expect(l.left, `${l.text} inside on the left`).toBeGreaterThanOrEqual(p.left - 0.5);
      expect(l.right, `${l.text} inside on the right`).toBeLessThanOrEqual(p.right + 0.5);
    }
});

test("four rings of eight at 1024 presenter: no two version labels run together once versions have three digits (\"v178v179\")", async ({ page }) => {
  await openLessonAt(page, [1024, 768], 'pacelc-barrier-stragglers', 'en', true, 9000, '2.1');
  const panels = await page.locator('.lesson-stage .view-topology').evaluateAll((views) =>
    views.map((v) => [...v.querySelectorAll('text.cv-ver')].filter((t) => (t.textContent ?? '') !== '').map((t) => { const r = t.getBoundingClientRect(); return { text: t.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom }; })),
  );
  expect(panels).toHaveLength(4);
  // The asynchronous PS is past v100 by now.
  expect(panels.flat().some((l) => l.text.length >= 4)).toBe(true);
  for (const labels of panels)
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const [a, b] = [labels[i], labels[j]];
        const sameLine = a.top < b.bottom && b.top < a.bottom;
        if (sameLine) expect(Math.max(b.left - a.right, a.left - b.right), `${a.text} / ${b.text}`).toBeGreaterThanOrEqual(4);
      }
});

test("a lesson's name is whole in its panel at 1920 presenter, on the lines it needs (lesson 10's ended \"…min.insync.replica…\")", async ({ page }) => {
  for (const lang of ['en', 'zh'] as const) {
    await openLessonAt(page, [1920, 1080], 'kafka-acks-isr', lang, true);
    const name = page.locator('.lesson-name');
    await expect(name).toBeVisible();
    const m = await name.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth, sh: el.scrollHeight, ch: el.clientHeight, lh: parseFloat(getComputedStyle(el).lineHeight), title: el.getAttribute('title') }));
    expect(m.sw, `${lang}: the name runs past its line`).toBeLessThanOrEqual(m.cw);
    expect(m.sh, `${lang}: the name needs more than its lines`).toBeLessThanOrEqual(m.ch + 1);
    expect(m.ch, `${lang}: the name takes at most three lines`).toBeLessThanOrEqual(3 * m.lh + 1);
    expect(m.title).toBeTruthy();
  }
});

test("a one-run lesson at 1024 px before its run starts: each chart's title and \"no data yet\" are whole inside its chart (they read \"Replica divergenc\", \"no data ye\")", async ({ page }) => {
  await openLessonAt(page, [1024, 768], 'raft-ps-majority', 'en', false);
  const boxes = await page.locator('.lesson-stage .cv-chart').evaluateAll((charts) =>
    charts.map((c) => {
      const svg = c.querySelector('svg')!.getBoundingClientRect();
      const box = (sel: string) => {
        const t = c.querySelector(sel)!;
        const r = t.getBoundingClientRect();
        return { text: t.textContent, left: r.left, right: r.right };
      };
      return { title: box('text.cv-chart-title'), nodata: box('text.cv-nodata'), svgLeft: svg.left, svgRight: svg.right };
    }),
  );
  expect(boxes.length).toBeGreaterThan(0);
  for (const b of boxes) {
    expect(b.nodata.text).toBe('no data yet');
    for (const t of [b.title, b.nodata]) {
      expect(t.left).toBeGreaterThanOrEqual(b.svgLeft);
      expect(t.right, `"${t.text}" runs past its chart`).toBeLessThanOrEqual(b.svgRight);
    }
  }
  expect(boxes.map((b) => b.title.text)).toContain('Divergence');
});
