import { useState } from 'react';
import type { Lang } from '../i18n/lang';
import { s } from '../i18n/strings';
import type { LinearizabilityPanelProps } from '../LinearizabilityPanel';
import { onDemand } from '../onDemand';
import { useApp } from '../store';
import { lastAtOrBefore } from '../../engine/index/series';
import { expectationsAt, indexOf } from '../views/runView';
import { Expectations } from './Expectations';
import { ViewBoundary } from './ViewBoundary';

/**
 * The linearizability tab's panel loads when the tab first opens (issue 9), preloaded as the
 * pointer or the focus reaches the tab; a failed load shows in the tab, whose ↻ tries again.
 */
const linearizability = onDemand<LinearizabilityPanelProps, typeof import('../LinearizabilityPanel')>(
  () => import('../LinearizabilityPanel'),
  (m) => m.LinearizabilityPanel,
);

function preloadLinearizability(): void {
  linearizability.preload().catch(() => undefined); // a failure shows when the tab opens
}

/**
 * The scenario's checks under the tools: expectations and the linearizability check share one
 * panel of fixed height, as two tabs whose labels carry the tallies (so a failure shows even on
 * the other tab), and the topology keeps the rest of the column. Both tabs stay mounted (the
 * linearizability tab from its first opening): the expectation rows are test hooks, and a
 * finished linearizability verdict survives a tab switch.
 */
export function ChecksPanel({ t, onScrub }: { t: number; onScrub: (t: number) => void }) {
  const lang: Lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  useApp((st) => st.panelFrame);
  const [tab, setTab] = useState<'expect' | 'lin'>('expect');
  const list = sim ? expectationsAt(sim, t) : [];
  const passed = list.filter((e) => e.pass === true).length;
  const failed = list.filter((e) => e.pass === false).length;
  const violations = sim ? lastAtOrBefore(indexOf(sim).violations, t, (v) => v.t) + 1 : 0;
  return (
    <section className="panel checks" aria-label={s(lang, 'expectations')}>
      <div className="checks-tabs" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'expect'} className={tab === 'expect' ? 'tab active' : 'tab'} onClick={() => setTab('expect')}>
          {s(lang, 'expectations')}
          {list.length > 0 && (
            <span className={`tally num${failed > 0 ? ' bad' : ''}`}>
              {passed}/{list.length} ✓{failed > 0 ? ` · ${failed} ✗` : null}
            </span>
          )}
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'lin'}
          className={tab === 'lin' ? 'tab active' : 'tab'}
          onClick={() => setTab('lin')}
          onPointerEnter={preloadLinearizability}
          onFocus={preloadLinearizability}
          data-testid="show-linearizability"
        >
          {s(lang, 'checksLinearizability')}
          <span className={`tally num${violations > 0 ? ' bad' : ''}`}>
            {violations > 0 ? '⚠ ' : null}
            {s(lang, 'checksViolations')}: {violations}
          </span>
        </button>
      </div>
      <div className="checks-pane" role="tabpanel" hidden={tab !== 'expect'}>
        <Expectations embedded t={t} />
      </div>
      <div className="checks-pane" role="tabpanel" hidden={tab !== 'lin'}>
        {sim && (tab === 'lin' || linearizability.ready()) && (
          <ViewBoundary name={s(lang, 'checksLinearizability')}>
            <linearizability.Part sim={sim} lang={lang} t={t} onScrub={onScrub} embedded />
          </ViewBoundary>
        )}
      </div>
    </section>
  );
}
