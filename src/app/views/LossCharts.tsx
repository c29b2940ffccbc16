import { useEffect, useRef, type CSSProperties, type JSX } from 'react';
import * as d3 from 'd3';
import { xTickCount, yTickValues } from './chartTicks';
import './d3quiet';
import type { Lang } from '../i18n/lang';
import { colourOf } from '../palette';
import { firstAtOrAfter, lastAtOrBefore } from '../../engine/index/series';
import { finiteMax, lossPoints, metricSeries, thin } from './chartModel';
import { measuredWidth, timed, useCssValues, useFontSize, useSize } from './hooks';
import type { Simulation } from '../../engine/simulation';
import { indexOf, isLive, staticOf } from './runView';
import { vs, type ViewStringKey } from './strings';
import { laneOrder, timeDomain } from './timelineModel';
import './views.css';

/** The four charts, by the names lessons focus them with (`chart:<id>`). */
export const chartIds = ['loss-steps', 'loss-time', 'divergence', 'staleness'] as const;
export type ChartId = (typeof chartIds)[number];

export interface LossChartsProps {
  sim: Simulation;
  t: number;
  frame: number;
  lang: Lang;
  /** Which charts, in this order (default: all four) — a lesson's small multiples show fewer. */
  charts?: readonly ChartId[];
}

type XY = [number, number];

export interface Series {
  key: string;
  /** null = neutral (cluster-wide series). */
  colour: string | null;
  points: XY[];
}

interface ChartSpec {
  id: string;
  title: ViewStringKey;
  /** Said instead of the title where even 9 px of it would overrun the chart (a 96-px chart). */
  shortTitle?: ViewStringKey;
  /** A second line under the title saying what is plotted (divergence: forks, not lag). */
  note?: ViewStringKey;
  xLabel: ViewStringKey;
  xDomain: [number, number];
  yDomain: [number, number];
  /** Integer ticks (steps, versions behind). */
  yInt?: boolean;
  xIsTime: boolean;
  series: Series[];
  periods: [number, number][];
}

const M = { left: 44, right: 10, top: 22, bottom: 34 };
const MAX_POINTS = 600;
/** Gap between the small multiples; equals `.cv-charts { gap }` in css/charts.css. */
const GAP = 6;

const fmtY = (v: number, int: boolean): string => {
  if (int) return String(Math.round(v));
  const a = Math.abs(v);
  return a === 0 ? '0' : a >= 10 ? v.toFixed(0) : a >= 1 ? v.toFixed(1) : a >= 0.01 ? v.toFixed(2) : v.toExponential(0);
};

/**
 * Where each line's label goes: beside its last point, pushed apart vertically (in order) so that
 * labels of lines that end close together stay readable. More labels than the plot's height holds
 * (sixteen workers in a short chart): every k-th, top and bottom kept, never outside the plot.
 */
export function endLabels(series: readonly Series[], x: (v: number) => number, y: (v: number) => number, gap: number, top: number, bottom: number): Array<{ key: string; x: number; y: number }> {
  const all: Array<{ key: string; x: number; y: number }> = [];
  for (const s of series) {
    let i = s.points.length - 1;
    while (i >= 0 && !Number.isFinite(s.points[i][1])) i--;
    if (i >= 0) all.push({ key: s.key, x: x(s.points[i][0]), y: y(s.points[i][1]) });
  }
  all.sort((a, b) => a.y - b.y);
  const room = Math.max(1, Math.floor((bottom - top) / gap) + 1);
  const ends = all.length <= room ? all : room === 1 ? [all[0]] : Array.from({ length: room }, (_, j) => all[Math.round((j * (all.length - 1)) / (room - 1))]);
  for (let i = 1; i < ends.length; i++) ends[i].y = Math.max(ends[i].y, ends[i - 1].y + gap);
  // Lines that end on the x axis (staleness 0) would push labels below it: stack them upwards instead.
  const n = ends.length;
  if (n > 0 && ends[n - 1].y > bottom) {
    ends[n - 1].y = bottom;
    for (let i = n - 2; i >= 0; i--) ends[i].y = Math.min(ends[i].y, ends[i + 1].y - gap);
  }
  return ends;
}

/**
 * Four charts in a row, or two by two where a row would make each narrower than ~130 px (phones),
 * unless two rows would be too short for a title, a plot and an axis (a lesson's presenter mode
 * at 1280×720 gave each chart 55 px of height) while a row still leaves each ~6 em wide.
 */
export function columnsFor(width: number, height: number, fs: number): number {
  if (width <= 0 || width >= 540) return 4;
  const rowOfTwo = (height - GAP) / 2;
  return rowOfTwo < 6.5 * fs && width / 4 >= 6 * fs ? 4 : 2;
}

/** A scrollbar's width, kept out of the charts' width where the panel scrolls. */
const SCROLLBAR = 16;

/**
 * The charts' grid in a panel: columns and each chart's size. Two by two where even that leaves a
 * chart under 6.5 em tall (a one-run lesson at 1024×768 presenter gave each 57 px: titles over the
 * axes, no plot), the charts keep 6.5 em and the panel scrolls to the second row.
 */
export function chartGrid(width: number, height: number, fs: number, n: number): { cols: number; w: number; h: number; scroll: boolean } {
  const cols = Math.min(columnsFor(width, height, fs), n);
  const rows = Math.ceil(n / cols);
  const h = Math.floor((height - GAP * (rows - 1)) / rows);
  const minH = Math.round(6.5 * fs);
  const scroll = rows > 1 && h < minH;
  const w = Math.floor((width - (scroll ? SCROLLBAR : 0) - GAP * (cols - 1)) / cols);
  return { cols, w, h: scroll ? minH : h, scroll };
}

/** A chart title's and note's sizes (CSS .cv-chart-title, .cv-chart-note) in em of the chart's type. */
const TITLE_EM = 0.867;
const NOTE_EM = 0.75;
/** The x axis's label (CSS .cv-axis-label, 0.8 rem in a 0.933-rem view). */
const AXIS_EM = 0.857;
/** Below this a title or note is not shrunk further (a note then goes: its chart is too narrow). */
const MIN_PX = 9;

/**
 * A text's font size in px where, at `em` of the chart's type, it would overrun the chart's width
 * ("Replica divergence" on a 1024-wide projector), down to 9 px; null where the stylesheet's
 * size fits. Measured once on a canvas (measuredWidth), never in the page's layout.
 */
export function fittedPx(text: string, em: number, fs: number, width: number, family: string, weight = ''): number | null {
  const px = em * fs;
  const w = measuredWidth(text, px, family, weight);
  const room = width - 8;
  return w <= room ? null : Math.max(MIN_PX, Math.floor((px * room) / w * 10) / 10);
}

export const fittedTitlePx = (title: string, fs: number, width: number, family: string): number | null => fittedPx(title, TITLE_EM, fs, width, family, 'bold');

/**
 * The title a chart shows and its size: the whole title, shrunk to fit, unless even 9 px of it
 * would overrun the chart and a short one exists ("Replica divergence" was cut to "Replica
 * divergenc" in a one-run lesson's 96-px charts at 1024 px).
 */
export function chartTitle(full: string, short: string | null, fs: number, width: number, family: string): { text: string; px: number | null } {
  const px = fittedTitlePx(full, fs, width, family);
  if (short === null || measuredWidth(full, px ?? TITLE_EM * fs, family, 'bold') <= width - 8) return { text: full, px };
  return { text: short, px: fittedTitlePx(short, fs, width, family) };
}

function drawChart(svgEl: SVGSVGElement, spec: ChartSpec, width: number, height: number, lang: Lang, cursor: number | null, fs: number, family: string): void {
  const svg = d3.select(svgEl).attr('viewBox', `0 0 ${width} ${height}`);
  if (svg.select('g.cv-plot').empty()) {
    svg.append('g').attr('class', 'cv-periods');
    svg.append('g').attr('class', 'cv-x cv-axis');
    svg.append('g').attr('class', 'cv-y cv-axis');
    svg.append('g').attr('class', 'cv-plot');
    svg.append('g').attr('class', 'cv-ends');
    svg.append('line').attr('class', 'cv-cursor');
    svg.append('text').attr('class', 'cv-chart-title').attr('x', 4);
    svg.append('text').attr('class', 'cv-chart-note').attr('x', 4);
    svg.append('text').attr('class', 'cv-axis-label').attr('text-anchor', 'end');
    svg.append('text').attr('class', 'cv-nodata');
  }
  // The margins hold text, which is in rem: they grow with the type (presenter mode), so titles,
  // notes and tick labels never overlap; ticks keep about two lines of text apart.
  const k = Math.max(1, fs / 15);
  // Per-worker lines carry their worker's id at their end, so colour never tells them apart alone.
  const labelled = spec.series.filter((s) => s.colour !== null && s.points.length > 0);
  const m = { left: M.left * k, right: labelled.length > 0 ? M.right + fs * 1.7 : M.right, top: M.top * k, bottom: M.bottom * k };
  const top = spec.note ? m.top + 12 * k : m.top;
  const x = d3.scaleLinear().domain(spec.xDomain).range([m.left, width - m.right]);
  // Step counts grow every frame; a nice domain moves in steps, so axes need not redraw each time.
  if (!spec.xIsTime) x.nice();
  const y = d3.scaleLinear().domain(spec.yDomain).range([height - m.bottom, top]).nice();
  const yTicks = Math.max(2, Math.floor((height - top - m.bottom) / (fs * 1.9)));

  // Axes only when their scale or the language changed: regenerating ticks every frame is most
  // of a chart's cost, and the domains change in steps, not every frame.
  const axisKey = `${width}x${height}|${x.domain().join(',')}|${y.domain().join(',')}|${lang}|${fs}`;
  if (svgEl.dataset.axisKey !== axisKey) {
    svgEl.dataset.axisKey = axisKey;
    svg
      .select<SVGGElement>('g.cv-x')
      .attr('transform', `translate(0,${height - m.bottom})`)
      .call(
        d3
          .axisBottom(x)
          .ticks(xTickCount(width, spec.xIsTime, x.domain()[1]))
          .tickSizeOuter(0)
          .tickFormat((v) => (spec.xIsTime ? String(+v / 1000) : d3.format('~s')(+v))),
      );
    svg
      .select<SVGGElement>('g.cv-y')
      .attr('transform', `translate(${m.left},0)`)
      .call(
        d3
          .axisLeft(y)
          .tickValues(yTickValues(y.domain() as [number, number], spec.yInt ? Math.min(yTicks, Math.max(1, Math.ceil(spec.yDomain[1]))) : yTicks, height - top - m.bottom, fs, spec.yInt ?? false))
          .tickSizeOuter(0)
          .tickFormat((v) => fmtY(+v, spec.yInt ?? false)),
      );
  }
  const title = chartTitle(vs(lang, spec.title), spec.shortTitle ? vs(lang, spec.shortTitle) : null, fs, width, family);
  svg
    .select('text.cv-chart-title')
    .attr('y', 14 * k)
    .style('font-size', () => (title.px === null ? null : `${title.px}px`))
    .text(title.text);
  // The note shrinks with the title where it would overrun the chart ("forked replicas, not
  // lagging" went at a 1024-px presenter), and goes only where even 9 px would.
  const note = spec.note ? vs(lang, spec.note) : '';
  const notePx = note ? fittedPx(note, NOTE_EM, fs, width, family) : null;
  const noteFits = notePx === null || measuredWidth(note, notePx, family) <= width - 8;
  svg
    .select('text.cv-chart-note')
    .attr('y', 27 * k)
    .style('font-size', () => (notePx === null ? null : `${notePx}px`))
    .text(note && noteFits ? note : '');
  // The axis label ends under the plot's end, or further right where the plot is narrower than
  // the label (four charts in a row at 1024 presenter: "cluster steps" ran off the chart's left).
  const xLabel = vs(lang, spec.xLabel);
  const xLabelPx = fittedPx(xLabel, AXIS_EM, fs, width, family);
  const xLabelW = measuredWidth(xLabel, xLabelPx ?? AXIS_EM * fs, family);
  svg
    .select('text.cv-axis-label')
    .attr('x', Math.min(width - 2, Math.max(width - m.right, xLabelW + 2)))
    .attr('y', height - 3)
    .style('font-size', () => (xLabelPx === null ? null : `${xLabelPx}px`))
    .text(xLabel);

  svg
    .select('g.cv-periods')
    .selectAll<SVGRectElement, [number, number]>('rect')
    .data(spec.periods, (d) => String(d[0]))
    .join('rect')
    .attr('class', 'cv-period')
    .attr('x', (d) => x(d[0]))
    .attr('width', (d) => Math.max(1, x(d[1]) - x(d[0])))
    .attr('y', top)
    .attr('height', height - top - m.bottom);

  const line = d3
    .line<XY>()
    .defined((d) => Number.isFinite(d[1]))
    .x((d) => x(d[0]))
    .y((d) => y(d[1]));
  svg
    .select('g.cv-plot')
    .selectAll<SVGPathElement, Series>('path')
    .data(spec.series, (d) => d.key)
    .join('path')
    .attr('class', (d) => `cv-series${d.colour === null ? ' neutral' : ''}`)
    .attr('stroke', (d) => d.colour)
    .attr('d', (d) => line(d.points) ?? '');

  svg
    .select('g.cv-ends')
    .selectAll<SVGTextElement, { key: string; x: number; y: number }>('text')
    // In a fixed order: bound in the order of their heights, the labels would be moved in the DOM
    // whenever two lines cross.
    .data(
      endLabels(labelled, x, y, fs * 0.85, top, height - m.bottom).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
      (d) => d.key,
    )
    .join((enter) => enter.append('text').attr('class', 'cv-end-label').attr('dy', '0.35em').attr('aria-hidden', 'true'))
    .attr('x', (d) => d.x + 3)
    .attr('y', (d) => d.y)
    .text((d) => d.key);

  // "no data yet" over the plot, smaller where the plot is narrower (a one-run lesson's charts at
  // 1024 px: 50 px), and never past the chart's edge (it read "no data ye"). fittedPx leaves 8 px
  // of a chart's width free; the plot's width is all the room here, hence the + 8.
  const empty = spec.series.every((s) => s.points.length === 0);
  const noData = empty ? vs(lang, 'noData') : '';
  const noDataPx = noData ? fittedPx(noData, AXIS_EM, fs, width - m.left - m.right + 8, family) : null;
  const noDataW = noData ? measuredWidth(noData, noDataPx ?? AXIS_EM * fs, family) : 0;
  svg
    .select('text.cv-nodata')
    .attr('x', Math.max(2 + noDataW / 2, Math.min(width - 2 - noDataW / 2, (m.left + width - m.right) / 2)))
    .attr('y', (top + height - m.bottom) / 2)
    .style('font-size', () => (noDataPx === null ? null : `${noDataPx}px`))
    .text(noData);
  svg
    .select('line.cv-cursor')
    .style('display', cursor === null ? 'none' : 'inline')
    .attr('x1', cursor === null ? 0 : x(cursor))
    .attr('x2', cursor === null ? 0 : x(cursor))
    .attr('y1', top)
    .attr('y2', height - m.bottom);
}

export function LossCharts(p: LossChartsProps): JSX.Element {
  const { sim, t, frame, lang } = p;
  const shown = p.charts ?? chartIds;
  const shownKey = shown.join(',');
  const wrapRef = useRef<HTMLDivElement>(null);
  const refs = [useRef<SVGSVGElement>(null), useRef<SVGSVGElement>(null), useRef<SVGSVGElement>(null), useRef<SVGSVGElement>(null)];
  const size = useSize(wrapRef);
  const fs = useFontSize(wrapRef, size, 15);
  const { font } = useCssValues(wrapRef, [], [size.width, size.height]);
  // The charts plot engine samples (every 250 ms of simulated time): redrawn when a new one
  // arrives, the cursor moves or the box changes — not on every frame.
  const drawnFor = useRef<{ ix: unknown; key: string }>({ ix: null, key: '' });

  useEffect(() =>
    timed('charts', () => {
      const ix = indexOf(sim);
      const workers = laneOrder(staticOf(sim).nodes.filter((n) => n.role === 'worker').map((n) => n.id));
      const sampled = metricSeries(ix, workers);
      const live = isLive(sim, t);
      // Everything is plotted up to the newest sample, the charts' own "now".
      const now = ix.metrics.length > 0 ? ix.metrics[ix.metrics.length - 1].t : 0;
      const lastPartition = ix.partitions[ix.partitions.length - 1];
      const key = `${ix.metrics.length}|${now}|${live ? '' : t}|${size.width}x${size.height}|${lang}|${fs}|${font}|${ix.partitions.length}|${lastPartition?.end ?? ''}|${shownKey}`;
      if (drawnFor.current.ix === ix && drawnFor.current.key === key) return;
      drawnFor.current = { ix, key };
      const timeDom = timeDomain(now, sim.durationMs);
      const periods: [number, number][] = ix.partitions
        .filter((q) => q.start <= now)
        .map((q) => [Math.max(q.start, timeDom[0]), q.end ?? now]);

      const lossSteps: Series[] = [];
      const lossTime: Series[] = [];
      let maxLoss = 0;
      let maxSteps = 1;
      for (const w of workers) {
        // Loss against steps: the whole run, thinned incrementally (a redraw reads only the new
        // samples). Loss against time: the time window only, so its cost and its detail do not
        // depend on how long the run has gone (thinning the whole run left a late window ten points).
        const whole = lossPoints(ix, w, MAX_POINTS);
        lossSteps.push({ key: w, colour: colourOf(w), points: whole.points.map((s) => [s.steps, s.loss]) });
        const all = ix.samples.get(w) ?? [];
        const inWindow = thin(all.slice(firstAtOrAfter(all, timeDom[0], (s) => s.t), lastAtOrBefore(all, now, (s) => s.t) + 1), MAX_POINTS);
        lossTime.push({ key: w, colour: colourOf(w), points: inWindow.map((s) => [s.t, s.loss]) });
        maxLoss = Math.max(maxLoss, whole.maxLoss);
        const newest = whole.points[whole.points.length - 1];
        if (newest) maxSteps = Math.max(maxSteps, newest.steps);
      }

      // Like the timeline, the charts keep the whole run so far and mark a scrubbed t with a
      // cursor: the shape of the curve is what tells the story, the cursor says where we are.
      const n = sampled.t.length;
      const lo = lastAtOrBefore(sampled.t, timeDom[0], (v) => v) + 1;
      const idx = thin(d3.range(Math.max(0, lo - 1), n), MAX_POINTS);
      const div: XY[] = idx.map((i) => [sampled.t[i], sampled.divergence[i]]);
      const stale: Series[] = workers.map((w) => {
        const arr = sampled.staleness.get(w) ?? [];
        return { key: w, colour: colourOf(w), points: idx.map((i): XY => [sampled.t[i], arr[i] ?? NaN]) };
      });

      const cursor = live ? null : t;
      const specs: ChartSpec[] = [
        { id: 'loss-steps', title: 'lossVsSteps', xLabel: 'steps', xDomain: [0, maxSteps], yDomain: [0, maxLoss || 1], xIsTime: false, series: lossSteps, periods: [] },
        { id: 'loss-time', title: 'lossVsTime', xLabel: 'timeSec', xDomain: timeDom, yDomain: [0, maxLoss || 1], xIsTime: true, series: lossTime, periods },
        {
          id: 'divergence',
          title: 'divergence',
          shortTitle: 'divergenceShort',
          note: 'divergenceNote',
          xLabel: 'timeSec',
          xDomain: timeDom,
          yDomain: [0, finiteMax(div.map((d) => d[1]), 0) || 1],
          xIsTime: true,
          series: [{ key: 'divergence', colour: null, points: div }],
          periods,
        },
        {
          id: 'staleness',
          title: 'staleness',
          note: 'stalenessNote',
          xLabel: 'timeSec',
          xDomain: timeDom,
          yDomain: [0, Math.max(1, finiteMax(stale.flatMap((s) => s.points.map((q) => q[1])), 0))],
          yInt: true,
          xIsTime: true,
          series: stale,
          periods,
        },
      ];
      const drawn = shownKey.split(',').map((id) => specs.find((x) => x.id === id)!);
      drawn.forEach((spec, i) => {
        const el = refs[i].current;
        if (!el) return;
        // Sizes from the wrapper's ResizeObserver (equal flex columns), never from
        // getBoundingClientRect: reading layout mid-frame would force a synchronous reflow.
        const { w, h } = chartGrid(size.width, size.height, fs, drawn.length);
        if (w < 10 || h < 10) return;
        drawChart(el, spec, w, h, lang, spec.xIsTime ? cursor : null, fs, font);
      });
      // refs are stable useRef objects; listing them would only add noise.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }), [sim, t, frame, lang, size, fs, font, shownKey]);

  const grid = chartGrid(size.width, size.height, fs, shown.length);
  const titles: Record<ChartId, ViewStringKey> = { 'loss-steps': 'lossVsSteps', 'loss-time': 'lossVsTime', divergence: 'divergence', staleness: 'staleness' };
  return (
    <div className={`cv-view cv-charts${grid.cols === 2 && shown.length > 2 ? ' two-by-two' : ''}${grid.scroll ? ' scroll' : ''}`} style={grid.scroll ? ({ '--chart-h': `${grid.h}px` } as CSSProperties) : undefined} ref={wrapRef}>
      {shown.map((id, i) => (
        <div className="cv-chart" key={id} data-chart={id}>
          <svg ref={refs[i]} className="cv-svg" role="img" aria-label={vs(lang, titles[id])} />
        </div>
      ))}
    </div>
  );
}
