import { useEffect } from 'react';
import { driver } from '../../driver';
import { s } from '../../i18n/strings';
import { set, useApp } from '../../store';

// Apart from the lesson index: the doors show on the landing page, the index (and the lesson
// modules behind it) loads only when opened.
/** The landing page's two doors: press play (the first), or take a lesson. */
export function Doors() {
  const lang = useApp((st) => st.lang);
  const landing = useApp((st) => st.landing);
  const status = useApp((st) => st.status);
  const sim = useApp((st) => st.sim);
  const indexOpen = useApp((st) => st.indexOpen);
  useEffect(() => {
    if (landing && status === 'running') set({ landing: false });
  }, [landing, status]);
  if (!landing || indexOpen || !sim) return null;
  return (
    <section className="doors" aria-label={s(lang, 'doorsTitle')} data-testid="doors">
      <button
        type="button"
        className="door primary"
        data-testid="door-play"
        onClick={() => {
          set({ landing: false });
          driver.play();
        }}
      >
        <span className="door-title">▶ {s(lang, 'doorPlay')}</span>
        <span className="door-text">{s(lang, 'doorPlayText')}</span>
      </button>
      <button type="button" className="door" data-testid="door-lessons" onClick={() => set({ indexOpen: true, landing: false })}>
        <span className="door-title">{s(lang, 'doorLessons')} →</span>
        <span className="door-text">{s(lang, 'doorLessonsText')}</span>
      </button>
      <button type="button" className="compact door-close" onClick={() => set({ landing: false })} aria-label={s(lang, 'close')}>
        ✕
      </button>
    </section>
  );
}
