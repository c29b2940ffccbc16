import type { CSSProperties, ReactNode } from 'react';
import { sampleAt } from '../../../engine/index/metricSamples';
import type { MetricName } from '../../../scenario/schema';
import { formatMetric, secondsNumber } from '../../format';
import { ls } from '../../i18n/lessonStrings';
import { metricLabel } from '../../i18n/strings';
import { useApp } from '../../store';
import { compareMetrics } from '../compare';
import { playhead, simOf } from '../playhead';
import { variantTitle } from '../script';
import { useLesson } from '../store';
import { sampleValue } from '../when';

/**
 * The empty fourth cell of a three-variant act: each shown variant's values of the metrics its
 * checks measure — what the act compares, in one table, where the panels spread it over three
 * readouts. Values are the engine's newest samples at the play-head, as the panels' readouts and
 * checks read them.
 */
export function CompareCard({ ids, focused }: { ids: readonly string[]; focused: readonly MetricName[] }) {
  const lang = useApp((st) => st.lang);
  useApp((st) => st.panelFrame);
  const lesson = useLesson((st) => st.lesson);
  const runs = ids.map((id) => ({ id, sim: simOf(id) })).filter((r): r is { id: string; sim: NonNullable<typeof r.sim> } => !!r.sim);
  if (!lesson || runs.length === 0) return null;
  const t = playhead();
  const metrics = compareMetrics(lesson, ids, focused);
  if (metrics.length === 0) return null;
  const focusedSet = new Set<string>(focused);
  // The engine samples its metrics every 250 ms of simulated time: the card says which sample it shows.
  const samples = runs.map((r) => ({ ...r, sample: sampleAt(r.sim.index().metrics, t) }));
  const sampledAt = Math.max(0, ...samples.map((r) => r.sample?.t ?? 0));
  const valueOf = (sample: (typeof samples)[number]['sample'], m: string): number | null => (sample ? sampleValue(sample.value, m) : null);
  // Each value also as a bar, to its column's largest: "1.4× the rounds" reads at a glance from the back row.
  const maxOf = new Map(metrics.map((m) => [m, Math.max(0, ...samples.map((r) => Math.abs(valueOf(r.sample, m) ?? 0)))]));
  return (
    <section className="vp vp-compare" data-testid="compare-card" aria-label={ls(lang, 'sideBySide')}>
      <header className="vp-head">
        <h2 className="vp-title">{ls(lang, 'sideBySide')}</h2>
        <span className="cap-chip num">{ls(lang, 'tableAt', { t: secondsNumber(sampledAt) })}</span>
      </header>
      <div className="vp-compare-body">
        <table>
          <thead>
            <tr>
              <th scope="col">{ls(lang, 'variantCol')}</th>
              {metrics.map((m) => (
                <th key={m} scope="col" className={focusedSet.has(m) ? 'focused' : undefined}>
                  {metricLabel(lang, m)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {samples.map(({ id, sample }) => (
              <tr key={id}>
                <th scope="row">{breakAfterDots(variantTitle(lesson, id)[lang])}</th>
                {metrics.map((m) => {
                  const v = valueOf(sample, m);
                  const max = maxOf.get(m) ?? 0;
                  const bar = v !== null && max > 0 ? ({ '--frac': (Math.abs(v) / max).toFixed(3) } as CSSProperties) : undefined;
                  return (
                    <td key={m} className={focusedSet.has(m) ? 'num focused' : 'num'} style={bar} data-testid={`compare-${id}-${m}`} data-value={v ?? ''}>
                      {formatMetric(m, v)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * A variant's name with a break allowed after each dot of a dotted setting: "min.insync.replicas=2",
 * unbroken, took half a 1280-px presenter card and pushed its fourth column (unclean elections, the
 * act's point) out of sight. A decimal ("0.5") keeps its dot.
 */
function breakAfterDots(title: string): ReactNode[] {
  return title.split(/(?<=\.)(?=[A-Za-z])/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}
