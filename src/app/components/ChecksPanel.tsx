import { useState } from 'react';
import type { Lang } from '../i18n/lang';
import { s } from '../i18n/strings';
import { LinearizabilityPanel } from '../LinearizabilityPanel';
import { useApp } from '../store';
import { lastAtOrBefore } from '../../engine/index/series';
import { expectationsAt, indexOf } from '../views/runView';
import { Expectations } from './Expectations';

/**
 * The scenario's checks under the tools: expectations and the linearizability check share one
 * panel of fixed height, as two tabs whose labels carry the tallies (so a failure shows even on
 * the other tab), and the topology keeps the rest of the column. Both tabs stay mounted: the
 * expectation rows are test hooks, and a finished linearizability verdict survives a tab switch.
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
        {sim && <LinearizabilityPanel sim={sim} lang={lang} t={t} onScrub={onScrub} embedded />}
      </div>
    </section>
  );
}
