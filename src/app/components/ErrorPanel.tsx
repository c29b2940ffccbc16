import { s } from '../i18n/strings';
import { dismissError, setNotice, useApp } from '../store';
import { wholeIds } from '../wholeIds';

/** A message with its hyphenated ids kept on one line each (wholeIds). */
function Text({ text }: { text: string }) {
  return (
    <>
      {wholeIds(text).map((p, i) =>
        p.id ? (
          <span className="whole" key={i}>
            {p.text}
          </span>
        ) : (
          p.text
        ),
      )}
    </>
  );
}

/** Errors (dismissable, one block each, `data-testid="error"`) and the info notice. */
export function ErrorPanel() {
  const lang = useApp((st) => st.lang);
  const errors = useApp((st) => st.errors);
  const notice = useApp((st) => st.notice);
  if (errors.length === 0 && !notice) return null;
  return (
    <div className="messages">
      {errors.map((e) => (
        <div className="error" role="alert" data-testid="error" key={e.id}>
          <div className="error-body">
            <strong>
              <Text text={e.text} />
            </strong>
            {e.details && e.details.length > 0 && (
              <ul>
                {e.details.map((d, i) => (
                  <li key={i}>
                    <Text text={d} />
                  </li>
                ))}
              </ul>
            )}
          </div>
          <button type="button" className="dismiss" onClick={() => dismissError(e.id)} aria-label={s(lang, 'dismiss')} title={s(lang, 'dismiss')}>
            ×
          </button>
        </div>
      ))}
      {notice && (
        <div className="notice" role="status" data-testid="notice">
          <span className="notice-text">
            <Text text={notice} />
          </span>
          <button type="button" className="dismiss" onClick={() => setNotice(null)} aria-label={s(lang, 'dismiss')} title={s(lang, 'dismiss')}>
            ×
          </button>
        </div>
      )}
    </div>
  );
}
