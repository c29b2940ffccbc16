import { useLayoutEffect, useRef, type JSX } from 'react';
import * as d3 from 'd3';
import './d3quiet';
import type { RunReader } from '../../engine/runReader';
import type { Lang } from '../i18n/lang';
import { s, type StringKey } from '../i18n/strings';
import { fitCanvas, measuredWidth, textWidth, timed, useCssValues, useFontSize, useSize, useTheme } from './hooks';
import { indexOf, stateAt, staticOf } from './runView';
import { drawLogBoxes } from './serverBoxes';
import { drawServerHead, PAD } from './serverHead';
import { clipText, wrapItems } from './fitText';
import { serverPanelModel, type LogBox, type PanelFlavor, type RowRole, type ServerRow } from './serverModel';
import { wordsContext } from './wordsContext';
import './views.css';

export interface ServerStatesProps {
  sim: RunReader;
  /** The cursor time: the panel shows the servers as they stood then (now, when live). */
  t: number;
  frame: number;
  lang: Lang;
}

/**
 * Header: title and legend on one line, index ticks on the next (above the log columns); a
 * consumer's row. In px at the panel's 13 px type (0.87 rem of 15): they grow with it (at 1920
 * presenter the heading ran into the legend and the role badges were shorter than their words).
 */
const HEAD_H = 34;
const CONSUMER_H = 22;
const BASE_FS = 13;
const LEFT_W = 262;
const BOX_GAP = 3;
/** The fewest log columns a row keeps when its facts take the row's end. */
const MIN_LOG_COLS = 12;

/** The panel's words per protocol: what a box's number is, what the second column counts, what the log is. */
const flavorWords: Record<PanelFlavor, { term: StringKey; commit: StringKey; log: StringKey }> = {
  raft: { term: 'srvTerm', commit: 'srvCommit', log: 'srvLog' },
  kafka: { term: 'srvEpoch', commit: 'srvHW', log: 'srvLogKafka' },
  paxos: { term: 'srvBallot', commit: 'srvChosen', log: 'srvLogPaxos' },
  '2pc': { term: 'srvTx', commit: 'srvCommit', log: 'srvLog2pc' },
  zab: { term: 'srvEpoch', commit: 'srvCommit', log: 'srvLogZab' },
};

function roleText(lang: Lang, role: RowRole): string {
  const word = s(lang, `srvRole_${role}` as StringKey);
  // Shape as well as words: a crown for the leader, a question for a candidate (or a ZooKeeper
  // server looking for a leader), a cross when down, a pause sign when frozen.
  return role === 'leader' ? `♛ ${word}` : role === 'candidate' || role === 'looking' ? `? ${word}` : role === 'crashed' || role === 'offline' ? `✕ ${word}` : role === 'paused' ? `‖ ${word}` : word;
}

/**
 * RaftScope-style server cards as rows: role, term (Kafka: leader epoch), commit index (HW) and
 * the log as boxes aligned by index across rows, coloured by term; committed solid, uncommitted
 * hollow and dashed. D3 keyed joins for the rows (by node id); the log boxes — up to a few hundred,
 * and all of them move when the window slides by one index — on a canvas under no interaction
 * (a row's tooltip names the box under the pointer). Redrawn only when what it shows changed.
 */
export function ServerStates({ sim, t, frame, lang }: ServerStatesProps): JSX.Element {
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const size = useSize(wrapRef);
  const fs = useFontSize(svgRef, size, 15);
  const theme = useTheme();
  const css = useCssValues(svgRef, ['--panel', '--fg', '--mono'], [size.width, size.height, theme]);
  // What the panel was last drawn for; a frame that would draw the same returns at once.
  const drawn = useRef('');
  // The boxes under each row's log area, for its tooltip (the canvas has no elements to hover).
  const hover = useRef<{ colX0: number; step: number; lo: number; rows: Map<string, LogBox[]>; title: (e: LogBox) => string }>(null);

  // Before the drawing's layout effect, which runs first otherwise.
  useLayoutEffect(() => {
    const svg = d3.select(svgRef.current!);
    svg.selectAll('*').remove();
    svg.append('g').attr('class', 'sv-head');
    svg.append('g').attr('class', 'sv-rows');
    drawn.current = '';
  }, []);

  // A layout effect: drawn in the task the panels render in, so both land in one layout (a plain
  // effect ran a frame later, a second style, layout and paint ten times a second).
  useLayoutEffect(() => timed('servers', () => {
    const el = svgRef.current;
    if (!el || size.width === 0 || size.height === 0) return;
    const state = stateAt(sim, t);
    const ix = indexOf(sim);
    const ctx = wordsContext(sim.scenario, staticOf(sim));
    // Box side from the row height, then as many columns as fit.
    const consensus = state.nodes.filter((n) => n.facts?.kind === 'raft-server' || n.facts?.kind === 'kafka-broker' || n.facts?.kind === 'paxos-server' || n.facts?.kind === '2pc-server' || n.facts?.kind === 'coord-server').length;
    const consumers = state.nodes.filter((n) => n.facts?.kind === 'kafka-consumer').length;
    // Rows shrink to the role badge (18 px at 13 px type) plus a pixel above and below before the
    // panel overflows (five servers in the 1280×720 layout cut the last row at 24 px).
    const k = fs / BASE_FS;
    const headH = Math.round(HEAD_H * k);
    const consumerH = Math.round(CONSUMER_H * k);
    const badgeH = 18 * k;
    // Where even the shortest rows overflow the panel (a lesson's short panel with three brokers
    // and two consumers cut the last consumer, the one its lesson is about), the whole panel is
    // drawn smaller — laid out in a larger user space that the viewBox scales down — never cut.
    const need = headH + consensus * (badgeH + 2) + consumers * consumerH + 4;
    const q = need > size.height ? Math.max(0.7, size.height / need) : 1;
    const width = size.width / q;
    const height = size.height / q;
    const svg = d3.select(el).attr('viewBox', `0 0 ${width} ${height}`);
    const avail = (height - headH - consumers * consumerH - 4) / Math.max(1, consensus);
    const rowH = Math.max(badgeH + 2, Math.min(fs * 3, avail));
    const box = Math.max(12, Math.min(24, rowH * (rowH >= fs * 2.4 ? 0.5 : 0.72)));
    const twoLines = rowH >= fs * 2.4;
    const badgeX = PAD + fs * 2.2;
    const badgeW = fs * 6.2;
    // Term and commit: beside the badge on one line, or under id and badge on a second line.
    const termX = twoLines ? PAD : badgeX + badgeW + 8;
    const colsFor = (left: number): number => Math.max(1, Math.floor((Math.max(60, width - left - PAD) + BOX_GAP) / (box + BOX_GAP)));
    // On one line the log columns start after the widest term and commit labels, measured (not
    // estimated: "commit 528" ran into the first box) for at least a two-digit term and a
    // four-digit commit, so the columns do not shift as the index grows; never less than room for
    // id, badge and words at any type size (Chinese labels are wider). On two lines they start
    // after the badge, and the facts follow term and commit on the second line (a phone's panel
    // kept four columns, and cut its facts at the edge).
    const placeFor = (flavor: PanelFlavor, maxTerm: number, maxCommit: number): { commitX: number; left: number; factsX: number } => {
      const mono = css['--mono'];
      const words = flavorWords[flavor];
      const termW = measuredWidth(`${s(lang, words.term)} ${Math.max(maxTerm, 99)}`, fs, mono);
      const commitX = termX + Math.max(twoLines ? fs * 5.6 - (termX - PAD) : fs * 4.6, termW + fs * 0.6);
      const commitW = measuredWidth(`${s(lang, words.commit)} ${'8'.repeat(Math.max(4, String(maxCommit).length))}`, fs, mono);
      const factsX = commitX + commitW + fs * 0.8;
      return { commitX, factsX, left: Math.ceil(twoLines ? badgeX + badgeW + fs * 0.8 : Math.max(LEFT_W, fs * 19, factsX)) };
    };
    const maxOf = (m: ReturnType<typeof serverPanelModel>, k: 'term' | 'commitIndex'): number => m.rows.reduce((a, r) => Math.max(a, r[k] ?? 0), 0);
    const first = placeFor('raft', 0, 0);
    let model = serverPanelModel(state, ix, colsFor(first.left), ctx, lang);
    // Another protocol's words, a three-digit term or a five-digit commit move the log's start.
    const place = placeFor(model.flavor, maxOf(model, 'term'), maxOf(model, 'commitIndex'));
    const left = place.left;
    const subFs = fs * 0.92; // .sv-sub and .sv-facts are 0.8rem in a 0.87rem svg
    // Text widths are estimated (no layout reads), scaled to the panel's monospace, measured once.
    const monoScale = measuredWidth('0123456789abcdef', subFs, css['--mono']) / textWidth('0123456789abcdef', subFs);
    // Two-line rows with room to spare (a phone) give a facts line too long for the second line a
    // third — who holds the lock, and its token, are what lesson 11 turns on. The boxes keep their size.
    const line2 = width - PAD - place.factsX;
    // Only the rows that need it are taller; the panel must hold every row at that height.
    const wraps = (r: ServerRow): boolean => r.kind !== 'consumer' && textWidth(r.facts, subFs) * monoScale > line2;
    const threeLines = twoLines && avail >= fs * 3.6 && model.rows.some(wraps);
    const rowH3 = threeLines ? Math.min(fs * 4.2, avail) : rowH;
    const rowHOf = (r: ServerRow): number => (threeLines && wraps(r) ? rowH3 : rowH);
    // A consumer's facts ("offset 81 · lag 1 · caught up at last fetch") too long for its row take a
    // second line where the panel has the room (a phone).
    const consumerFactsX = badgeX + badgeW + 8;
    const consumerWrap =
      consumers > 0 &&
      model.rows.some((r) => r.kind === 'consumer' && textWidth(r.facts, subFs) * monoScale > width - PAD - consumerFactsX) &&
      headH + consensus * rowH3 + consumers * consumerH * 1.8 + 4 <= height;
    const consumerRowH = consumerWrap ? Math.round(consumerH * 1.8) : consumerH;
    // The facts line says what a lesson turns on: a broker's ISR and LEO, a candidate's votes, a
    // Paxos proposer's promises, who holds a lock and its fencing token. Rows of one line had no
    // room for it (only the tooltip said it): it now ends each row, in whole columns taken from
    // the log's oldest end, where the log keeps at least MIN_LOG_COLS. (The facts do not depend on
    // the columns: the first model's serve.)
    let factsW = 0;
    if (!twoLines) {
      const widest = model.rows.reduce((a, r) => (r.kind === 'consumer' ? a : Math.max(a, textWidth(r.facts, subFs) * monoScale)), 0);
      const w = Math.ceil((widest + fs) / (box + BOX_GAP)) * (box + BOX_GAP);
      if (widest > 0 && colsFor(left + w) >= MIN_LOG_COLS) factsW = w;
    }
    // Once more, for the columns that fit, where they are not the first model's.
    if (colsFor(left + factsW) !== colsFor(first.left)) model = serverPanelModel(state, ix, colsFor(left + factsW), ctx, lang);
    const logW = Math.max(60, width - left - PAD - factsW);
    const words = flavorWords[model.flavor];
    const termWord = s(lang, words.term);
    const commitWord = s(lang, words.commit);
    const logWord = s(lang, words.log);
    const colX = (index: number): number => left + (index - (model.window?.lo ?? 0)) * (box + BOX_GAP);
    const key = [
      width,
      height,
      fs,
      lang,
      css['--panel'],
      css['--fg'],
      css.font,
      left,
      model.flavor,
      model.window ? `${model.window.lo}-${model.window.hi}` : '',
      ...model.rows.map((r) => `${r.id}|${r.kind}|${r.up}|${r.role}|${r.term}|${r.commitIndex}|${r.facts}|${r.lines.join('/')}|${r.log.map((e) => `${e.index}:${e.term}:${e.committed ? 1 : 0}${e.compacted ? 'c' : ''}:${e.label}`).join(',')}|${typeof r.tail === 'object' && r.tail ? `${r.tail.index}:${r.tail.term}:${r.tail.committed}` : r.tail}`),
    ].join('#');
    if (key === drawn.current) return;
    drawn.current = key;

    // ---- header: title, log heading, legend and index ticks ---------------------------------
    // The app lays the servers/replicas switch over the top-right corner (its width estimated
    // from its two words, as the legend's is: no layout reads in a frame).
    const switchW = (textWidth(s(lang, model.kafka ? 'brokersTab' : 'serversTab'), fs) + textWidth(s(lang, 'replicasTab'), fs) + fs * 3) / q;
    drawServerHead(svg.select<SVGGElement>('g.sv-head'), {
      title: s(lang, model.kafka ? 'brokersTitle' : model.coordOnly ? `coordTitle_${model.coordOnly}` : 'serversTitle'),
      logWord,
      // "in a snapshot" only while compacted boxes are in view (Raft §7).
      legend: [s(lang, 'srvLegendCommitted'), s(lang, 'srvLegendUncommitted'), ...(model.rows.some((r) => r.log.some((e) => e.compacted)) ? [s(lang, 'srvLegendSnapshot')] : [])],
      width,
      headH,
      fs,
      subFs,
      k,
      left,
      switchW,
      ticks: model.window ? d3.range(model.window.lo, model.window.hi + 1).filter((i) => i % 5 === 0) : [],
      tickX: (i) => colX(i) + box / 2,
    });

    // ---- rows ------------------------------------------------------------------------------------
    let y = headH;
    const placed = model.rows.map((r) => {
      const h = r.kind === 'consumer' ? consumerRowH : rowHOf(r);
      const at = y;
      y += h;
      return { r, y: at, h };
    });
    type Placed = (typeof placed)[number];
    const rows = svg
      .select('g.sv-rows')
      .selectAll<SVGGElement, Placed>('g.sv-row')
      .data(placed, (d) => d.r.id)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'sv-row');
        g.append('rect').attr('class', 'sv-band');
        g.append('text').attr('class', 'sv-id num');
        const badge = g.append('g').attr('class', 'sv-badge');
        badge.append('rect');
        badge.append('text');
        g.append('text').attr('class', 'sv-term num');
        g.append('text').attr('class', 'sv-commit num');
        g.append('text').attr('class', 'sv-facts num');
        g.append('text').attr('class', 'sv-facts sv-facts2 num');
        g.append('text').attr('class', 'sv-tail num');
        g.append('title');
        const hit = g.append('rect').attr('class', 'sv-loghit');
        const tip = hit.append('title');
        hit.on('pointermove', function (ev: PointerEvent, d) {
          const h = hover.current;
          if (!h) return;
          const [px] = d3.pointer(ev, this);
          const index = h.lo + Math.floor((px - h.colX0) / h.step);
          const e = h.rows.get(d.r.id)?.find((x) => x.index === index);
          tip.text(e ? h.title(e) : '');
        });
        return g;
      })
      .attr('transform', (d) => `translate(0,${d.y})`)
      .attr('data-testid', (d) => `server-${d.r.id}`)
      .attr('data-role', (d) => d.r.role)
      .attr('data-term', (d) => (d.r.term === null ? '' : String(d.r.term)))
      .attr('data-commit', (d) => (d.r.commitIndex === null ? '' : String(d.r.commitIndex)))
      .classed('down', (d) => !d.r.up);

    rows
      .select('rect.sv-band')
      .attr('x', 2)
      .attr('width', width - 4)
      .attr('height', (d) => d.h - 2)
      .attr('rx', 4);
    const mid = (d: Placed): number => (d.r.kind === 'consumer' ? consumerH / 2 : !twoLines ? d.h / 2 : fs * 0.95);
    rows
      .select('text.sv-id')
      .attr('x', PAD)
      .attr('y', mid)
      .attr('dy', '0.35em')
      .text((d) => d.r.id);
    const badge = rows.select<SVGGElement>('g.sv-badge').attr('transform', (d) => `translate(${badgeX},${mid(d) - badgeH / 2})`).attr('class', (d) => `sv-badge role-${d.r.role}`);
    badge.select('rect').attr('width', badgeW).attr('height', badgeH).attr('rx', badgeH / 2);
    badge
      .select('text')
      .attr('x', badgeW / 2)
      .attr('y', badgeH / 2)
      .attr('dy', '0.35em')
      .attr('text-anchor', 'middle')
      .text((d) => roleText(lang, d.r.role));
    const factsY = (d: Placed): number => (twoLines ? fs * 2.15 : mid(d));
    rows
      .select('text.sv-term')
      .attr('x', termX)
      .attr('y', factsY)
      .attr('dy', '0.35em')
      .text((d) => (d.r.term === null ? '' : `${termWord} ${d.r.term}`));
    rows
      .select('text.sv-commit')
      // After the widest term label: Chinese words and 3-digit ballots are wider.
      .attr('x', place.commitX)
      .attr('y', factsY)
      .attr('dy', '0.35em')
      .text((d) => (d.r.commitIndex === null ? '' : `${commitWord} ${d.r.commitIndex}`));

    const boxY = (d: Placed): number => (twoLines ? fs * 0.95 - box / 2 : (d.h - box) / 2);
    const inWindow = (d: Placed): LogBox[] => (model.window ? d.r.log.filter((e) => e.index >= model.window!.lo && e.index <= model.window!.hi) : []);
    const boxTitle = (e: LogBox): string => `#${e.index} · ${termWord} ${e.term}${e.label ? ` · ${e.label}` : ''} · ${s(lang, e.committed ? 'srvLegendCommitted' : 'srvLegendUncommitted')}`;
    hover.current = { colX0: left, step: box + BOX_GAP, lo: model.window?.lo ?? 0, rows: new Map(placed.map((d) => [d.r.id, inWindow(d)])), title: boxTitle };
    // Each row's log area: the target of the box tooltip.
    rows
      .select('rect.sv-loghit')
      .attr('x', left)
      .attr('y', (d) => boxY(d))
      .attr('width', (d) => (inWindow(d).length > 0 ? logW : 0))
      .attr('height', box);
    const canvas = canvasRef.current;
    const g2d = canvas ? fitCanvas(canvas, size.width, size.height) : null;
    if (g2d) {
      g2d.scale(q, q);
      g2d.clearRect(0, 0, width, height);
      const boxRows = placed.map((d) => ({ y0: d.y + boxY(d), up: d.r.up, boxes: inWindow(d) }));
      drawLogBoxes(g2d, boxRows, { box, colX, flavor: model.flavor, font: css.font, panel: css['--panel'] || '#fff', fg: css['--fg'] || '#111' });
    }
    // A row whose whole log lies before the window (a deposed leader in the minority, a crashed
    // server) says where it ends, rather than look as if it held nothing.
    const tailText = (d: Placed): string => {
      const tl = d.r.tail;
      if (tl === null) return '';
      if (tl === 'empty') return s(lang, 'srvNoLog');
      const full = s(lang, 'srvLogEnds', { index: tl.index, term: `${termWord} ${tl.term}`, state: s(lang, tl.committed ? 'srvLegendCommitted' : 'srvLegendUncommitted') });
      return textWidth(full, subFs) * monoScale <= logW - fs ? full : s(lang, 'srvLogEndsShort', { index: tl.index });
    };
    rows
      .select('text.sv-tail')
      .attr('x', left + 2)
      .attr('y', (d) => boxY(d) + box / 2)
      .attr('dy', '0.35em')
      .text(tailText);
    // The facts line in the room it has (on two lines, the rest of the second; on three, the third
    // too): whole where it fits, else to its last whole item — the tooltip has it all.
    const factsX = (d: Placed): number => (d.r.kind === 'consumer' ? consumerFactsX : twoLines ? place.factsX : width - PAD - factsW + fs * 0.5);
    const factsLinesOf = (d: Placed): [string, string] => {
      const text = d.r.facts || (d.r.log.length === 0 && d.r.tail === null && d.r.kind !== 'consumer' ? s(lang, 'srvNoLog') : '');
      if (d.r.kind === 'consumer' && consumerWrap) return wrapItems(text, width - PAD - consumerFactsX, width - PAD - badgeX, subFs, monoScale);
      if (threeLines && d.r.kind !== 'consumer') return wrapItems(text, line2, width - 2 * PAD, subFs, monoScale);
      return [clipText(text, width - PAD - factsX(d), subFs, monoScale), ''];
    };
    const factsLines = new Map(placed.map((d) => [d.r.id, factsLinesOf(d)]));
    rows
      .select('text.sv-facts')
      .attr('x', factsX)
      .attr('y', (d) => (d.r.kind === 'consumer' ? consumerH / 2 : twoLines ? fs * 2.15 : d.h / 2))
      .attr('dy', '0.35em')
      .style('display', (d) => (d.r.kind === 'consumer' || twoLines || factsW > 0 ? null : 'none'))
      .text((d) => factsLines.get(d.r.id)![0]);
    rows
      .select('text.sv-facts2')
      .attr('x', (d) => (d.r.kind === 'consumer' ? badgeX : PAD))
      .attr('y', (d) => (d.r.kind === 'consumer' ? consumerH / 2 + fs * 1.2 : fs * 3.35))
      .attr('dy', '0.35em')
      .text((d) => factsLines.get(d.r.id)![1]);
    rows.select('title').text((d) => describeRow(d.r, lang, termWord, commitWord));
  }), [sim, t, frame, size, fs, lang, css]);

  return (
    <div className="cv-view sv-servers" ref={wrapRef}>
      <svg ref={svgRef} className="cv-svg" role="img" aria-label={s(lang, 'serversTitle')} />
      <canvas ref={canvasRef} className="sv-boxes" />
    </div>
  );
}

function describeRow(r: ServerRow, lang: Lang, termWord: string, commitWord: string): string {
  const parts = [`${r.id} · ${roleText(lang, r.role)}`];
  if (r.term !== null) parts.push(`${termWord} ${r.term}`);
  if (r.commitIndex !== null) parts.push(`${commitWord} ${r.commitIndex}`);
  return [parts.join(' · '), ...r.lines].join('\n');
}
