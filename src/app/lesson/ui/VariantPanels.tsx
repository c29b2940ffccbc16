import type { CSSProperties } from 'react';
import type { RunReader } from '../../../engine/runReader';
import { strategyInfo } from '../../../protocols/registry';
import type { Action } from '../../../sim/types';
import { act, parseSelection } from '../../act';
import { expectationsAt, staticOf } from '../../views/runView';
import { ViewBoundary } from '../../components/ViewBoundary';
import { expectationText, formatMetric } from '../../format';
import { ls } from '../../i18n/lessonStrings';
import { tr, type Lang } from '../../i18n/lang';
import { metricLabel, s } from '../../i18n/strings';
import { frameSource, set, useApp } from '../../store';
import { useScheduleHash } from '../../scheduleHash';
import { LossCharts, type ChartId } from '../../views/LossCharts';
import { TopologyView } from '../../views/TopologyView';
import { VersionTimeline } from '../../views/VersionTimeline';
import { playhead, simOf } from '../playhead';
import { focusedMetrics, focusList, panelCharts } from '../focus';
import { sampleValue } from '../when';
import { sampleAt } from '../../../engine/index/metricSamples';
import { metricNames, type MetricName } from '../../../scenario/metricNames';
import { focusVariant } from '../runtime';
import { variantTitle } from '../script';
import { useLesson } from '../store';
import { CompareCard } from './CompareCard';

/**
 * The variants an act shows, side by side (small multiples): each with its topology, version
 * timeline and two charts, all at the one play-head t (scrubbing any timeline moves it for all),
 * with the same time axes, its class, its checks, and — once done — its schedule hash (a test
 * hook, compared with the CLI's). Acting on a panel first puts that variant in focus.
 */

function onScrub(t: number | null): void {
  set({ cursor: t });
}

function Checks({ sim, t, lang, offScript, open }: { sim: RunReader; t: number; lang: Lang; offScript: boolean; open: boolean }) {
  const list = expectationsAt(sim, t);
  const passed = list.filter((e) => e.pass === true).length;
  const failed = list.filter((e) => e.pass === false).length;
  if (list.length === 0) return null;
  return (
    <details className="vp-checks" data-lesson-panel="expectations" open={open || undefined}>
      <summary>
        {ls(lang, 'checks')}{' '}
        <span className={`tally num${failed > 0 ? ' bad' : ''}`}>
          {offScript ? ls(lang, 'checksNa') : `${passed}/${list.length} ✓${failed > 0 ? ` · ${failed} ✗` : ''}`}
        </span>
      </summary>
      <ul>
        {list.map((e, i) => {
          const text = expectationText(e, lang);
          return (
            <li key={i} data-testid="variant-expectation" data-pass={e.pass === null ? undefined : String(e.pass)} className={`expectation num ${e.pass === null ? 'pending' : e.pass ? 'pass' : 'fail'}`}>
              {text}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/** The focused metrics' values at the play-head, in this variant's run (the engine's samples). */
function MetricReadout({ sim, t, lang, metrics }: { sim: RunReader; t: number; lang: Lang; metrics: readonly MetricName[] }) {
  if (metrics.length === 0) return null;
  const m = sampleAt(sim.index().metrics, t);
  return (
    <div className="vp-metrics">
      {metrics.map((name) => {
        const v = m ? sampleValue(m.value, name) : null;
        return (
          <div key={name} className="vp-metric" data-metric={name}>
            <span className="metric-label">{metricLabel(lang, name)}</span>{' '}
            <span className="metric-value num" data-testid={`variant-metric-${name}`} data-value={v ?? ''}>
              {formatMetric(name, v)}
            </span>
          </div>
        );
      })}
    </div>
  );
}

/**
 * The panels' topology and timeline redraw on each engine frame at the play-head, without a React
 * render: re-rendering every panel sixty times a second (React, the charts, the checks) cost a
 * two-panel lesson ~12 % of the main thread. The rest of a panel follows store.panelFrame.
 */
const lessonFrames = frameSource(playhead);
const NO_MARKS: ReadonlyArray<{ t: number; label: string }> = [];

function VariantPanel({ id, charts, single, checksFocused, metrics }: { id: string; charts: ChartId[]; single: boolean; checksFocused: boolean; metrics: readonly MetricName[] }) {
  const lang = useApp((st) => st.lang);
  // Charts, checks, readouts and hooks: at most ten times a second while the runs go.
  const frame = useApp((st) => st.panelFrame);
  const cursor = useApp((st) => st.cursor);
  const selected = useApp((st) => st.selected);
  const lesson = useLesson((st) => st.lesson);
  const focus = useLesson((st) => st.focus);
  const offScript = useLesson((st) => st.offScript);
  const sim = simOf(id);
  const done = sim?.done ?? false;
  const hash = useScheduleHash(sim ?? null, done);
  if (!sim || !lesson) return null;
  const t = playhead();
  const focused = id === focus;
  const info = strategyInfo(sim.scenario.strategy.kind);
  const title = variantTitle(lesson, id)[lang];
  const onSelect = (sel: string | null): void => {
    if (!focused) void focusVariant(id);
    const p = parseSelection(sel);
    set(p === null ? { selected: null } : { selected: sel, toolTab: 'node' in p ? 'node' : 'links' });
  };
  const onAction = (a: Action): void => {
    if (focused) act(a);
    else void focusVariant(id).then(() => act(a));
  };
  return (
    <section className={`vp${focused ? ' focused' : ''}${single ? ' single' : ''}`} data-testid={`variant-${id}`} aria-label={title} data-focused={focused} style={{ '--lanes': staticOf(sim).nodes.length } as CSSProperties}>
      <header className="vp-head">
        <h2 className="vp-title">{title}</h2>
        <span className="cap-chip" title={info ? tr(info.name, lang) : sim.scenario.strategy.kind}>
          {sim.cap.pacelc}
        </span>
        <span className="spacer" />
        <button type="button" className="compact" onClick={() => void focusVariant(id, 'single')} title={ls(lang, 'allViewsTitle', { v: title })} aria-label={ls(lang, 'allViewsTitle', { v: title })} data-testid={`variant-full-${id}`}>
          ⤢
        </button>
        <span className="hook" aria-hidden="true" data-testid="variant-hash" data-variant={id}>
          {hash || null}
        </span>
        <span className="hook" aria-hidden="true" data-testid="variant-time" data-variant={id}>
          {Math.round(sim.now())}
        </span>
      </header>
      <MetricReadout sim={sim} t={t} lang={lang} metrics={metrics} />
      <div className="vp-body">
        <div className="view view-topology" aria-label={s(lang, 'topology')}>
          <ViewBoundary name={s(lang, 'topology')}>
            {/* The cursor re-renders for the draw's deps (a scrub while paused); frames move it. */}
            <TopologyView sim={sim} t={cursor ?? undefined} frames={lessonFrames} lang={lang} selected={focused ? selected : null} onSelect={onSelect} onAction={onAction} />
          </ViewBoundary>
        </div>
        <div className="view view-timeline" aria-label={s(lang, 'timeline')}>
          <ViewBoundary name={s(lang, 'timeline')}>
            <VersionTimeline sim={sim} frames={lessonFrames} lang={lang} cursor={cursor} onScrub={onScrub} marks={NO_MARKS} />
          </ViewBoundary>
        </div>
        <div className="view view-charts" aria-label={s(lang, 'charts')} data-charts={charts.length}>
          <ViewBoundary name={s(lang, 'charts')}>
            <LossCharts sim={sim} t={t} frame={frame} lang={lang} charts={charts} />
          </ViewBoundary>
        </div>
        <Checks key={String(checksFocused)} sim={sim} t={t} lang={lang} offScript={offScript} open={checksFocused} />
      </div>
    </section>
  );
}

export function VariantPanels() {
  const acts = useLesson((st) => st.acts);
  const pos = useLesson((st) => st.pos);
  const act = acts[pos.act];
  if (!act) return null;
  const charts = panelCharts(act, pos.step);
  // A step that points at the checks opens them.
  const metrics = focusedMetrics(focusList(act.steps[pos.step]?.focus), metricNames) as MetricName[];
  const checksFocused = focusList(act.steps[pos.step]?.focus).some((f) => f.kind === 'panel' && (f.name === 'expectations' || f.name === 'checks'));
  return (
    <div className="vp-grid" data-count={act.show.length}>
      {act.show.map((id) => (
        <VariantPanel key={id} id={id} charts={charts} single={act.show.length === 1} checksFocused={checksFocused} metrics={metrics} />
      ))}
      {/* Three panels leave the grid's fourth cell: it holds the act's comparison. */}
      {act.show.length === 3 && <CompareCard ids={act.show} focused={metrics} />}
    </div>
  );
}
