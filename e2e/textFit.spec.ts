import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openScenario, runTo } from './fixtures';
import { expectPhrasesApart, openAt, openLessonAt, settle } from './textFit';

/**
 * Text a reader needs whole is on screen whole, where it was once cut or ran together: a phone's
 * replica captions and checks tabs, a 1280-px strip's two-word metric names, and a timeline
 * legend too long for its line, which must show that it scrolls. The views of a run;
 * textFitLessons.spec.ts has a lesson's panels.
 */

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

test('a phone: each replica caption phrase stands apart from its neighbours; the checks tabs are not cut', async ({ page }) => {
  await openAt(page, [390, 844], 'async-partition', 3000);
  await expectPhrasesApart(page, 8);
  await expectTabsWhole(page);
});

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

for (const present of [false, true])
  test(`raft-ps-majority under its partition at 1280${present ? ' presenter' : ''}: four servers on one side, none touching, no label over a glyph or a crown, no glyph shrunk`, async ({ page }) => {
    // The arc put s1…s4 within 75 px, shrank them, and set s1's crown beside s2's glyph.
    await openAt(page, [1280, 720], 'raft-ps-majority', 9000, { lang: 'en', query: present ? { present: '1' } : {} });
    const seen = await page.locator('.view-topology').evaluate((view) => {
      const box = (e: Element) => e.getBoundingClientRect();
      const nodes = [...view.querySelectorAll('g.cv-node')].map((g) => ({ id: g.getAttribute('data-testid') ?? '', r: box(g.querySelector('.cv-shape')!) }));
      const crowns = [...view.querySelectorAll('g.cv-node text.cv-crown')]
        .filter((t) => getComputedStyle(t).display !== 'none')
        .map((t) => ({ id: `${t.closest('g.cv-node')!.getAttribute('data-testid')} crown`, r: box(t) }));
      const labels = [...view.querySelectorAll('g.cv-node[data-testid^="node-s"] text.cv-ver, g.cv-node[data-testid^="node-s"] text.cv-term')]
        .filter((t) => (t.textContent ?? '') !== '')
        .map((t) => ({ id: t.closest('g.cv-node')!.getAttribute('data-testid') ?? '', text: t.textContent ?? '', r: box(t) }));
      const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const out: string[] = [];
      for (const l of labels) for (const o of [...nodes, ...crowns]) if (!o.id.startsWith(l.id) && hit(l.r, o.r)) out.push(`${l.id} "${l.text}" × ${o.id}`);
      const servers = nodes.filter((n) => n.id.startsWith('node-s'));
      for (const a of servers) for (const b of servers) if (a.id < b.id && hit(a.r, b.r)) out.push(`${a.id} × ${b.id}`);
      return { out, labels: labels.length, crowns: crowns.length, workerW: nodes.find((n) => n.id === 'node-w0')!.r.width };
    });
    expect(seen.crowns).toBeGreaterThan(0);
    expect(seen.labels).toBeGreaterThanOrEqual(5);
    expect(seen.out).toEqual([]);
    // One radius serves every glyph: the arc shrank them all to 12.8 px (a worker 25.6 px wide).
    expect(seen.workerW).toBeGreaterThan(29);
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

test("a phone: the run's status stays on the row of the run's controls (it took a row of its own)", async ({ page }) => {
  await openAt(page, [390, 844], 'raft-partition', 500);
  await page.getByTestId('play').click();
  await expect(page.locator('.status-chip')).toHaveText('running'); // the longest of the statuses
  const middle = async (sel: string): Promise<number> => {
    const b = (await page.locator(sel).first().boundingBox())!;
    return b.y + b.height / 2;
  };
  const play = await middle('[data-testid="play"]');
  expect(Math.abs((await middle('.status-chip')) - play)).toBeLessThan(4);
  expect(Math.abs((await middle('.sim-time')) - play)).toBeLessThan(4);
});

test("a phone: a worker's actions are all in view, none behind a panel's scrolling edge, and its facts wrap rather than end in \"…\"", async ({ page }) => {
  await openAt(page, [390, 844], 'async-partition', 3000);
  await page.getByTestId('node-w0').click();
  const attacks = page.locator('.tools .tab-body button');
  await expect(attacks.filter({ hasText: 'A Little Is Enough' })).toBeVisible();
  const fit = await page.locator('.tools .tab-body').evaluate((body) => {
    const panel = body.closest('.tools')!.getBoundingClientRect();
    const facts = body.querySelector<HTMLElement>('[data-testid="node-facts"]');
    return {
      scroll: body.scrollHeight,
      client: body.clientHeight,
      below: [...body.querySelectorAll('button')].filter((b) => b.getBoundingClientRect().bottom > panel.bottom + 0.5).map((b) => b.textContent),
      factsCut: facts ? facts.scrollWidth > facts.clientWidth + 0.5 : null,
    };
  });
  expect(fit.below, 'buttons below the tools panel').toEqual([]);
  expect(fit.scroll, 'the tools body scrolls').toBeLessThanOrEqual(fit.client + 1);
  expect(fit.factsCut, "the node's facts end in …").toBe(false);
});

test('the tools body fades at an edge with more beyond it, and only there (a row cut in half read as the last one)', async ({ page }) => {
  await openAt(page, [1280, 720], 'async-partition', 500);
  const body = page.locator('.tools .tab-body');
  const fades = () =>
    body.evaluate((el) => {
      const cs = getComputedStyle(el);
      return { top: el.classList.contains('more-before'), bottom: el.classList.contains('more-after'), masked: cs.maskImage !== 'none', scrolls: el.scrollHeight > el.clientHeight + 1 };
    });
  // Nothing selected: one line of hint, nothing to scroll, no fade.
  expect(await fades()).toEqual({ top: false, bottom: false, masked: false, scrolls: false });
  // A worker's facts and attacks overflow the panel at 720 px: the bottom fades, then the top once scrolled.
  await page.getByTestId('node-w0').click();
  await expect(body.locator('button').filter({ hasText: 'A Little Is Enough' })).toHaveCount(1);
  await expect.poll(fades).toEqual({ top: false, bottom: true, masked: true, scrolls: true });
  await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect.poll(fades).toEqual({ top: true, bottom: false, masked: true, scrolls: true });
  // Another tab with nothing to scroll: no fade left over (a CSS scroll timeline kept its last one).
  await page.getByRole('tab', { name: 'Partition' }).click();
  await expect.poll(fades).toEqual({ top: false, bottom: false, masked: false, scrolls: false });
});

test("1280 px: the scenario picker shows its start, and its whole name on hover (\"Kafka unclean le…\")", async ({ page }) => {
  await openAt(page, [1280, 720], 'kafka-unclean-leader-election', 0);
  const select = page.locator('.scenario-field select');
  const shown = await select.evaluate((el: HTMLSelectElement) => ({ name: el.selectedOptions[0].textContent, title: el.title }));
  expect(shown.name).toContain('(kafka-unclean-leader-election)');
  expect(shown.title).toBe(shown.name);
});

test("a knob says what it does on hover, under the row or in the knobs panel when focused, in the page's language (the row shows only its key: \"rtoMs\", \"linger.ms\")", async ({ page }) => {
  await openAt(page, [1280, 720], 'allreduce-partition', 0);
  const rto = page.locator('label.knob').filter({ has: page.getByTestId('knob-rtoMs') });
  await rto.hover();
  await expect(rto).toHaveAttribute('title', /^Retransmission timeout \(ms\)/);
  // A touch screen or a keyboard shows no tooltip: the knob in focus says it under the row, and
  // the words stay out of the field's name.
  const tip = rto.getByTestId('knob-tip');
  await expect(tip).toBeHidden();
  await page.getByTestId('knob-rtoMs').focus();
  await expect(tip).toBeVisible();
  await expect(tip).toHaveText(/^Retransmission timeout \(ms\)/);
  await expect(page.getByRole('spinbutton', { name: 'rtoMs', exact: true })).toBeVisible();
  await page.getByTestId('knob-rtoMs').blur();
  await expect(tip).toBeHidden();
  await openAt(page, [1280, 720], 'kafka-log-lag', 0, { lang: 'zh' });
  await page.getByTestId('knobs-toggle').click();
  const linger = page.locator('label.knob').filter({ has: page.getByTestId('knob-linger.ms') });
  await expect(linger).toHaveAttribute('title', /^生产者为凑满一个批次/);
  // A touch screen shows no tooltip: the knob in focus says it under the panel's knobs.
  await page.getByTestId('knob-acks').focus();
  await expect(page.getByTestId('knob-help')).toContainText('acks 生产者 acks');
  await page.getByTestId('knob-linger.ms').focus();
  await expect(page.getByTestId('knob-help')).toContainText('linger.ms 生产者为凑满一个批次');
});

test("a phone: the folded knobs stand in one column inside the screen (the second column ran past it); numbers are whole and an unset knob is empty, not \"undefined\"", async ({ page }) => {
  await openAt(page, [390, 844], 'kafka-acks-isr', 0);
  await page.getByTestId('knobs-toggle').click();
  const fields = await page.locator('.knobs-panel label.knob').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
  expect(fields.length).toBe(14);
  expect(Math.max(...fields), 'past the right edge').toBeLessThanOrEqual(390);
  for (const id of ['knob-batch.size', 'knob-request.timeout.ms']) {
    const cut = await page.getByTestId(id).evaluate((el: HTMLInputElement) => el.scrollWidth > el.clientWidth);
    expect(cut, `${id} is cut`).toBe(false);
  }
  await expect(page.getByTestId('knob-readFrom')).toHaveValue('');
});

test("a chart's end labels sit above its x axis: lines that end at staleness 0 had the axis run through their label", async ({ page }) => {
  await openAt(page, [1280, 720], 'ring-allreduce-cost', 3000);
  const charts = await page.locator('.cv-charts svg').evaluateAll((svgs) =>
    svgs.map((svg) => {
      const axis = svg.querySelector('g.cv-x')?.getAttribute('transform') ?? '';
      const axisY = Number(/translate\([^,]+,\s*([-\d.]+)\)/.exec(axis)?.[1] ?? NaN);
      const labels = [...svg.querySelectorAll<SVGTextElement>('text.cv-end-label')].map((t) => ({
        key: t.textContent ?? '',
        // Where the glyphs stand (dy is 0.35em): the baseline.
        baseline: Number(t.getAttribute('y')) + 0.35 * parseFloat(getComputedStyle(t).fontSize),
      }));
      return { axisY, labels };
    }),
  );
  const labelled = charts.filter((c) => c.labels.length > 0);
  expect(labelled.length).toBeGreaterThanOrEqual(3);
  for (const c of labelled) {
    expect(Number.isFinite(c.axisY)).toBe(true);
    for (const l of c.labels) expect(l.baseline, `${l.key}'s label crosses the x axis`).toBeLessThan(c.axisY);
  }
});

test("1280 px: Raft's seven message kinds fit the timeline's legend line (the seventh, \"parameters\", sat behind the fade)", async ({ page }) => {
  for (const lang of ['en', 'zh'] as const) {
    await openAt(page, [1280, 720], 'raft-ps-majority', 6000, { lang });
    const legend = page.locator('.view-timeline .cv-kinds');
    await expect(legend.locator('label')).toHaveCount(7);
    const fit = await legend.evaluate((el) => ({ over: el.lastElementChild!.getBoundingClientRect().right - el.getBoundingClientRect().right, faded: el.classList.contains('more-after') }));
    expect(fit.over, `${lang}: the last kind ends inside the line`).toBeLessThanOrEqual(0);
    expect(fit.faded, lang).toBe(false);
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

test("the topology's gesture hint is whole at a desk's 1024 px, each gesture on its own line (it ended \"…across the middl…\"), and a projector's lesson, a narrow column or a short panel leaves it out", async ({ page }) => {
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
  // Three panels at a desk's 1280×720: cells of about 120 px, where the hint's two lines left the
  // drawing 35 px and its labels ran into each other. Two panels there keep it.
  await openLessonAt(page, [1280, 720], 'kafka-acks-isr', 'en', false, 0, 'isr.1');
  await expect(page.locator('.vp .view-topology')).toHaveCount(3);
  for (const h of await page.locator('.vp .cv-hint').all()) await expect(h).toBeHidden();
  await openLessonAt(page, [1280, 720], 'coordination-fencing', 'en', false);
  await expect(page.locator('.vp .view-topology')).toHaveCount(2);
  for (const h of await page.locator('.vp .cv-hint').all()) await expect(h).toHaveText(whole);
});

test('a 1024-px desk: the strategy row keeps Backend on it (selects as wide as their choice), and language, theme, settings and Presenter wrap together at the right', async ({ page }) => {
  /** Each item's row (its top, rounded) and right edge. */
  const rows = async (sel: string): Promise<Array<{ top: number; right: number }>> =>
    page.locator(sel).evaluateAll((els) => els.map((el) => ({ top: Math.round(el.getBoundingClientRect().top), right: el.getBoundingClientRect().right })));
  await openAt(page, [1024, 768], 'degrade-merge-fencing', 300);
  // Strategy, knobs, workers, dataset, backend: one row (Backend had a row of its own).
  const fields = await rows('.strategy-controls > *');
  expect(fields.length).toBeGreaterThanOrEqual(5);
  expect(new Set(fields.map((f) => f.top)).size).toBe(1);
  // The class at the strategy's end is still whole.
  const strategy = page.getByTestId('strategy');
  await expect(strategy).toHaveText(/— PA\/EC/);
  expect(await strategy.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  for (const lang of ['en', 'zh'] as const) {
    await openAt(page, [1024, 768], 'degrade-merge-fencing', 300, { lang });
    const tools = await rows('.bar-tools > button');
    expect(tools).toHaveLength(4);
    expect(new Set(tools.map((t) => t.top)).size, `${lang}: one row`).toBe(1);
    const bar = (await page.locator('.topbar .bar-row').first().boundingBox())!;
    expect(tools[3].right, `${lang}: at the row's right end`).toBeGreaterThan(bar.x + bar.width - 16);
  }
});

test("a 1024-px desk: each chart's title and note end inside the chart (\"forked replicas, not laggin\"), and SSP's staleness field is as wide as its value, leaving Workers on the strategy row", async ({ page }) => {
  await openAt(page, [1024, 768], 'ssp-bounded-staleness', 500);
  const charts = await page.locator('.cv-charts svg').evaluateAll((svgs) =>
    svgs.map((svg) => {
      const right = svg.getBoundingClientRect().right;
      const ends = [...svg.querySelectorAll<SVGTextElement>('text.cv-chart-title, text.cv-chart-note')]
        .filter((t) => (t.textContent ?? '') !== '')
        .map((t) => ({ text: t.textContent ?? '', over: t.getBoundingClientRect().right - right }));
      return ends;
    }),
  );
  expect(charts).toHaveLength(4);
  const texts = charts.flat();
  expect(texts.map((t) => t.text)).toContain('forked replicas, not lagging');
  for (const t of texts) expect(t.over, `"${t.text}" runs past its chart`).toBeLessThanOrEqual(0);
  const row = await page.locator('.strategy-controls > *').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
  const workers = Math.round((await page.getByTestId('workers').boundingBox())!.y);
  const strategy = Math.round((await page.getByTestId('strategy').boundingBox())!.y);
  expect(row.length).toBeGreaterThanOrEqual(5);
  expect(Math.abs(workers - strategy), 'Workers on the strategy row').toBeLessThanOrEqual(4);
  const staleness = await page.getByTestId('knob-staleness').evaluate((el: HTMLInputElement) => el.getBoundingClientRect().width);
  expect(staleness).toBeLessThan(90);
});
