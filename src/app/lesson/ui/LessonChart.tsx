import { useEffect, useRef } from 'react';
import * as d3 from 'd3';
import type { z } from 'zod/mini';
import type { chartSchema } from '../../../scenario/lesson';
import { ls } from '../../i18n/lessonStrings';
import { metricLabel } from '../../i18n/strings';
import type { Lang } from '../../i18n/lang';
import { useApp } from '../../store';
import { formatValue } from '../placeholders';
import { ownTitle, variantTitle } from '../script';
import { useLesson } from '../store';
import { atWords, chartPending, liveValue, lookupValue } from '../liveValues';

type Chart = z.infer<typeof chartSchema>;

/**
 * A variant's tick on the sweep's axis: its title where the lesson gives one ("s = 1"), which is
 * how its panels and narration name it; else the knob's value in its strategy; else its id.
 */
function knobLabel(id: string, knob: string, lang: Lang): string {
  const st = useLesson.getState();
  const titled = st.lesson && ownTitle(st.lesson, id);
  if (titled) return titled[lang];
  const run = [...st.runs, ...st.ahead].find((r) => r.id === id);
  const v = run ? (run.scenario.strategy as Record<string, unknown>)[knob] : undefined;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return `${knob}=${String(v)}`;
  return id;
}

/** The sweep's value axis: a time in simulated ms reads as seconds; other metrics as numbers. */
function valueAxis(y: d3.ScaleLinear<number, number>, metric: string): d3.Axis<d3.NumberValue> {
  const axis = d3.axisLeft(y).ticks(4).tickSizeOuter(0);
  return metric === 'timeToTarget' ? axis.tickFormat((v) => `${Number(v) / 1000} s`) : axis;
}

/** While values wait for their runs: how far the slowest has got (the "—"s are not missing data). */
function Pending({ variants, metric, at, lang }: { variants: readonly string[]; metric: string; at: number | 'end'; lang: Lang }) {
  const words = chartPending(variants, metric, at, lang);
  return words ? (
    <span className="chart-pending" data-testid="chart-pending">
      {' · '}
      {words}
    </span>
  ) : null;
}

function Sweep({ chart, lang }: { chart: Extract<Chart, { kind: 'sweep' }>; lang: Lang }) {
  const ref = useRef<SVGSVGElement>(null);
  const frame = useApp((st) => st.panelFrame);
  const ahead = useLesson((st) => st.aheadTick);
  const W = 420;
  const H = 180;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const pts = chart.variants.map((id, i) => {
      const lv = liveValue({ variant: id, metric: chart.metric, at: chart.at });
      // A time to target that is null where its run got there: never reached, which the lessons
      // compare as +∞ (CURRICULUM §C.7), so it is drawn above the axis, not left out.
      const never = chart.metric === 'timeToTarget' && lv.value === null && !lv.waitsFor && !lv.noRun && !lv.stopped;
      return { id, i, label: knobLabel(id, chart.knob, lang), v: lv.value, never };
    });
    const x = d3
      .scalePoint<number>()
      .domain(pts.map((p) => p.i))
      .range([48, W - 16]);
    const max = d3.max(pts, (p) => p.v ?? 0) ?? 1;
    const y = d3
      .scaleLinear()
      .domain([0, max || 1])
      .nice()
      .range([H - 34, 12]);
    const svg = d3.select(el);
    svg
      .select<SVGGElement>('g.sw-y')
      .attr('transform', 'translate(48,0)')
      .call(valueAxis(y, chart.metric));
    svg
      .select<SVGGElement>('g.sw-x')
      .attr('transform', `translate(0,${H - 34})`)
      .call(
        d3
          .axisBottom(x)
          .tickFormat((i) => pts[i as number].label)
          .tickSizeOuter(0),
      );
    const known = pts.filter((p) => p.v !== null);
    svg
      .select('path.sw-line')
      .attr('d', d3.line<(typeof pts)[number]>((p) => x(p.i)!, (p) => y(p.v!))(known) ?? '');
    svg
      .select('g.sw-dots')
      .selectAll<SVGCircleElement, (typeof pts)[number]>('circle')
      .data(known, (p) => p.id)
      .join('circle')
      .attr('r', 5)
      .attr('cx', (p) => x(p.i)!)
      .attr('cy', (p) => y(p.v!));
    const at = atWords(chart.at, lang);
    svg
      .select('g.sw-never')
      .selectAll<SVGGElement, (typeof pts)[number]>('g')
      .data(
        pts.filter((p) => p.never),
        (p) => p.id,
      )
      .join((enter) => {
        const g = enter.append('g').attr('data-testid', 'sweep-never');
        g.append('circle').attr('r', 5);
        g.append('text').attr('y', 4).text('∞');
        g.append('title');
        return g;
      })
      .attr('transform', (p) => `translate(${x(p.i)!},${y.range()[1]})`)
      // The ∞ beside its mark, on the inner side at the right edge (it was cut there).
      .call((g) => g.select('text').attr('x', (p) => (p.i === pts.length - 1 ? -9 : 9)).attr('text-anchor', (p) => (p.i === pts.length - 1 ? 'end' : 'start')))
      .select('title')
      .text((p) => ls(lang, 'sweepNever', { v: p.label, at }));
  }, [chart, lang, frame, ahead]);
  return (
    <figure className="lesson-chart sweep" data-testid="lesson-chart" data-kind="sweep">
      <figcaption>
        {metricLabel(lang, chart.metric)} · {atWords(chart.at, lang)}
        <Pending variants={chart.variants} metric={chart.metric} at={chart.at} lang={lang} />
      </figcaption>
      <svg ref={ref} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${metricLabel(lang, chart.metric)} / ${chart.knob}`}>
        <g className="sw-y cv-axis" />
        <g className="sw-x cv-axis" />
        <path className="sw-line" />
        <g className="sw-dots" />
        <g className="sw-never" />
      </svg>
    </figure>
  );
}

function Table({ chart, lang }: { chart: Extract<Chart, { kind: 'table' }>; lang: Lang }) {
  useApp((st) => st.panelFrame);
  useLesson((st) => st.aheadTick);
  const lesson = useLesson((st) => st.lesson);
  return (
    <figure className="lesson-chart table" data-testid="lesson-chart" data-kind="table">
      <figcaption>
        {atWords(chart.at, lang)}
        <Pending variants={chart.variants} metric={chart.metrics[0]} at={chart.at} lang={lang} />
      </figcaption>
      <table className="num">
        <thead>
          <tr>
            <th scope="col">{ls(lang, 'variantCol')}</th>
            {chart.metrics.map((m) => (
              <th key={m} scope="col">
                {metricLabel(lang, m)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {chart.variants.map((id) => (
            <tr key={id}>
              <th scope="row">{lesson ? variantTitle(lesson, id)[lang] : id}</th>
              {chart.metrics.map((m) => (
                <td key={m}>{formatValue(lookupValue({ variant: id, metric: m, at: chart.at }), lang)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** A step's chart across variants (CURRICULUM §C.7): a sweep (L5) or a results table (L3). */
export function LessonChart({ chart, lang }: { chart: Chart; focus: string; lang: Lang }) {
  return chart.kind === 'sweep' ? <Sweep chart={chart} lang={lang} /> : <Table chart={chart} lang={lang} />;
}
