import { useRef } from 'react';
import { deriveExplainState, explain, RepairTracker } from '../explain';
import { s } from '../i18n/strings';
import { useApp } from '../store';

/** Bottom "WHAT YOU SEE" line, derived from the run's state at the shown time. */
export function ExplainLine() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const status = useApp((st) => st.status);
  useApp((st) => st.frame);
  const repairs = useRef(new RepairTracker());
  if (!sim) return <footer className="explain" />;
  const text = explain(
    deriveExplainState({
      strategy: sim.scenario.strategy.kind,
      now: sim.now(),
      done: status === 'done',
      nodes: sim.nodes(),
      links: sim.links(),
      lastRepairAt: repairs.current.lastRepairAt(sim.history.events),
      metrics: sim.metrics(),
    }),
    lang,
  );
  return (
    <footer className="explain" aria-live="off" data-testid="explain">
      <span className="explain-label">{s(lang, 'whatYouSee')}</span>
      <span className="explain-text">{text}</span>
    </footer>
  );
}
