import { useLayoutEffect, useRef, type CSSProperties, type JSX } from 'react';
import type { Lang } from '../i18n/lang';
import { drawChart } from './chartDraw';
import { chartGrid } from './chartLayout';
import { metricSeries } from './chartModel';
import { chartSpecs } from './chartSpecs';
import { timed, useCssValues, useFontSize, useSize } from './hooks';
import type { RunReader } from '../../engine/runReader';
import { indexOf, isLive, staticOf } from './runView';
import { vs, type ViewStringKey } from './strings';
import { laneOrder } from './timelineModel';
import './views.css';

/**
 * The loss/metric small multiples: the component that sizes the charts' grid and redraws them when a
 * new engine sample, the cursor or the box changes. What they plot is chartSpecs.ts; where things go,
 * chartLayout.ts; the D3 drawing, chartDraw.ts.
 */

/** The four charts, by the names lessons focus them with (`chart:<id>`). */
export const chartIds = ['loss-steps', 'loss-time', 'divergence', 'staleness'] as const;
export type ChartId = (typeof chartIds)[number];

export interface LossChartsProps {
  sim: RunReader;
  t: number;
  frame: number;
  lang: Lang;
  /** Which charts, in this order (default: all four) — a lesson's small multiples show fewer. */
  charts?: readonly ChartId[];
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
  // Following the run or not, as of this render: the effect runs a frame or more later, when the
  // run has moved on from `t`, and read then it put a cursor on the charts (and redrew them ten
  // times a second) while they followed the run.
  const live = isLive(sim, t);

  // A layout effect: drawn in the task the panels render in, so both land in one layout.
  useLayoutEffect(() =>
    timed('charts', () => {
      const ix = indexOf(sim);
      const workers = laneOrder(staticOf(sim).nodes.filter((n) => n.role === 'worker').map((n) => n.id));
      const sampled = metricSeries(ix, workers);
      // Everything is plotted up to the newest sample, the charts' own "now".
      const now = ix.metrics.length > 0 ? ix.metrics.t(ix.metrics.length - 1) : 0;
      const lastPartition = ix.partitions[ix.partitions.length - 1];
      const key = `${ix.metrics.length}|${now}|${live ? '' : t}|${size.width}x${size.height}|${lang}|${fs}|${font}|${ix.partitions.length}|${lastPartition?.end ?? ''}|${shownKey}`;
      if (drawnFor.current.ix === ix && drawnFor.current.key === key) return;
      drawnFor.current = { ix, key };
      const cursor = live ? null : t;
      const specs = chartSpecs(ix, workers, sampled, now, sim.durationMs);
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
    }), [sim, t, live, frame, lang, size, fs, font, shownKey]);

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
