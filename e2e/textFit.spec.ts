import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openScenario, runTo } from './fixtures';

/**
 * Text a reader needs whole is on screen whole, where it was once cut or ran together: a phone's
 * replica captions and checks tabs, a 1280-px strip's two-word metric names, and a timeline
 * legend too long for its line, which must show that it scrolls.
 */

/** Two animation frames: React commits, then the D3 effects draw. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** A lesson (guided; `present` for presenter mode) at a window size, run to `ms` (0: as it opens) and drawn. */
async function openLessonAt(page: Page, size: [number, number], lesson: string, lang: 'en' | 'zh', present: boolean, ms = 0, step?: string): Promise<void> {
  await page.setViewportSize({ width: size[0], height: size[1] });
  await page.goto(`./?${new URLSearchParams({ lesson, backend: 'wasm', lang, ...(present ? { present: '1' } : {}), ...(step ? { step } : {}) })}`);
  await expect(page.getByTestId('lesson-panel')).toBeVisible();
  if (ms > 0) await runTo(page, ms);
  await settle(page);
}

/** A scenario at a window size, run to `ms` and drawn. */
async function openAt(page: Page, size: [number, number], scenario: string, ms: number, opts: Parameters<typeof openScenario>[2] = { lang: 'en' }): Promise<void> {
  await page.setViewportSize({ width: size[0], height: size[1] });
  await openScenario(page, scenario, opts);
  await runTo(page, ms);
  await settle(page);
}

/** Each replica caption phrase stands apart from the next tile's (they ran together), in type of at least 12 px. */
async function expectPhrasesApart(page: Page, count: number, cells = '.cv-replica .cv-sub > span'): Promise<void> {
  const phrases = await page.locator(cells).evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { fig: el.closest('figure')?.dataset.testid ?? '', text: el.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom, px: parseFloat(getComputedStyle(el).fontSize) };
    }),
  );
  expect(phrases.length).toBe(count);
  for (const a of phrases) {
    expect(a.px, `"${a.text}" (${a.fig}) type`).toBeGreaterThanOrEqual(11.9);
    for (const b of phrases) {
      if (a.fig === b.fig || a.left >= b.left) continue;
      const sameLine = a.top < b.bottom && b.top < a.bottom;
      // Phrases of two tiles on one line: at least half an em between them.
      if (sameLine) expect(b.left - a.right, `"${a.text}" (${a.fig}) and "${b.text}" (${b.fig})`).toBeGreaterThanOrEqual(6);
    }
  }
}

test('a phone: each replica caption phrase stands apart from its neighbours; the checks tabs are not cut', async ({ page }) => {
  await openAt(page, [390, 844], 'async-partition', 3000);
  await expectPhrasesApart(page, 8);
  await expectTabsWhole(page);
});

/** Neither checks tab is cut to "…". */
async function expectTabsWhole(page: Page): Promise<string[]> {
  const tabs = await page.locator('.checks-tabs .tab').evaluateAll((els) => els.map((el) => ({ text: el.textContent ?? '', scroll: el.scrollWidth, client: el.clientWidth })));
  expect(tabs.length).toBe(2);
  for (const t of tabs) expect(t.scroll, `tab "${t.text}" is cut`).toBeLessThanOrEqual(t.client);
  return tabs.map((t) => t.text);
}

/** A built-in at 1280×720 grown to sixteen workers (the Workers field), run to `ms`: `nodes` in all. */
async function openSixteen(page: Page, scenario: string, nodes: number, ms: number): Promise<void> {
  await openAt(page, [1280, 720], scenario, 0);
  const workers = page.getByTestId('workers');
  await workers.fill('16');
  await workers.press('Enter');
  await expect(page.locator('.view-topology g.cv-node')).toHaveCount(nodes);
  await runTo(page, ms);
  await settle(page);
}

test("sixteen workers beside five Raft servers at 1280 presenter: no server's label runs into a worker's progress ring (s3's \"term 1\" touched w11's)", async ({ page }) => {
  // Presenter mode hides the Workers field: the sixteen come in a scenario file, as a shared link would.
  const sc = JSON.parse(readFileSync('public/scenarios/raft-ps-majority.json', 'utf8')) as Record<string, unknown>;
  const file = join(mkdtempSync(join(tmpdir(), 'cap-')), 'raft-ps-16.json');
  writeFileSync(file, JSON.stringify({ ...sc, id: 'raft-ps-16', cluster: { ...(sc.cluster as object), workers: 16 }, timeline: [], expect: [] }));
  await openAt(page, [1280, 720], file, 6000, { lang: 'en', query: { present: '1' } });
  await settle(page);
  const hits = await page.locator('.view-topology').evaluate((view) => {
    const box = (e: Element) => e.getBoundingClientRect();
    // The ring's outer edge: 5 px beyond the glyph (radius r + 2, 3 px wide).
    const rings = [...view.querySelectorAll('g.cv-node[data-testid^="node-w"]')].map((g) => {
      const r = box(g.querySelector('.cv-shape')!);
      return { id: g.getAttribute('data-testid'), x0: r.left - 5, x1: r.right + 5, y0: r.top - 5, y1: r.bottom + 5 };
    });
    const labels = [...view.querySelectorAll('g.cv-node[data-testid^="node-s"] text.cv-ver, g.cv-node[data-testid^="node-s"] text.cv-term')]
      .filter((t) => (t.textContent ?? '') !== '')
      .map((t) => ({ id: `${t.closest('g.cv-node')!.getAttribute('data-testid')} "${t.textContent}"`, r: box(t) }));
    const out: string[] = [];
    for (const l of labels) for (const g of rings) if (l.r.left < g.x1 && g.x0 < l.r.right && l.r.top < g.y1 && g.y0 < l.r.bottom) out.push(`${l.id} × ${g.id}`);
    return { labels: labels.length, out };
  });
  expect(hits.labels).toBeGreaterThan(0);
  expect(hits.out).toEqual([]);
});

test('sixteen workers at 1280×720: stacked replica captions stand apart, level with their key', async ({ page }) => {
  await openSixteen(page, 'async-partition', 17, 3000);
  // Four cells a tile (id, version, loss, accuracy): one row, none running into the next tile's.
  await expectPhrasesApart(page, 64, '.cv-replica .cv-stack > *');
  const tops = await page.locator('.cv-replica').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  // The key's words stand level with the first tile's loss and accuracy lines.
  const level = await page.evaluate(() => {
    const mid = (el: Element): number => {
      const r = el.getBoundingClientRect();
      return (r.top + r.bottom) / 2;
    };
    const key = [...document.querySelectorAll('.cv-replica-key > span')].slice(2).map(mid);
    const cells = [...document.querySelectorAll('.cv-replica .cv-stack')][0].children;
    return { key, cells: [mid(cells[2]), mid(cells[3])] };
  });
  expect(Math.abs(level.key[0] - level.cells[0])).toBeLessThan(2);
  expect(Math.abs(level.key[1] - level.cells[1])).toBeLessThan(2);
});

test('1280×720: a failed expectation\'s count does not cut the checks tabs to "…"', async ({ page }) => {
  // Sixteen workers (and three coordination servers): "degradedWorkers == 6" at 7.5 s fails.
  await openSixteen(page, 'degrade-merge-fencing', 19, 8000);
  const tabs = await expectTabsWhole(page);
  expect(tabs[0]).toMatch(/1 ✗/);
});

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

test("a phone: the servers panel's log starts after the badge, and each row's facts are whole inside it (on a third line where the second has no room)", async ({ page }) => {
  await openAt(page, [390, 844], 'raft-ps-majority', 12_500);
  const m = await page.locator('.sv-servers svg').first().evaluate((svg) => {
    const box = svg.getBoundingClientRect();
    return {
      right: box.right,
      rows: [...svg.querySelectorAll('g.sv-row')].map((g) => {
        const lines = [...g.querySelectorAll('text.sv-facts')].map((t) => ({ text: t.textContent ?? '', right: t.getBoundingClientRect().right }));
        const badge = g.querySelector('g.sv-badge')!.getBoundingClientRect();
        const hit = g.querySelector('rect.sv-loghit')!.getBoundingClientRect();
        return { id: g.getAttribute('data-testid'), facts: lines.map((l) => l.text).filter((x) => x).join(' · '), factsRight: Math.max(...lines.map((l) => l.right)), badgeRight: badge.right, logLeft: hit.width > 0 ? hit.left : null, logWidth: hit.width };
      }),
    };
  });
  const s1 = m.rows.find((r) => r.id === 'server-s1')!;
  // The log's columns begin right after the badge (they began past the term and commit, leaving four).
  expect(s1.logLeft! - s1.badgeRight).toBeLessThan(20);
  expect(s1.logWidth).toBeGreaterThan(150);
  for (const r of m.rows) {
    expect(r.facts, `${r.id}: facts whole`).toMatch(/^leader (s\d|unknown) · voted for s\d$/);
    expect(r.factsRight, `${r.id}: facts inside the panel`).toBeLessThanOrEqual(m.right);
  }
  // A Kafka consumer's facts take a second line there too, whole.
  await openScenario(page, 'kafka-log-lag', { lang: 'en' });
  await runTo(page, 9000);
  await settle(page);
  const consumer = await page.locator('.sv-servers svg [data-testid="server-s1"] text.sv-facts').evaluateAll((els) => els.map((e) => e.textContent ?? '').filter((x) => x));
  expect(consumer.join(' · ')).toMatch(/^offset \d+ · lag \d+ · (caught up|caught up at last fetch|replaying)$/);
});

test('1280 px: every metric name in the strip is whole ("overwritten entries" ended in "…")', async ({ page }) => {
  await openAt(page, [1280, 720], 'coordination-fencing', 2000);
  const labels = await page.locator('.metrics-strip .metric-label').evaluateAll((els) =>
    els.map((el) => ({ text: el.textContent ?? '', sw: el.scrollWidth, cw: el.clientWidth, sh: el.scrollHeight, ch: el.clientHeight })),
  );
  expect(labels.map((l) => l.text)).toContain('overwritten entries');
  for (const l of labels) {
    expect(l.sw, `"${l.text}" is cut at the side`).toBeLessThanOrEqual(l.cw);
    expect(l.sh, `"${l.text}" needs more than its lines`).toBeLessThanOrEqual(l.ch + 1);
  }
});

test('a timeline legend longer than its line fades at the edge that has more, and follows the scroll', async ({ page }) => {
  await openAt(page, [1280, 720], 'paxos-vs-2pc', 5000, { lang: 'en', query: { present: '1' } });
  const legend = page.locator('.cv-kinds');
  const state = () =>
    legend.evaluate((el) => ({
      over: el.scrollWidth - el.clientWidth,
      before: el.classList.contains('more-before'),
      after: el.classList.contains('more-after'),
      mask: getComputedStyle(el).maskImage,
    }));
  const atStart = await state();
  expect(atStart.over, 'the legend overflows at 1280 presenter').toBeGreaterThan(0);
  expect([atStart.before, atStart.after]).toEqual([false, true]);
  expect(atStart.mask).toContain('linear-gradient');
  await legend.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  await expect.poll(async () => [(await state()).before, (await state()).after]).toEqual([true, false]);
  // Out of presenter mode at 1920 px the line fits: no fade is left behind.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.getByRole('button', { name: /^(Presenter|演示模式)$/ }).click();
  await expect.poll(async () => (await state()).over).toBeLessThanOrEqual(0);
  await expect.poll(async () => { const s = await state(); return [s.before, s.after, s.mask]; }).toEqual([false, false, 'none']);
});

test("1920 presenter: the servers panel's heading clears its legend, and each role badge holds its word", async ({ page }) => {
  await openAt(page, [1920, 1080], 'kafka-log-lag', 1000, { lang: 'zh', query: { present: '1' } });
  const panel = page.locator('.sv-servers svg').first();
  const m = await panel.evaluate((svg) => {
    const box = (el: Element | null) => (el ? (el as SVGGraphicsElement).getBBox() : null);
    const title = box(svg.querySelector('.sv-title'));
    const legend = [...svg.querySelectorAll('g.sv-legend')].map((g) => g.getBoundingClientRect().top - svg.getBoundingClientRect().top);
    const badges = [...svg.querySelectorAll('g.sv-badge')].map((g) => ({ rect: box(g.querySelector('rect'))!.height, text: box(g.querySelector('text'))!.height }));
    return { titleBottom: title ? title.y + title.height : 0, legendTop: Math.min(...legend), badges };
  });
  expect(m.badges.length).toBeGreaterThanOrEqual(5);
  // Here the legend has the second line to itself, under the heading: never across its letters.
  expect(m.titleBottom).toBeLessThanOrEqual(m.legendTop + 2);
  for (const b of m.badges) expect(b.rect, 'a badge shorter than its word').toBeGreaterThanOrEqual(b.text - 1);
});

test("Kafka's brokers keep their ISR and LEO on one-line rows: at each row's end, after the log, inside the panel", async ({ page }) => {
  await openAt(page, [1280, 720], 'kafka-acks-isr', 6000); // b0 has crashed; b1 leads with ISR {b1, b2}
  const rows = await page.locator('.sv-servers svg').first().evaluate((svg) => {
    const right = svg.getBoundingClientRect().right;
    return [...svg.querySelectorAll('g.sv-row')].map((g) => {
      const facts = g.querySelector('text.sv-facts') as SVGGraphicsElement;
      const f = facts.getBoundingClientRect();
      const hit = g.querySelector('rect.sv-loghit')!.getBoundingClientRect();
      return { id: g.getAttribute('data-testid'), text: facts.textContent, shown: getComputedStyle(facts).display !== 'none', left: f.left, right: f.right, logRight: hit.width > 0 ? hit.right : 0, panelRight: right };
    });
  });
  const leader = rows.find((r) => r.id === 'server-b1')!;
  expect(leader.text).toMatch(/^ISR \{b1, b2\} · LEO \d+$/);
  for (const r of rows.filter((x) => x.id !== 'server-s0')) {
    expect(r.shown, `${r.id}: facts shown`).toBe(true);
    expect(r.left, `${r.id}: after its log`).toBeGreaterThanOrEqual(r.logRight);
    expect(r.right, `${r.id}: inside the panel`).toBeLessThanOrEqual(r.panelRight);
  }
});

test("a deposed leader cut off in the minority says where its log ends, rather than show an empty row; each row ends with whose vote it holds", async ({ page }) => {
  await openAt(page, [1280, 720], 'raft-ps-majority', 12_500); // partitioned: s1 leads the majority in term 3; s0 still believes it leads term 2
  const rows = await page.locator('.sv-servers svg').first().evaluate((svg) => {
    const right = svg.getBoundingClientRect().right;
    return [...svg.querySelectorAll('g.sv-row')].map((g) => {
      const tail = g.querySelector('text.sv-tail') as SVGGraphicsElement;
      const r = tail.getBoundingClientRect();
      const facts = g.querySelector('text.sv-facts') as SVGGraphicsElement;
      const f = facts.getBoundingClientRect();
      return {
        id: g.getAttribute('data-testid'),
        role: g.getAttribute('data-role'),
        commit: Number(g.getAttribute('data-commit')),
        text: tail.textContent ?? '',
        right: r.right,
        panelRight: right,
        boxes: g.querySelector('rect.sv-loghit')!.getBoundingClientRect().width > 0,
        facts: getComputedStyle(facts).display === 'none' ? null : facts.textContent,
        factsLeft: f.left,
        factsRight: f.right,
      };
    });
  });
  const s0 = rows.find((r) => r.id === 'server-s0')!;
  expect(s0.role).toBe('leader');
  expect(s0.boxes).toBe(false);
  // In full where the log area has room, else in short (the row's facts take the row's end).
  const m = /^◂ (?:log ends at #(\d+) · term 2 · not committed|ends at #(\d+))$/.exec(s0.text);
  expect(m, s0.text).not.toBeNull();
  expect(Number(m![1] ?? m![2])).toBeGreaterThan(s0.commit); // entries it appended alone, never committed
  expect(s0.right).toBeLessThanOrEqual(s0.panelRight);
  for (const r of rows.filter((x) => x.boxes)) expect(r.text, `${r.id} shows its boxes`).toBe('');
  // Each one-line row ends with its facts (whose vote, which leader): after the tail, inside the panel.
  expect(rows.find((r) => r.id === 'server-s1')!.facts).toBe('leader s1 · voted for s1');
  for (const r of rows) {
    expect(r.facts, `${r.id}: facts shown`).toMatch(/voted for s\d$/);
    expect(r.factsLeft, `${r.id}: facts after the tail`).toBeGreaterThan(r.right);
    expect(r.factsRight, `${r.id}: facts inside the panel`).toBeLessThanOrEqual(r.panelRight);
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

test('a 1024-px projector: every metric value is whole, long ones smaller ("364160" was cut to "3641…")', async ({ page }) => {
  await openAt(page, [1024, 768], 'async-partition', 12_000, { lang: 'en', query: { present: '1' } });
  const values = await page.locator('.metrics-strip .metric-value').evaluateAll((els) =>
    els.map((el) => ({ id: (el as HTMLElement).dataset.testid, text: el.textContent ?? '', sw: el.scrollWidth, cw: el.clientWidth, px: parseFloat(getComputedStyle(el).fontSize) })),
  );
  const bytes = values.find((v) => v.id === 'metric-bytes')!;
  expect(bytes.text.length).toBeGreaterThanOrEqual(6);
  for (const v of values) expect(v.sw, `${v.id} "${v.text}" is cut`).toBeLessThanOrEqual(v.cw);
  // Only what needs it shrinks: a short value keeps the strip's size.
  const short = values.find((v) => v.id === 'metric-staleness')!;
  expect(short.px).toBeGreaterThan(bytes.px);
});

test("the topology's gesture hint is whole at a desk's 1024 px, each gesture on its own line (it ended \"…across the middl…\"), and a projector's lesson or a narrow column leaves it out", async ({ page }) => {
  const whole = 'click a link: cut / restore · drag a worker across the middle: partition';
  // Where it fits one line, it reads as one sentence ("restore ·drag" lost the space).
  await openAt(page, [1280, 720], 'raft-ps-majority', 500);
  expect(await page.locator('.view-topology .cv-hint').evaluate((el: HTMLElement) => el.innerText.replace(/\s+/g, ' ').trim())).toBe(whole);
  await openAt(page, [1024, 768], 'raft-ps-majority', 500);
  const hint = page.locator('.view-topology .cv-hint');
  await expect(hint).toHaveText(whole);
  const box = await hint.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth, right: el.getBoundingClientRect().right }));
  expect(box.sw, 'the hint runs past its line').toBeLessThanOrEqual(box.cw);
  const parts = await hint.locator('span').evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ top: Math.round(r.top), right: r.right })));
  expect(parts).toHaveLength(2);
  for (const p of parts) expect(p.right).toBeLessThanOrEqual(box.right + 0.5);
  // At 1024 px the two gestures do not fit one line: they wrap whole, the second under the first.
  expect(parts[1].top).toBeGreaterThan(parts[0].top);
  await openLessonAt(page, [1920, 1080], 'raft-ps-majority', 'en', true);
  await expect(page.locator('.lesson-stage .view-topology')).toBeVisible();
  await expect(page.locator('.lesson-stage .cv-hint')).toBeHidden();
  // A one-run lesson at a desk's 1024 px: a 248-px column, where the hint would take three lines.
  await openLessonAt(page, [1024, 768], 'raft-ps-majority', 'en', false);
  await expect(page.locator('.lesson-stage .view-topology')).toBeVisible();
  await expect(page.locator('.lesson-stage .cv-hint')).toBeHidden();
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
