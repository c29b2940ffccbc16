import { useEffect, useRef, useState } from 'react';
import { checkLinearizabilityAsync, describeVerdict, explainWitness, type Verdict } from '../check/linearizability';
import { checkModel } from '../check/models';
import { opsFromHistory } from '../check/ops';
import type { Simulation } from '../engine/simulation';
import type { HistoryEvent } from '../sim/types';
import './LinearizabilityPanel.css';

/**
 * "Linearizability check": runs the Wing & Gong / Lowe checker over the run's recorded reads and
 * updates, in slices so the page stays responsive, and shows the verdict — for a strategy that
 * gives up C, the concrete pair of operations no sequential order explains. Also the `violations`
 * metric with the first violation's detail. Self-contained: it needs only the simulation.
 */

type Lang = 'en' | 'zh';

const text = {
  title: { en: 'Linearizability check', zh: '线性一致性检查' },
  button: { en: 'check history', zh: '检查历史' },
  running: { en: 'checking…', zh: '检查中…' },
  checkedAt: { en: 'history up to t = {t} s, {n} operations', zh: '截至 t = {t} 秒的历史，{n} 个操作' },
  promised: { en: 'This strategy promises it: a failure is a bug.', zh: '该策略承诺这一点：不通过就是缺陷。' },
  notPromised: { en: 'This strategy does not promise it.', zh: '该策略不承诺这一点。' },
  linearizable: { en: 'linearizable', zh: '可线性化' },
  notLinearizable: { en: 'not linearizable', zh: '不可线性化' },
  unknown: { en: 'undecided', zh: '未判定' },
  violations: { en: 'invariant violations', zh: '不变量违反' },
  first: { en: 'first at t = {t} s', zh: '首次在 t = {t} 秒' },
  show: { en: 'show', zh: '跳转' },
  none: { en: 'no operations recorded yet', zh: '尚未记录任何操作' },
} as const;

function tr(lang: Lang, key: keyof typeof text, vars: Record<string, string | number> = {}): string {
  return text[key][lang].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
}

export interface LinearizabilityPanelProps {
  sim: Simulation;
  lang: Lang;
  /** Moves the play-head to a time (the first violation); optional. */
  onScrub?: (t: number) => void;
  /** Inside the checks panel: its tab carries the title and the violations count. */
  embedded?: boolean;
}

export function LinearizabilityPanel({ sim, lang, onScrub, embedded = false }: LinearizabilityPanelProps) {
  const [result, setResult] = useState<{ verdict: Verdict; at: number } | null>(null);
  const [running, setRunning] = useState(false);
  const current = useRef(sim);
  useEffect(() => {
    // A new run: the old verdict is about another history.
    current.current = sim;
    setResult(null);
    setRunning(false);
  }, [sim]);

  const model = checkModel(sim.scenario.strategy);
  const violations = sim.metric('violations') ?? 0;
  const firstViolation = violations > 0 ? sim.history.events.find((e): e is Extract<HistoryEvent, { type: 'violation' }> => e.type === 'violation') : undefined;

  const run = async () => {
    const at = sim.now();
    setRunning(true);
    const ops = opsFromHistory(sim.history.events);
    const verdict = await checkLinearizabilityAsync(ops, { mode: model.mode, budgetMs: 10_000, sliceMs: 12 });
    if (current.current !== sim) return;
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
        {model.what[lang]} {tr(lang, model.promises ? 'promised' : 'notPromised')}
      </p>
      {firstViolation && (
        <details className="violation-detail" data-testid="violation-detail">
          <summary>
            {firstViolation.invariant} — {tr(lang, 'first', { t: (firstViolation.t / 1000).toFixed(3) })}
            {onScrub && (
              <button type="button" onClick={() => onScrub(firstViolation.t)}>
                {tr(lang, 'show')}
              </button>
            )}
          </summary>
          <p className="num">{firstViolation.detail}</p>
        </details>
      )}
      <p className="lin-actions">
        <button type="button" data-testid="lin-check" disabled={running} onClick={() => void run()}>
          {running ? tr(lang, 'running') : tr(lang, 'button')}
        </button>
      </p>
      {v && result && (
        <div className={`lin-verdict ${verdictClass}`} data-testid="lin-verdict" data-result={v.result}>
          <strong>{v.result === 'linearizable' ? tr(lang, 'linearizable') : v.result === 'not-linearizable' ? tr(lang, 'notLinearizable') : tr(lang, 'unknown')}</strong>
          <span className="muted num"> · {v.ops === 0 ? tr(lang, 'none') : tr(lang, 'checkedAt', { t: (result.at / 1000).toFixed(1), n: v.ops })}</span>
          {v.result === 'not-linearizable' && <p className="num">{explainWitness(v.witness, lang)}</p>}
          {v.result === 'unknown' && <p className="num">{describeVerdict(v, lang)}</p>}
        </div>
      )}
    </section>
  );
}
