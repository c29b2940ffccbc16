import { useEffect, useRef } from 'react';
import { s } from '../i18n/strings';
import { expectationText } from '../format';
import { expectationsAt } from '../views/runView';
import { useApp } from '../store';

/**
 * The scenario's expectations, pending until their time, then ✓ or ✗ with the actual value.
 * The title carries the tally, and the list keeps the next pending one in view, so a teacher
 * sees how the run is doing without scrolling.
 */
export function Expectations({ embedded = false, t }: { embedded?: boolean; t: number }) {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  useApp((st) => st.panelFrame);
  const list = sim ? expectationsAt(sim, t) : [];
  const passed = list.filter((e) => e.pass === true).length;
  const failed = list.filter((e) => e.pass === false).length;
  const firstPending = list.findIndex((e) => e.pass === null);
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const ul = listRef.current;
    const item = ul?.children[firstPending === -1 ? list.length - 1 : firstPending] as HTMLElement | undefined;
    if (ul && item) ul.scrollTop = Math.max(0, item.offsetTop - ul.offsetTop - ul.clientHeight + item.offsetHeight * 2);
  }, [firstPending, list.length]);

  const body =
    list.length === 0 ? (
      <p className="muted">{s(lang, 'noExpectations')}</p>
    ) : (
      // Focusable: a list that scrolls must scroll by keyboard too.
      <ul ref={listRef} tabIndex={0} aria-label={s(lang, 'expectations')}>
        {list.map((e, i) => {
          const text = expectationText(e, lang);
          const mark = e.pass === null ? '' : text.slice(-1);
          return (
            <li
              key={i}
              data-testid="expectation"
              data-pass={e.pass === null ? undefined : String(e.pass)}
              className={`expectation num ${e.pass === null ? 'pending' : e.pass ? 'pass' : 'fail'}`}
            >
              {mark ? text.slice(0, -1) : text}
              {mark ? <span className="mark">{mark}</span> : null}
            </li>
          );
        })}
      </ul>
    );
  // Inside the checks panel the tab carries the title and the tally.
  if (embedded) return <div className="expectations embedded">{body}</div>;
  return (
    <section className="expectations panel" aria-label={s(lang, 'expectations')}>
      <h2 className="panel-title">
        {s(lang, 'expectations')}
        {list.length > 0 && (
          <span className="tally num">
            {passed}/{list.length} ✓{failed > 0 ? ` · ${failed} ✗` : null}
          </span>
        )}
      </h2>
      {body}
    </section>
  );
}
