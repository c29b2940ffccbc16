import { useState } from 'react';
import { useApp } from '../store';
import { useRoom } from './roomStore';
import { rs } from './strings';

/**
 * Focus the name field when it appears. Not `autoFocus`: React focuses such an element itself,
 * but the page runs on Preact (see scripts/preactAlias.mjs), which only sets the attribute, and
 * browsers honour that attribute at most once per page. Module-level, so the ref runs on mount only.
 */
const focusOnMount = (el: HTMLInputElement | null): void => el?.focus();

/** A student's first visit: her name, shown next to her node on every screen. */
export function NamePrompt() {
  const lang = useApp((st) => st.lang);
  const need = useRoom((st) => st.needName && st.role === 'student');
  const code = useRoom((st) => st.code);
  const controls = useRoom((st) => st.controls);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!need) return null;
  return (
    <div className="room-card-backdrop" role="dialog" aria-modal="true" aria-labelledby="room-name-title">
      <form
        className="room-card room-name-card"
        onSubmit={(e) => {
          e.preventDefault();
          setError(controls?.setName(name) ?? null);
        }}
      >
        <h2 id="room-name-title">{rs(lang, 'joinRoom', { code })}</h2>
        <label className="field room-name-field">
          <span className="field-label">{rs(lang, 'yourName')}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder={rs(lang, 'namePlaceholder')} maxLength={40} ref={focusOnMount} data-testid="classroom-name" />
        </label>
        <p className="muted">{rs(lang, 'nameHelp')}</p>
        {error && <p className="room-error" role="alert">{error}</p>}
        <div className="room-card-actions">
          <button type="submit" className="primary" disabled={!controls} data-testid="classroom-join">
            {rs(lang, 'joinButton')}
          </button>
        </div>
      </form>
    </div>
  );
}
