import { useEffect, useRef, useState } from 'react';
import { ls } from '../../i18n/lessonStrings';
import { s } from '../../i18n/strings';
import type { Lang } from '../../i18n/lang';
import { openBuiltin } from '../../load';
import { set, useApp, type BuiltinEntry } from '../../store';
import { catalog, lessonByNumber, paths, type CatalogLesson } from '../curriculum';
import { openLessonById } from '../open';
import { clearProgress, fractionSeen, loadProgress, type Progress } from '../progress';

/**
 * The landing page's second door: the fourteen lessons of the curriculum (time, prerequisites,
 * the learner's progress in this browser), the three lecture paths and the interview sprint. A
 * lesson whose file has not shipped yet is listed as coming; one shipped without a script opens
 * as a plain scenario.
 */

interface Row extends CatalogLesson {
  builtin?: BuiltinEntry;
}

function rows(builtins: readonly BuiltinEntry[]): Row[] {
  return catalog.map((c) => {
    const b = builtins.find((x) => x.id === c.id);
    return { ...c, ...(b?.title ? { title: b.title } : {}), ...(b?.lesson ? { minutes: b.lesson.minutes, prerequisites: b.lesson.prerequisites } : {}), builtin: b };
  });
}

/** Opens lesson `id` (where the learner left it, if they did), and names it in the address. */
async function start(row: Row, progress: Progress): Promise<void> {
  set({ indexOpen: false, landing: false });
  const q = new URLSearchParams(location.search);
  for (const k of ['scenario', 'lessons', 'step', 'variant', 'mode', 'at', 'autoplay']) q.delete(k);
  if (row.builtin?.guided) {
    q.set('lesson', row.id);
    history.replaceState(null, '', `?${q}`);
    const last = progress[row.id]?.last;
    const resume = last && !progress[row.id]?.done ? last : undefined;
    await openLessonById(row.id, resume ? { step: resume } : {});
  } else {
    q.delete('lesson');
    q.set('scenario', row.id);
    history.replaceState(null, '', `?${q}`);
    await openBuiltin(row.id);
  }
}

function LessonRow({ row, lang, progress }: { row: Row; lang: Lang; progress: Progress }) {
  const p = progress[row.id];
  const seen = fractionSeen(p);
  const available = row.builtin !== undefined;
  const action = !available ? ls(lang, 'coming') : p?.done ? ls(lang, 'review') : p && p.seen.length > 0 ? ls(lang, 'resume') : ls(lang, 'start');
  return (
    <li className={`index-row${available ? '' : ' coming'}`} data-testid={`index-lesson-${row.number}`} data-available={available}>
      <span className="index-num num">L{row.number}</span>
      <span className="index-title">
        <span>{row.title[lang]}</span>
        <span className="muted small">
          {ls(lang, 'minutes', { n: row.minutes })} · {ls(lang, 'prerequisites')}:{' '}
          {row.prerequisites.length === 0 ? ls(lang, 'none') : row.prerequisites.map((id) => `L${catalog.find((c) => c.id === id)?.number ?? '?'}`).join(', ')}
          {p && ` · ${p.done ? `✓ ${ls(lang, 'finished')}` : ls(lang, 'seen', { n: p.seen.length, m: p.total })}`}
        </span>
      </span>
      <span className="index-bar" aria-hidden="true">
        <span style={{ width: `${Math.round(seen * 100)}%` }} />
      </span>
      <button type="button" className={available && !p?.done ? 'primary' : ''} disabled={!available} onClick={() => void start(row, progress)} aria-label={`${action}: L${row.number} ${row.title[lang]}`}>
        {action}
      </button>
    </li>
  );
}

export function LessonIndex() {
  const lang = useApp((st) => st.lang);
  const open = useApp((st) => st.indexOpen);
  const builtins = useApp((st) => st.builtins);
  const [progress, setProgress] = useState<Progress>({});
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    setProgress(loadProgress());
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') set({ indexOpen: false });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  if (!open) return null;
  const all = rows(builtins);
  return (
    <div className="index-backdrop" onClick={(e) => e.target === e.currentTarget && set({ indexOpen: false })}>
      <div className="lesson-index" role="dialog" aria-modal="true" aria-labelledby="lesson-index-title" data-testid="lesson-index">
        <header className="index-head">
          <h2 id="lesson-index-title">{ls(lang, 'lessonIndex')}</h2>
          <p className="muted">{ls(lang, 'indexIntro')}</p>
          <button type="button" ref={closeRef} className="index-close" onClick={() => set({ indexOpen: false })} aria-label={s(lang, 'close')}>
            ✕
          </button>
        </header>
        <div className="index-body">
          <section aria-labelledby="index-paths">
            <h3 id="index-paths" className="lesson-kicker">
              {ls(lang, 'paths')}
            </h3>
            <ul className="index-paths">
              {paths.map((p) => (
                <li key={p.id} className="index-path" data-testid={`path-${p.id}`}>
                  <p className="path-title">{p.title[lang]}</p>
                  <p className="muted small">
                    {ls(lang, 'pathMinutes', { n: p.minutes })} · {ls(lang, p.audience === 'class' ? 'forClass' : 'alone')}
                  </p>
                  <ol className="path-lessons">
                    {p.lessons.map((n) => {
                      const row = all.find((r) => r.number === n)!;
                      const done = progress[row.id]?.done;
                      return (
                        <li key={n}>
                          <button type="button" className={`chip${done ? ' done' : ''}`} disabled={!row.builtin} onClick={() => void start(row, progress)} title={lessonByNumber(n)?.title[lang]}>
                            {done ? '✓ ' : null}L{n}
                          </button>
                        </li>
                      );
                    })}
                  </ol>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="index-lessons">
            <h3 id="index-lessons" className="lesson-kicker">
              {s(lang, 'lessons')}
            </h3>
            <ol className="index-lessons">
              {all.map((r) => (
                <LessonRow key={r.id} row={r} lang={lang} progress={progress} />
              ))}
            </ol>
          </section>
        </div>
        <footer className="index-foot">
          <span className="muted small">{ls(lang, 'progressNote')}</span>
          <button
            type="button"
            onClick={() => {
              clearProgress();
              setProgress({});
            }}
          >
            {ls(lang, 'clearProgress')}
          </button>
        </footer>
      </div>
    </div>
  );
}
