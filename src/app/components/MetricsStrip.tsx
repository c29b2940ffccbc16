import type { CSSProperties } from 'react';
import { metricNames, type MetricName } from '../../scenario/metricNames';
import { s, type StringKey } from '../i18n/strings';
import { formatBytes, formatMetric, stripLayout, worthACell } from '../format';
import { useApp } from '../store';
import { invariantName } from '../words/invariantWords';
import { indexOf, stateAt } from '../views/runView';

/**
 * The metrics strip: the core C/A metrics, the running strategy's own (leaders, term, consumer
 * lag, clock gap …, those it defines) and `violations`, one `data-testid="metric-<name>"` each.
 * Values are the engine's sample at the cursor time (the same samples the charts plot and
 * `--samples` writes), never computed by the screen. Metrics that do not fit stay in the DOM as
 * invisible hooks, so scripts can still read them. The first cell says when that sample was taken:
 * the panels and the topology show the view time itself, up to a sampling period later (paused at
 * 15.5 s, the strip read "commit index 199" beside the servers' "commit 203").
 */
export function MetricsStrip({ t }: { t: number }) {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  useApp((st) => st.panelFrame);
  const state = sim ? stateAt(sim, t) : null;
  const sample = state?.metrics ?? null;
  // With a ZooKeeper service and no Raft, Paxos or Kafka group of the strategy's own, the term
  // the run reports is the service's Zab epoch: name it so.
  const zabTerm = sim?.scenario.coordination?.service === 'zookeeper' && !!state && !state.nodes.some((n) => n.facts?.kind === 'raft-server' || n.facts?.kind === 'paxos-server' || n.facts?.kind === 'kafka-broker');
  const value = (name: MetricName): number | null => sample?.cluster[name] ?? null;
  const kind = sim?.scenario.strategy.kind ?? '';
  const secured = !!sim?.scenario.security;
  const { visible, hidden } = stripLayout(kind, (m) => worthACell(m, value(m), secured), metricNames);
  const violations = value('violations') ?? 0;
  const first = violations > 0 && sim ? indexOf(sim).violations[0] : undefined;
  // The detail is the strategy's own English diagnostic: a Chinese screen names the invariant only.
  const firstText = first ? s(lang, 'violationTitle', { what: lang === 'zh' ? invariantName(first.invariant, lang) : `${invariantName(first.invariant, lang)}: ${first.detail}` }) : '';
  const sampledText = state?.sampledAt != null ? `${(state.sampledAt / 1000).toFixed(2)} s` : '—';
  return (
    <section className="metrics-strip" aria-label={s(lang, 'metrics')} style={{ gridTemplateColumns: `repeat(${visible.length + 1}, minmax(0, 1fr))` }}>
      <div className="metric quiet sample-at" title={s(lang, 'sampledAtHint')}>
        <span className="metric-label">{s(lang, 'sampledAt')}</span>
        <span className="metric-value num" data-testid="metrics-sampled-at" data-value={state?.sampledAt ?? ''} style={{ '--chars': sampledText.length } as CSSProperties}>
          {sampledText}
        </span>
      </div>
      {visible.map((name) => {
        const v = value(name);
        const text = formatMetric(name, v);
        const bad = name === 'violations' && violations > 0;
        const label = s(lang, name === 'term' && zabTerm ? 'm_term_zab' : (`m_${name}` as StringKey));
        return (
          <div className={bad ? 'metric bad' : name === 'violations' ? 'metric quiet' : 'metric'} key={name} title={bad ? firstText : `${label} (${name})`}>
            <span className="metric-label">
              {bad && <span aria-hidden="true">⚠ </span>}
              {label}
            </span>
            <span className="metric-value num" data-testid={`metric-${name}`} data-value={v ?? ''} title={name === 'bytes' && typeof v === 'number' ? formatBytes(v) : undefined} style={{ '--chars': text.length } as CSSProperties}>
              {text}
            </span>
          </div>
        );
      })}
      {hidden.map((name) => {
        const v = value(name);
        return (
          <span key={name} className="hook" aria-hidden="true" data-testid={`metric-${name}`} data-value={v ?? ''}>
            {formatMetric(name, v)}
          </span>
        );
      })}
    </section>
  );
}
