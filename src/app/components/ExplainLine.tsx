import { deriveExplainState, explain } from '../explain';
import { s } from '../i18n/strings';
import { useApp } from '../store';
import { indexOf, isLive, stateAt, staticOf } from '../views/runView';

/** Bottom "WHAT YOU SEE" line, derived from the run's state at the cursor time (now, when live). */
export function ExplainLine({ t }: { t: number }) {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const status = useApp((st) => st.status);
  useApp((st) => st.panelFrame);
  if (!sim) return <footer className="explain" />;
  const st = deriveExplainState({
    cfg: sim.scenario.strategy,
    ...(sim.scenario.coordination ? { coordination: sim.scenario.coordination } : {}),
    ix: indexOf(sim),
    static: staticOf(sim),
    state: stateAt(sim, t),
    done: status === 'done' && isLive(sim, t),
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
