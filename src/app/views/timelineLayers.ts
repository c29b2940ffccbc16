import * as d3 from 'd3';
import './d3quiet';
import type { NodeId } from '../../sim/types';
import type { Lang } from '../i18n/lang';
import { colourOf } from '../palette';
import type { RunIndex } from '../../engine/index/runIndex';
import { redrawFor } from './drawnFor';
import { vs } from './strings';
import { laneStretches, pausedStretches } from './timelineModel';
import { xTickAnchor } from './chartTicks';
import { textWidth } from './hooks';

type Layer = d3.Selection<SVGGElement, unknown, null, undefined>;

/**
 * The time-space diagram's still parts: partition bands, cuts, lanes, lane names, the axis,
 * branch points and the scrub cursor. Each layer is rewritten only when what it shows changes
 * (drawnFor.ts). What is still running — a lane, a crash, a partition — is drawn to the window's
 * end and covered after `now` by the future veil (a composited box moved with a transform), so
 * the run's advance rewrites none of these elements.
 */
export interface LaneFrame {
  x: d3.ScaleLinear<number, number>;
  yOf: ReadonlyMap<NodeId, number>;
  ids: readonly NodeId[];
  laneH: number;
  width: number;
  height: number;
  M: { left: number; right: number; top: number; bottom: number };
  t0: number;
  t1: number;
  /** Where the recorded run ends in the window (now, or the window's end). */
  tEnd: number;
  /** Scales and lanes, as a string: everything positioned by them redraws when it changes. */
  layoutKey: string;
  lang: Lang;
  /** The view's type size in px (the lane names are 0.867 of it). */
  fs: number;
}

/** The plot's vertical extent that bands and the veil cover. */
export function bandY(f: LaneFrame): { y0: number; y1: number } {
  return { y0: f.M.top - 6, y1: f.height - f.M.bottom + 4 };
}

/** Where a partition band's label ends, past its x (bold, at .cv-period-label's 0.8 of the type size). */
export function periodLabelPx(f: Pick<LaneFrame, 'lang' | 'fs'>): number {
  // Estimated, not measured: no layout read in a frame.
  return textWidth(vs(f.lang, 'partition'), 0.8 * f.fs) * 1.08 + 6;
}

/**
 * The partition bands in the window, each labelled only where its label fits in the part of the
 * band already recorded: a partition moved after 1 s wrote "partition partitionpartition" over
 * the next band's (a 50-px rule).
 */
export function periodBands(partitions: RunIndex['partitions'], f: Pick<LaneFrame, 'x' | 't0' | 't1' | 'tEnd' | 'lang' | 'fs'>): Array<{ key: string; x0: number; x1: number; label: boolean }> {
  const { x, t0, t1, tEnd } = f;
  const labelPx = periodLabelPx(f);
  return partitions
    .filter((q) => q.start <= tEnd && (q.end ?? Infinity) >= t0)
    .map((q) => {
      const x0 = x(Math.max(q.start, t0));
      return { key: String(q.start), x0, x1: x(Math.min(q.end ?? t1, t1)), label: x(Math.min(q.end ?? tEnd, tEnd)) - x0 > labelPx };
    });
}

export function drawPeriods(layer: Layer, ix: RunIndex, f: LaneFrame): void {
  const periods = periodBands(ix.partitions, f);
  if (!redrawFor(layer.node(), `${f.layoutKey}|${periods.map((p) => `${p.key}:${p.x1}:${p.label}`).join(',')}`)) return;
  const per = layer
    .selectAll<SVGGElement, (typeof periods)[number]>('g')
    .data(periods, (d) => d.key)
    .join((enter) => {
      const g = enter.append('g');
      g.append('rect').attr('class', 'cv-period');
      g.append('text').attr('class', 'cv-period-label');
      return g;
    });
  const { y0, y1 } = bandY(f);
  per
    .select('rect')
    .attr('x', (d) => d.x0)
    .attr('width', (d) => Math.max(1, d.x1 - d.x0))
    .attr('y', y0 + 2)
    .attr('height', y1 - y0 - 2);
  per
    .select('text')
    .attr('x', (d) => d.x0 + 4)
    .attr('y', f.M.top - 8)
    .text((d) => (d.label ? vs(f.lang, 'partition') : ''));
}

export function drawCuts(layer: Layer, ix: RunIndex, f: LaneFrame): void {
  const { x, yOf, t0, tEnd } = f;
  const cuts = ix.cuts
    .filter((c) => c.start >= t0 && c.start <= tEnd && yOf.has(c.from) && yOf.has(c.to) && c.from < c.to)
    .map((c) => ({ key: `${c.from}>${c.to}@${c.start}`, x: x(c.start), y0: yOf.get(c.from)!, y1: yOf.get(c.to)! }));
  if (!redrawFor(layer.node(), `${f.layoutKey}|${cuts.map((c) => c.key).join(',')}`)) return;
  const sel = layer
    .selectAll<SVGGElement, (typeof cuts)[number]>('g')
    .data(cuts, (d) => d.key)
    .join((enter) => {
      const g = enter.append('g');
      g.append('line').attr('class', 'cv-cut-mark');
      g.append('text').attr('class', 'cv-cut-glyph').text('✂');
      return g;
    });
  sel
    .select('line')
    .attr('x1', (d) => d.x)
    .attr('x2', (d) => d.x)
    .attr('y1', (d) => Math.min(d.y0, d.y1))
    .attr('y2', (d) => Math.max(d.y0, d.y1));
  sel
    .select('text')
    .attr('x', (d) => d.x)
    .attr('y', (d) => (d.y0 + d.y1) / 2)
    .attr('dy', '0.35em');
}

/** Lanes: coloured while up, grey dashed while down, a hollow band while paused (a GC pause). */
export function drawLanes(layer: Layer, ix: RunIndex, f: LaneFrame): void {
  const { x, yOf, ids, t0, t1, tEnd } = f;
  // A stretch still going at tEnd runs on to t1, under the veil: it changes when the node does.
  const lanes = ids.flatMap((id) =>
    laneStretches(ix.downs.get(id), t0, tEnd).map((s) => ({ key: `${id}@${s.start}`, id, ...s, end: s.end === tEnd ? t1 : s.end })),
  );
  const pauses = ids.flatMap((id) =>
    pausedStretches(ix.pauses.get(id), t0, tEnd).map((s) => ({ key: `${id}@${s.start}`, id, ...s, end: s.end === tEnd ? t1 : s.end })),
  );
  const key = `${f.layoutKey}|${lanes.map((l) => `${l.key}:${l.end}:${l.up}`).join(',')}|${pauses.map((p) => `${p.key}:${p.end}`).join(',')}`;
  if (!redrawFor(layer.node(), key)) return;
  layer
    .selectAll<SVGLineElement, (typeof lanes)[number]>('line.cv-lane')
    .data(lanes, (d) => d.key)
    .join('line')
    .attr('class', (d) => `cv-lane${d.up ? '' : ' down'}`)
    .attr('stroke', (d) => (d.up ? colourOf(d.id) : null))
    .attr('x1', (d) => x(d.start))
    .attr('x2', (d) => x(d.end))
    .attr('y1', (d) => yOf.get(d.id)!)
    .attr('y2', (d) => yOf.get(d.id)!);
  layer
    .selectAll<SVGRectElement, (typeof pauses)[number]>('rect.cv-lane-paused')
    .data(pauses, (d) => d.key)
    .join('rect')
    .attr('class', 'cv-lane-paused')
    .attr('stroke', (d) => colourOf(d.id))
    .attr('x', (d) => x(d.start))
    .attr('width', (d) => Math.max(1, x(d.end) - x(d.start)))
    .attr('y', (d) => yOf.get(d.id)! - 4)
    .attr('height', 8);
}

/** .cv-lane-label's size, in em of the view's type. */
const LANE_LABEL_EM = 0.867;

/**
 * A lane name's type size in px: the stylesheet's where the lane holds it, else as large as the
 * lane allows, down to 12 px (the smallest the design allows; thinner lanes are named every k-th).
 * Eight lanes in a presenter's lesson panel at 1920 px are 15.6 px apart, and 21-px names overlapped.
 */
export function laneLabelPx(laneH: number, fs: number): number {
  return Math.max(12, Math.min(LANE_LABEL_EM * fs, laneH - 2));
}

/** Lane names at the left, and each lane's faint continuation drawn on the future veil (where the veil is an element: else timelineLive.ts paints them). */
export function drawLaneNames(labels: Layer, veilLanes: Layer | null, f: LaneFrame): void {
  if (!redrawFor(labels.node(), f.layoutKey)) return;
  const { yOf, ids, laneH } = f;
  const px = laneLabelPx(laneH, f.fs);
  labels
    .selectAll<SVGTextElement, NodeId>('text')
    .data(ids, (d) => d)
    .join('text')
    .attr('class', 'cv-lane-label')
    .style('font-size', () => (px < LANE_LABEL_EM * f.fs ? `${px}px` : null))
    .attr('x', f.M.left - 6)
    .attr('y', (d) => yOf.get(d)!)
    // Lanes thinner than a 12 px label (21 lanes in a short panel): every k-th lane named.
    .text((d, i) => (i % Math.max(1, Math.ceil(px / laneH)) === 0 ? d : ''));
  if (!veilLanes) return;
  // The veil's own coordinates start at the band's top; it is as wide as the plot's right edge.
  const { y0 } = bandY(f);
  veilLanes
    .selectAll<SVGLineElement, NodeId>('line')
    .data(ids, (d) => d)
    .join('line')
    .attr('class', 'cv-lane-future')
    .attr('stroke', (d) => colourOf(d))
    .attr('x1', 0)
    .attr('x2', f.width - f.M.right)
    .attr('y1', (d) => yOf.get(d)! - y0)
    .attr('y2', (d) => yOf.get(d)! - y0);
}

export function drawAxis(layer: Layer, f: LaneFrame): void {
  if (!redrawFor(layer.node(), f.layoutKey)) return;
  const { x } = f;
  const ticks = x.ticks(Math.max(2, Math.floor(f.width / 90)));
  const digits = secondsDigits(ticks);
  const label = (v: number): string => `${(v / 1000).toFixed(digits)} s`;
  layer
    .attr('class', 'cv-layer-axis cv-axis')
    .attr('transform', `translate(0,${f.height - f.M.bottom + 4})`)
    .call(
      d3
        .axisBottom(x)
        .tickValues(ticks)
        .tickSizeOuter(0)
        .tickFormat((v) => label(+v)),
    );
  layer.selectAll<SVGTextElement, number>('.tick text').attr('text-anchor', (v) => xTickAnchor(x(v), label(v), f.fs, f.width));
}

/**
 * Decimals the axis's seconds need so that no two ticks read the same: from the ticks' step (ms),
 * not the span (an 8 s axis 1 900 px wide ticks every 0.5 s, and whole seconds read 1 s, 1 s, 2 s).
 */
export function secondsDigits(ticks: readonly number[]): number {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : 1000;
  if (step >= 1000 || step <= 0) return 0;
  return Math.min(3, Math.ceil(-Math.log10(step / 1000) - 1e-9));
}

/** Branch points of a forked run (the time this branch left its parent): dashed lines. */
export function drawBranches(layer: Layer, marks: ReadonlyArray<{ t: number; label: string }>, f: LaneFrame): void {
  const { x, t0, t1, M, height } = f;
  const shown = marks.filter((m) => m.t >= t0 && m.t <= t1);
  if (!redrawFor(layer.node(), `${f.layoutKey}|${shown.map((m) => `${m.t}:${m.label}`).join(',')}`)) return;
  const br = layer
    .selectAll<SVGGElement, { t: number; label: string }>('g')
    .data(shown, (d) => String(d.t))
    .join((enter) => {
      const g = enter.append('g').attr('class', 'cv-branch').attr('data-testid', 'timeline-branch');
      g.append('line').attr('class', 'cv-branch-line');
      g.append('text').attr('class', 'cv-branch-label');
      return g;
    });
  br.attr('data-t', (d) => d.t);
  br.select('line').attr('x1', (d) => x(d.t)).attr('x2', (d) => x(d.t)).attr('y1', M.top - 6).attr('y2', height - M.bottom + 2);
  br.select('text').attr('x', (d) => x(d.t) + 3).attr('y', height - M.bottom - 2).text((d) => d.label);
}

/**
 * The scrub cursor and the veil over what was recorded after it. Following the run, the cursor is
 * the future veil's edge instead (moved by a transform, repainting nothing), so this layer hides.
 */
export function drawCursor(layer: Layer, scrubVeil: d3.Selection<SVGRectElement, unknown, null, undefined>, cursor: number | null, f: LaneFrame): void {
  const { x, M, width, height, tEnd } = f;
  const tCur = cursor === null ? tEnd : Math.min(cursor, tEnd);
  if (!redrawFor(layer.node(), cursor === null ? 'live' : `${f.layoutKey}|${tCur}|${tEnd}`)) return;
  const cur = layer
    .selectAll<SVGGElement, number>('g')
    .data(cursor === null ? [] : [tCur])
    .join((enter) => {
      const g = enter.append('g');
      g.append('line').attr('class', 'cv-cursor');
      g.append('text').attr('class', 'cv-cursor-label cv-num');
      return g;
    });
  cur
    .select('line')
    .attr('x1', x(tCur))
    .attr('x2', x(tCur))
    .attr('y1', M.top - 6)
    .attr('y2', height - M.bottom + 2);
  cur
    .select('text')
    .attr('x', Math.min(width - M.right - 24, Math.max(M.left + 24, x(tCur))))
    .attr('y', 12)
    .text(`t=${(tCur / 1000).toFixed(2)} s`);
  scrubVeil
    .style('display', cursor === null ? 'none' : 'inline')
    .attr('x', x(tCur))
    .attr('width', Math.max(0, x(tEnd) - x(tCur)))
    .attr('y', M.top - 6)
    .attr('height', height - M.top - M.bottom + 8);
}
