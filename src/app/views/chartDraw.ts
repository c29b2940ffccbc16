import * as d3 from 'd3';
import { xTickAnchor, xTickCount, yTickValues } from './chartTicks';
import './d3quiet';
import { AXIS_EM, chartTitle, endLabels, fittedPx, NOTE_EM } from './chartLayout';
import type { ChartSpec, Series, XY } from './chartSpecs';
import { measuredWidth } from './hooks';
import type { Lang } from '../i18n/lang';
import { vs } from './strings';

/**
 * Draws one loss chart into its SVG with D3: axes (redrawn only when their scale changes), title,
 * note, axis label, partition periods, the series' lines, their end labels, "no data yet" and
 * the scrub cursor. Keyed joins throughout, so a redraw moves elements rather than remaking them.
 */

const M = { left: 44, right: 10, top: 22, bottom: 34 };

const fmtY = (v: number, int: boolean): string => {
  if (int) return String(Math.round(v));
  const a = Math.abs(v);
  return a === 0 ? '0' : a >= 10 ? v.toFixed(0) : a >= 1 ? v.toFixed(1) : a >= 0.01 ? v.toFixed(2) : v.toExponential(0);
};

export function drawChart(svgEl: SVGSVGElement, spec: ChartSpec, width: number, height: number, lang: Lang, cursor: number | null, fs: number, family: string): void {
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
    const xLabel = (v: number): string => (spec.xIsTime ? String(v / 1000) : d3.format('~s')(v));
    svg
      .select<SVGGElement>('g.cv-x')
      .attr('transform', `translate(0,${height - m.bottom})`)
      .call(
        d3
          .axisBottom(x)
          .ticks(xTickCount(width, spec.xIsTime, x.domain()[1]))
          .tickSizeOuter(0)
          .tickFormat((v) => xLabel(+v)),
      );
    svg.select('g.cv-x').selectAll<SVGTextElement, number>('.tick text').attr('text-anchor', (v) => xTickAnchor(x(v), xLabel(v), fs, width));
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

  const ends = svg.select('g.cv-ends').selectAll<SVGTextElement, { key: string; x: number; y: number }>('text');
  const shown = new Set(ends.data().map((d) => d.key));
  ends
    // In a fixed order: bound in the order of their heights, the labels would be moved in the DOM
    // whenever two lines cross. The lowest label's middle stays half a line above the x axis: at the
    // axis itself (lines that end at staleness 0), the axis ran through it.
    .data(
      endLabels(labelled, x, y, fs * 0.85, top, height - m.bottom - fs * 0.425, shown).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
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
