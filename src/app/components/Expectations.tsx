import { s } from '../i18n/strings';
import { expectationText } from '../format';
import { useApp } from '../store';

/** The scenario's expectations, pending until their time, then ✓ or ✗ with the actual value. */
export function Expectations() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  useApp((st) => st.frame);
  const list = sim ? sim.expectations() : [];
  return (
    <section className="expectations panel" aria-label={s(lang, 'expectations')}>
      <h2 className="panel-title">{s(lang, 'expectations')}</h2>
      {list.length === 0 ? (
        <p className="muted">{s(lang, 'noExpectations')}</p>
      ) : (
        <ul>
          {list.map((e, i) => (
            <li
              key={i}
              data-testid="expectation"
              data-pass={e.pass === null ? undefined : String(e.pass)}
              className={`expectation num ${e.pass === null ? 'pending' : e.pass ? 'pass' : 'fail'}`}
            >
              {expectationText(e, lang)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
