import * as d3 from 'd3';
import './d3quiet';
import { textWidth } from './hooks';
import { termColour } from './serverModel';

export interface ServerHeadOpts {
  title: string;
  /** The log's heading: "log (index, coloured by term)" or its flavour's. */
  logWord: string;
  /** The legend's words: committed, not committed, and in a snapshot where compacted boxes show. */
  legend: readonly string[];
  width: number;
  headH: number;
  /** The panel's type and its small type (px), and their scale from 13 px. */
  fs: number;
  subFs: number;
  k: number;
  /** Where the log columns start. */
  left: number;
  /** The width of the servers/replicas switch the app lays over the top-right corner. */
  switchW: number;
  /** Indices that get a tick (every 5th in the window), and each one's x. */
  ticks: number[];
  tickX: (index: number) => number;
}

/** The servers panel's inner padding (px at 13 px type). */
export const PAD = 8;

/**
 * The servers panel's header: its title, the log's heading over the columns, the legend and the
 * index ticks, placed clear of one another and of the switch. Widths are estimated from the text,
 * not measured: no layout reads in a frame.
 */
export function drawServerHead(head: d3.Selection<SVGGElement, unknown, null, undefined>, o: ServerHeadOpts): void {
  const { fs, subFs, k, width, left, switchW } = o;
  // The log's heading over its columns, or after the title where that is longer (bold: +8 %).
  const logX = Math.max(left, PAD + textWidth(o.title, fs) * 1.08 + fs * 0.8);
  // Where the heading would run under the switch (a lesson's narrow panel), its explanation
  // in brackets goes: "log", not "log (index, coloured by term)" half hidden; where even that
  // would, the legend and ticks say it.
  const logShort = o.logWord.split(/\s*[(（]/)[0];
  const logRoom = width - switchW - 8 - logX;
  const logText = textWidth(o.logWord, subFs) <= logRoom ? o.logWord : textWidth(logShort, subFs) <= logRoom ? logShort : '';
  const headData = [
    { key: 'title', x: PAD, text: o.title, cls: 'sv-title' },
    { key: 'log', x: logX, text: logText, cls: 'sv-sub' },
  ];
  head
    .selectAll<SVGTextElement, (typeof headData)[number]>('text.sv-htext')
    .data(headData, (d) => d.key)
    .join('text')
    .attr('class', (d) => `sv-htext ${d.cls}`)
    .attr('x', (d) => d.x)
    .attr('y', 15 * k)
    .text((d) => d.text);
  const legend = [
    { key: 'c', committed: true, faded: false, text: o.legend[0] },
    { key: 'u', committed: false, faded: false, text: o.legend[1] },
    ...(o.legend[2] ? [{ key: 's', committed: true, faded: true, text: o.legend[2] }] : []),
  ];
  const lg = head
    .selectAll<SVGGElement, (typeof legend)[number]>('g.sv-legend')
    .data(legend, (d) => d.key)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'sv-legend');
      g.append('rect').attr('rx', 2);
      g.append('text');
      return g;
    });
  lg.select('text').attr('x', 15 * k).attr('y', 10 * k).text((d) => d.text);
  lg.select('rect')
    .attr('width', 11 * k)
    .attr('height', 11 * k)
    .attr('fill', (d) => (d.committed ? termColour(2) : 'var(--panel)'))
    .attr('stroke', termColour(2))
    .attr('stroke-width', (d) => (d.committed ? 1 : 1.5))
    .attr('stroke-dasharray', (d) => (d.committed ? null : '2 1.5'))
    .attr('opacity', (d) => (d.faded ? 0.3 : null)); // as serverBoxes draws a compacted box
  // Legend on the second header line, left of the log columns (whose index ticks share that
  // line) where it fits; else after the "log" heading (the top-right corner holds the switch),
  // or where that would run under the switch, on the second line anyway, the ticks giving way.
  const legendW = legend.reduce((a, d) => a + 15 * k + textWidth(d.text, subFs) + 12, 0);
  const afterLog = logX + textWidth(logText, subFs) + 16;
  const below = PAD + legendW <= left - 8 || afterLog + legendW > width - switchW - 8;
  const legendEnd = below ? PAD + legendW : -Infinity;
  let lx = below ? PAD : afterLog;
  const ly = below ? o.headH - 14 * k : 5 * k;
  lg.each(function (d) {
    d3.select(this).attr('transform', `translate(${lx},${ly})`);
    lx += 15 * k + textWidth(d.text, subFs) + 12;
  });
  // Index ticks every 5th column, so "index 12" can be pointed at across rows; none under the
  // switch or the legend.
  const ticks = o.ticks.filter((i) => o.tickX(i) + fs < width - switchW && o.tickX(i) - fs > legendEnd);
  head
    .selectAll<SVGTextElement, number>('text.sv-tick')
    .data(ticks, (d) => String(d))
    .join('text')
    .attr('class', 'sv-tick num')
    .attr('x', (d) => o.tickX(d))
    .attr('y', o.headH - 4 * k)
    .attr('text-anchor', 'middle')
    .text((d) => String(d));
}
