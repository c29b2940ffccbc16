import { useRef } from 'react';
import { deriveExplainState, explain, HistoryTracker, RepairTracker } from '../explain';
import { s } from '../i18n/strings';
import { useApp } from '../store';
import { completeGroups, indexFor } from '../views/historyIndex';

/** Bottom "WHAT YOU SEE" line, derived from the run's state at the shown time. */
export function ExplainLine() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const status = useApp((st) => st.status);
  useApp((st) => st.frame);
  const repairs = useRef(new RepairTracker());
  const tracker = useRef(new HistoryTracker());
  if (!sim) return <footer className="explain" />;
  const now = sim.now();
  const nodes = sim.nodes();
  const part = indexFor(sim.history).partitionAt(now);
  const st = deriveExplainState({
    strategy: sim.scenario.strategy.kind,
    now,
    done: status === 'done',
    nodes,
    links: sim.links(),
    lastRepairAt: repairs.current.lastRepairAt(sim.history.events),
    metrics: sim.metrics(),
    config: sim.scenario.strategy as Record<string, unknown>,
    partition: part ? completeGroups(part.groups, nodes.map((n) => n.id)) : null,
    history: tracker.current.summary(sim.history.events),
    stepMs: sim.scenario.compute.stepMs,
  });
  const text = explain(st, lang);
  const bad = (st.metrics.violations ?? 0) > 0;
  return (
    <footer className={bad ? 'explain violated' : 'explain'} aria-live="off" data-testid="explain">
      <span className="explain-label">{s(lang, 'whatYouSee')}</span>
      <span className="explain-text">{text}</span>
    </footer>
  );
}
