import type { MetricName } from '../../scenario/schema';
import { s, type StringKey } from '../i18n/strings';
import { formatBytes, formatMetric, stripMetrics } from '../format';
import { useApp } from '../store';

/** The metrics strip: current cluster-wide values, `data-testid="metric-<name>"` each. */
export function MetricsStrip() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  useApp((st) => st.frame);
  const values: Partial<Record<MetricName, number | null>> = sim ? sim.metrics() : {};
  return (
    <section className="metrics-strip" aria-label={s(lang, 'metrics')}>
      {stripMetrics.map((name) => {
        const v = values[name] ?? (sim ? sim.metric(name) : null);
        const text = formatMetric(name, v);
        return (
          <div className="metric" key={name}>
            <span className="metric-label">{s(lang, `m_${name}` as StringKey)}</span>
            <span
              className="metric-value num"
              data-testid={`metric-${name}`}
              data-value={v ?? ''}
              title={name === 'bytes' && typeof v === 'number' ? formatBytes(v) : name}
            >
              {text}
            </span>
          </div>
        );
      })}
    </section>
  );
}
