import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { needsSecurity, scenarioNeedsSecurity } from '../../engine/security/load';
import { deriveExplainState, explain, explainLoaded, explainSecurityLoaded, loadExplain, loadExplainSecurity } from '../explain';
import { s } from '../i18n/strings';
import { useApp } from '../store';
import { indexOf, isLive, stateAt, staticOf } from '../views/runView';

/**
 * Bottom "WHAT YOU SEE" line, derived from the run's state at the cursor time (now, when live).
 * `end` sits at its right end (free play's way back to the lesson): in the page's flow, so it
 * covers no metric, where a floating button hid the strip's last two.
 */
export function ExplainLine({ t, end }: { t: number; end?: ReactNode }) {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const status = useApp((st) => st.status);
  useApp((st) => st.panelFrame);
  const [, arrived] = useState(0);
  const presenter = useApp((st) => st.presenter);
  const footer = useRef<HTMLElement>(null);
  useGrowOnly(footer, sim, lang, presenter);
  const cfg = sim?.scenario.strategy;
  const ready = !cfg || explainLoaded(cfg);
  // The run's text normally loaded with the run (load.ts); if not, say nothing until it arrives —
  // never another strategy's story. No dependency list: after a failed fetch the next render asks again.
  // Likewise the attack sentence, once the run has a security block, a tamper or a Byzantine
  // worker: until it arrives the line says the strategy's sentence alone.
  const attackTextDue = sim !== null && (scenarioNeedsSecurity(sim.scenario) || sim.userActions().some((u) => needsSecurity(u.action))) && !explainSecurityLoaded();
  useEffect(() => {
    if (!cfg || (ready && !attackTextDue)) return;
    let alive = true;
    Promise.all([loadExplain(cfg), attackTextDue ? loadExplainSecurity() : null]).then(
      () => alive && arrived((n) => n + 1),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  });
  if (!sim || !ready)
    return (
      <footer ref={footer} className="explain">
        {end}
      </footer>
    );
  const st = deriveExplainState({
    cfg: sim.scenario.strategy,
    ...(sim.scenario.coordination ? { coordination: sim.scenario.coordination } : {}),
    ...(sim.scenario.security ? { security: sim.scenario.security } : {}),
    ix: indexOf(sim),
    static: staticOf(sim),
    state: stateAt(sim, t),
    done: status === 'done' && isLive(sim, t),
    stepMs: sim.scenario.compute.stepMs,
  });
  const text = explain(st, lang);
  const bad = (st.metrics.violations ?? 0) > 0;
  return (
    <footer ref={footer} className={bad ? 'explain violated' : 'explain'} aria-live="off" data-testid="explain">
      <span className="explain-label">{s(lang, 'whatYouSee')}</span>
      <span className="explain-text">{text}</span>
      {end}
    </footer>
  );
}

/**
 * The line keeps the tallest height it has had for this run, language, type size (presenter, and
 * the window's height in presenter) and width. Its sentence changes with the run (two, three,
 * four lines at 1280 px), and each change of height resized every view above it: raft-ps-majority jumped seven times in 14 s, each a page
 * layout and a full redraw of every view (a 45–68 ms task). Now it grows at most a few times a run
 * and never shrinks back. The sizes come from a ResizeObserver: nothing is read in a frame.
 */
function useGrowOnly(ref: RefObject<HTMLElement | null>, run: unknown, lang: string, presenter: boolean): void {
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    el.style.minHeight = '';
    let size = '';
    let tallest = 0;
    const ro = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].borderBoxSize[0];
      if (!box) return;
      // The window's height too: the presenter step sizes the type by it (css/theme.css).
      const now = `${box.inlineSize}x${window.innerHeight}`;
      if (now !== size) {
        // Another width or type size wraps the sentence anew: start again. This size was laid out
        // under the old minimum, so it is not the sentence's own; the next callback (if any) brings that.
        const first = size === '';
        size = now;
        tallest = 0;
        el.style.minHeight = '';
        if (!first) return;
      }
      if (box.blockSize > tallest) {
        tallest = box.blockSize;
        el.style.minHeight = `${tallest}px`;
      }
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, run, lang, presenter]);
}
