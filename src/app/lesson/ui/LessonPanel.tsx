import { useEffect, useRef } from 'react';
import { ls } from '../../i18n/lessonStrings';
import { s } from '../../i18n/strings';
import { useApp } from '../../store';
import { next, prev } from '../controller';
import { setLesson, useLesson } from '../store';
import { AboutLesson, Misconceptions } from './LessonInfo';
import { StepCard, WaitBox } from './StepCard';

/**
 * The lesson's column beside the runs: where we are (lesson, act, step), the step with its live
 * values, prediction and "try it", the wait at an interactive entry, the popular answer it
 * corrects, and the way on (← →, free play). Readable from the back of a room in presenter mode.
 */
export function LessonPanel() {
  const lang = useApp((st) => st.lang);
  const lesson = useLesson((st) => st.lesson);
  const acts = useLesson((st) => st.acts);
  const pos = useLesson((st) => st.pos);
  const offScript = useLesson((st) => st.offScript);
  const goingTo = useLesson((st) => st.goingTo);
  const scrollRef = useRef<HTMLDivElement>(null);
  // A new step starts at the top of the column (a write, not a layout read).
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [pos]);
  if (!lesson) return null;
  const act = acts[pos.act];
  const meta = lesson.lesson;
  const total = act?.steps.length ?? 0;
  const atStart = pos.act === 0 && pos.step <= 0;
  const atEnd = pos.act === acts.length - 1 && pos.step === total - 1;
  // While the runs go forward to a step, its dot is marked: the card says "step 5 of 6", the dots show where.
  const target = goingTo && goingTo.act === pos.act ? goingTo.step : -1;
  return (
    <aside className="lesson-panel" aria-label={s(lang, 'lessons')} data-testid="lesson-panel">
      <header className="lesson-head">
        <p className="lesson-name" title={lesson.title[lang]}>
          {meta && <span className="lesson-kicker">{ls(lang, 'lessonLabel', { n: meta.number })}</span>} {lesson.title[lang]}
        </p>
        {act && (
          <h2 className="act-title">
            {acts.length > 1 && <span className="muted">{ls(lang, 'actOf', { n: pos.act + 1, m: acts.length })} · </span>}
            {act.title[lang]}
          </h2>
        )}
        <ol className="step-dots" aria-label={ls(lang, 'stepOf', { n: Math.max(1, pos.step + 1), m: total })} title={ls(lang, 'stepOf', { n: Math.max(1, pos.step + 1), m: total })}>
          {act?.steps.map((st, i) => (
            <li key={st.id} className={`${i === pos.step ? 'current' : i < pos.step ? 'past' : ''}${i === target ? ' target' : ''}`} title={`${i + 1}${st.predict ? ' ?' : ''}`}>
              {st.predict ? '?' : null}
            </li>
          ))}
        </ol>
      </header>
      <div className="lesson-scroll" ref={scrollRef}>
        {/* A wait comes first: the run stands still until the learner acts. */}
        <WaitBox lang={lang} />
        <StepCard lang={lang} />
        {offScript && (
          <p className="off-script" role="status">
            {ls(lang, 'offScript')}
          </p>
        )}
        {meta && <Misconceptions key={atStart || atEnd ? 'open' : 'folded'} meta={meta} lang={lang} open={atStart || atEnd} />}
        {meta && <AboutLesson key={atStart ? 'start' : 'later'} meta={meta} lang={lang} open={atStart} />}
      </div>
      <footer className="lesson-nav">
        <button type="button" onClick={() => void prev()} title={ls(lang, 'prevTitle')} data-testid="lesson-prev" disabled={pos.act === 0 && pos.step < 0}>
          ← {ls(lang, 'prev')}
        </button>
        <button type="button" className="primary" onClick={() => void next()} title={ls(lang, 'nextTitle')} data-testid="lesson-next" disabled={atEnd}>
          {atEnd ? ls(lang, 'endOfLesson') : `${ls(lang, 'next')} →`}
        </button>
        <button type="button" className="compact" onClick={() => setLesson({ mode: 'free' })} title={ls(lang, 'freePlayTitle')} data-testid="lesson-free">
          {ls(lang, 'freePlay')}
        </button>
      </footer>
      <p className="lesson-keys muted small">{ls(lang, 'keys')}</p>
    </aside>
  );
}

/** In free play: one button back to the lesson, where the learner left it. */
export function BackToLesson() {
  const lang = useApp((st) => st.lang);
  const lesson = useLesson((st) => st.lesson);
  const mode = useLesson((st) => st.mode);
  if (!lesson || mode !== 'free') return null;
  return (
    <button type="button" className="back-to-lesson primary" onClick={() => setLesson({ mode: 'guided' })} title={ls(lang, 'backToLessonTitle')} data-testid="lesson-guided">
      {ls(lang, 'backToLesson')} <kbd>G</kbd>
    </button>
  );
}
