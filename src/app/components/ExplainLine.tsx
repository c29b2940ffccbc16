import { useEffect, useState } from 'react';
import { deriveExplainState, explain, explainLoaded, loadExplain } from '../explain';
import { s } from '../i18n/strings';
import { useApp } from '../store';
import { indexOf, isLive, stateAt, staticOf } from '../views/runView';

/** Bottom "WHAT YOU SEE" line, derived from the run's state at the cursor time (now, when live). */
export function ExplainLine({ t }: { t: number }) {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const status = useApp((st) => st.status);
  useApp((st) => st.panelFrame);
  const [, arrived] = useState(0);
  const cfg = sim?.scenario.strategy;
  const ready = !cfg || explainLoaded(cfg);
  // The run's text normally loaded with the run (load.ts); if not, say nothing until it arrives —
  // never another strategy's story. No dependency list: after a failed fetch the next render asks again.
  useEffect(() => {
    if (!cfg || ready) return;
    let alive = true;
    loadExplain(cfg).then(
      () => alive && arrived((n) => n + 1),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  });
  if (!sim || !ready) return <footer className="explain" />;
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
