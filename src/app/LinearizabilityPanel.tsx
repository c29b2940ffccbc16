import { useEffect, useRef, useState } from 'react';
import type { Verdict } from '../check/linearizabilityModel';
import { checkModel } from '../check/models';
import { lastAtOrBefore } from '../engine/index/series';
import type { RunReader } from '../engine/runReader';
import { opEventsUpTo } from './opEvents';
import { capOf, strategyInfo } from '../protocols/registry';
import { consistencyName } from './explain/common';
import { addEnglish, translate, type KeyOf, type Vars } from './i18n/catalog';
import type { Lang } from './i18n/lang';
import { indexOf } from './views/runView';
import { checkWhatText } from './words/checkWords';
import { invariantName } from './words/invariantWords';
import './LinearizabilityPanel.css';
import enLin from './i18n/locales/en.lin.json';

// The tab's English texts come with it (catalog.ts `addEnglish`).
addEnglish('lin', enLin);

/**
 * "Linearizability check": runs the Wing & Gong / Lowe checker over the run's recorded reads and
 * updates up to the cursor time, in slices so the page stays responsive, and shows the verdict —
 * for a strategy that gives up C, the concrete pair of operations no sequential order explains.
 * What the check means is said for the running configuration: all-reduce and ps-sync are checked
 * as lockstep rounds (reads may lag), which is not linearizability.
 */

/** The panel's words: namespace `lin` of the catalogs in ./i18n/locales (`n` picks the plural form). */
function tr(lang: Lang, key: KeyOf<'lin'>, vars?: Vars): string {
  return translate(lang, 'lin', key, vars);
}

export interface LinearizabilityPanelProps {
  sim: RunReader;
  lang: Lang;
  /** The cursor time: the check covers the operations recorded up to it. */
  t: number;
  /** Moves the play-head to a time (the first violation); optional. */
  onScrub?: (t: number) => void;
  /** Inside the checks panel: its tab carries the title and the violations count. */
  embedded?: boolean;
}

export function LinearizabilityPanel({ sim, lang, t, onScrub, embedded = false }: LinearizabilityPanelProps) {
  const [result, setResult] = useState<{ verdict: Verdict; at: number } | null>(null);
  const [running, setRunning] = useState(false);
  // The checker is loaded on the first check (the page's first paint does not need it).
  const [lin, setLin] = useState<typeof import('../check/linearizabilityExplain') | null>(null);
  const current = useRef(sim);
  useEffect(() => {
    // A new run: the old verdict is about another history.
    current.current = sim;
    setResult(null);
    setRunning(false);
  }, [sim]);

  const model = checkModel(sim.scenario.strategy);
  const cap = strategyInfo(sim.scenario.strategy.kind) ? capOf(sim.scenario.strategy) : null;
  const ix = indexOf(sim);
  const upTo = lastAtOrBefore(ix.violations, t, (v) => v.t) + 1;
  const violations = upTo;
  const firstViolation = upTo > 0 ? ix.violations[0] : undefined;
  const rounds = model.mode === 'rounds';
  const promise = rounds ? tr(lang, 'promisedRounds') : model.promises ? tr(lang, 'promisedC') : tr(lang, 'notPromised', { what: cap ? consistencyName(cap)[lang] : '—' });

  const run = async () => {
    const at = t;
    setRunning(true);
    const [checker, explain, { opsFromHistory }] = await Promise.all([import('../check/linearizability'), import('../check/linearizabilityExplain'), import('../check/ops')]);
    const ops = opsFromHistory(await opEventsUpTo(sim.history, at));
    const verdict = await checker.checkLinearizabilityAsync(ops, { mode: model.mode, budgetMs: 10_000, sliceMs: 12 });
    if (current.current !== sim) return;
    setLin(explain);
    setResult({ verdict, at });
    setRunning(false);
  };

  const v = result?.verdict;
  const verdictClass = !v ? '' : v.result === 'linearizable' ? 'pass' : v.result === 'not-linearizable' ? 'fail' : 'pending';
  return (
    <section className={embedded ? 'linearizability embedded' : 'panel linearizability'} aria-label={tr(lang, 'title')} data-testid="linearizability-panel">
      <h2 className={embedded ? 'visually-hidden' : 'panel-title'}>
        {tr(lang, 'title')}
        <span className="tally num" data-testid="metric-violations-panel" title={tr(lang, 'violations')}>
          {tr(lang, 'violations')}: {violations}
        </span>
      </h2>
      <p className="muted">
        {checkWhatText(model.what, lang)} {promise}
      </p>
      {firstViolation && (
        <details className="violation-detail" data-testid="violation-detail">
          <summary>
            {invariantName(firstViolation.invariant, lang)} — {tr(lang, 'first', { t: (firstViolation.t / 1000).toFixed(3) })}
            {onScrub && (
              <button type="button" onClick={() => onScrub(firstViolation.t)}>
                {tr(lang, 'show')}
              </button>
            )}
          </summary>
          {lang === 'en' && <p className="num">{firstViolation.detail}</p>}
        </details>
      )}
      <p className="lin-actions">
        <button type="button" data-testid="lin-check" disabled={running} onClick={() => void run()}>
          {running ? tr(lang, 'running') : tr(lang, 'button', { t: (t / 1000).toFixed(1) })}
        </button>
      </p>
      {v && result && (
        <div className={`lin-verdict ${verdictClass}`} data-testid="lin-verdict" data-result={v.result}>
          <strong>{v.result === 'linearizable' ? tr(lang, rounds ? 'roundsOk' : 'linearizable') : v.result === 'not-linearizable' ? tr(lang, rounds ? 'roundsBad' : 'notLinearizable') : tr(lang, 'unknown')}</strong>
          <span className="muted num"> · {v.ops === 0 ? tr(lang, 'none') : tr(lang, 'checkedAt', { t: (result.at / 1000).toFixed(1), n: v.ops })}</span>
          {v.result === 'not-linearizable' && lin && <p className="num">{lin.explainWitness(v.witness, lang)}</p>}
          {/* The checker's reason is its own English diagnostic: a Chinese screen says what it means. */}
          {v.result === 'unknown' && <p className="num">{lang === 'zh' ? tr(lang, 'gaveUp') : lin?.describeVerdict(v, lang)}</p>}
        </div>
      )}
    </section>
  );
}
