import { useEffect, useRef } from 'react';
import { describeAction } from '../../../scenario/describeAction';
import type { Action } from '../../../sim/types';
import type { Act, Step } from '../../../scenario/lesson';
import { ActionTools } from '../../components/ActionTools';
import { secondsNumber as seconds } from '../../format';
import { ls } from '../../i18n/lessonStrings';
import type { Lang } from '../../i18n/lang';
import { set, useApp, type AppState } from '../../store';
import { playhead } from '../playhead';
import { choose, isRevealed, reveal, revealAt, visiblePredict } from '../predictions';
import { doItForMe, gateForTry } from '../waits';
import { describeRef, liveValue, pendingWords, type LiveValue } from '../liveValues';
import { fillPlaceholders } from '../placeholders';
import { stepKey, type Position } from '../script';
import { useLesson } from '../store';
import { LessonChart } from './LessonChart';

/** Narration with its live values (a value is marked, and says what it reads in its title). */
export function LiveText({ text, lang, className }: { text: string; lang: Lang; className?: string }) {
  const focus = useLesson((st) => st.focus);
  useApp((st) => st.panelFrame);
  useApp((st) => st.cursor);
  useLesson((st) => st.aheadTick);
  // Each value's state, in the text's order: its number, and why a "—" is one (the run is not there yet).
  const states: LiveValue[] = [];
  const parts = fillPlaceholders(text, focus, lang, (ref) => {
    const v = liveValue(ref);
    states.push(v);
    return v.value;
  });
  let k = 0;
  return (
    <p className={className}>
      {parts.map((p, i) => {
        if (!p.ref) return <span key={i}>{p.text}</span>;
        const waiting = pendingWords(states[k++], lang);
        const what = describeRef(p.ref, lang);
        return (
          <span key={i} className={`live-value num${waiting ? ' pending' : ''}`} data-testid="live-value" title={waiting ? `${what}\n${waiting}` : what}>
            {p.text}
          </span>
        );
      })}
    </p>
  );
}


/**
 * A prediction: the question and its options (keys 1–4), "reveal" until its answer is shown. On
 * the steps after it (until its reveal) it stays, compact: the question and the pick only.
 */
function Predict({ act, index, lang, compact, asked }: { act: Act; index: number; lang: Lang; compact: boolean; asked: boolean }) {
  const answers = useLesson((st) => st.answers);
  useLesson((st) => st.revealed);
  useApp((st) => st.panelFrame);
  useApp((st) => st.cursor);
  const step = act.steps[index];
  const p = step.predict!;
  const chosen = answers[stepKey(act, step)];
  const revealed = isRevealed(act, index);
  const at = revealAt(act, index);
  return (
    <section className={`predict${compact ? ' compact' : ''}`} aria-label={ls(lang, 'predict')}>
      <h3 className="lesson-kicker">{ls(lang, 'predict')}</h3>
      {/* A step whose text is the question already says it: not twice on a projector. */}
      {!asked && <p className="predict-q">{p.question[lang]}</p>}
      <ol className="predict-options">
        {p.options.map((o, i) => {
          const right = revealed && i === p.answer;
          const wrong = revealed && chosen === i && i !== p.answer;
          if (compact && chosen !== i && !right) return null;
          return (
            <li key={i}>
              <button
                type="button"
                className={`predict-option${chosen === i ? ' chosen' : ''}${right ? ' right' : ''}${wrong ? ' wrong' : ''}`}
                aria-pressed={chosen === i}
                disabled={revealed}
                onClick={() => choose(i)}
                data-testid="predict-option"
                data-index={i}
                data-correct={revealed ? String(i === p.answer) : undefined}
              >
                <kbd>{i + 1}</kbd>
                <span className="option-text">{o[lang]}</span>
                {right && <span className="option-mark">✓ {ls(lang, 'rightAnswer')}</span>}
                {wrong && <span className="option-mark">✗ {ls(lang, 'yourPick')}</span>}
                {!revealed && chosen === i && <span className="option-mark">● {ls(lang, 'yourPick')}</span>}
              </button>
            </li>
          );
        })}
      </ol>
      {revealed ? (
        <LiveText className="reveal-text" text={p.reveal.text[lang]} lang={lang} />
      ) : (
        <div className="row wrap">
          <button type="button" onClick={reveal} title={ls(lang, 'revealTitle')} data-testid="predict-reveal">
            {ls(lang, 'reveal')} <kbd>R</kbd>
          </button>
          <span className="muted">
            {ls(lang, 'predictHint', { n: p.options.length })}
            {at !== null ? ` ${ls(lang, 'revealsAt', { t: seconds(at) })}` : null}
          </span>
        </div>
      )}
    </section>
  );
}

/** The wait at an `interactive` entry: what the run waits for, and "do it for me". */
export function WaitBox({ lang }: { lang: Lang }) {
  const waiting = useLesson((st) => st.waiting);
  const refused = useLesson((st) => st.refused);
  const ref = useRef<HTMLDivElement>(null);
  // Once, when the wait begins (not per frame): the tool for the action, and the box in view.
  useEffect(() => {
    if (!waiting) return;
    set(toolFor(waiting.action));
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, [waiting]);
  if (!waiting) return null;
  const want = describeAction(waiting.action, lang);
  return (
    <div className="wait" role="status" data-testid="interactive-wait" data-at={waiting.at} ref={ref}>
      <p>{ls(lang, 'waitingFor', { t: seconds(waiting.at), action: want })}</p>
      {refused && <p className="wait-refused">{ls(lang, 'refused', { did: refused, want })}</p>}
      <button type="button" className="primary" onClick={doItForMe} title={ls(lang, 'doItForMeTitle')} data-testid="do-it-for-me">
        {ls(lang, 'doItForMe')} <kbd>D</kbd>
      </button>
    </div>
  );
}

/** The tools tab (and selection) that takes an action: the partition tool, a link, or a node. */
function toolFor(a: Action): Partial<AppState> {
  if (a.do === 'partition') return { toolTab: 'partition' };
  if ('from' in a && 'to' in a) return { toolTab: 'links', selected: `${a.from}-${a.to}` };
  if ('node' in a && !a.node.startsWith('@')) return { toolTab: 'node', selected: a.node };
  return {};
}

function Try({ step, lang }: { step: Step; lang: Lang }) {
  useLesson((st) => st.gatesDone);
  const waiting = useLesson((st) => st.waiting);
  useApp((st) => st.panelFrame);
  const gate = gateForTry(step);
  const action = step.try!.action as unknown as Action;
  useEffect(() => {
    set(toolFor(action));
  }, [action]);
  return (
    <section className="try" aria-label={ls(lang, 'tryIt')}>
      <h3 className="lesson-kicker">{ls(lang, 'tryIt')}</h3>
      <p>{step.try!.hint[lang]}</p>
      {gate?.done && <p className="try-done">✓ {ls(lang, 'tookIt', { action: describeAction(gate.action, lang), t: seconds(gate.at) })}</p>}
      {/* The tools, so the action can be taken here by keyboard as well as on the topology. */}
      {(waiting || (gate && !gate.done)) && <ActionTools />}
    </section>
  );
}

/** While the runs are run forward to a step: which one, so nobody presses → meanwhile. */
function GoingTo({ to, steps, lang }: { to: Position; steps: number; lang: Lang }) {
  return (
    <article className="lesson-step" data-testid="lesson-step" data-going-to={to.step + 1} aria-live="polite">
      <p className="step-text muted">{ls(lang, 'goingTo', { n: String(to.step + 1), m: String(steps) })}</p>
    </article>
  );
}

/** The current step: its text with live values, its prediction, its "try it", its chart. */
export function StepCard({ lang }: { lang: Lang }) {
  const acts = useLesson((st) => st.acts);
  const pos = useLesson((st) => st.pos);
  const focus = useLesson((st) => st.focus);
  const waiting = useLesson((st) => st.waiting);
  const goingTo = useLesson((st) => st.goingTo);
  useApp((st) => st.panelFrame);
  const act = acts[pos.act];
  if (!act) return null;
  if (goingTo && acts[goingTo.act]) return <GoingTo to={goingTo} steps={acts[goingTo.act].steps.length} lang={lang} />;
  const step: Step | undefined = act.steps[pos.step];
  const predict = visiblePredict();
  const focusList = step?.focus === undefined ? [] : Array.isArray(step.focus) ? step.focus : [step.focus];
  return (
    <article
      className="lesson-step"
      data-testid="lesson-step"
      data-act={act.id}
      data-step={pos.step + 1}
      data-step-id={step?.id ?? ''}
      data-focus={focusList.join(' ')}
      aria-live="polite"
    >
      {step ? <LiveText className="step-text" text={step.text[lang]} lang={lang} /> : <p className="step-text muted">{ls(lang, 'beforeFirst')}</p>}
      {/* At a wait the "try" (its hint and tools) comes first: the class acts now, the prediction was before. */}
      {waiting && step?.try && <Try step={step} lang={lang} />}
      {predict && (
        <Predict
          act={predict.act}
          index={predict.step}
          lang={lang}
          compact={predict.act !== act || predict.step !== pos.step}
          asked={predict.act === act && predict.step === pos.step && step?.text[lang].trim() === predict.act.steps[predict.step].predict!.question[lang].trim()}
        />
      )}
      {!waiting && step?.try && <Try step={step} lang={lang} />}
      {step?.chart && <LessonChart chart={step.chart} focus={focus} lang={lang} />}
      <span className="hook" aria-hidden="true" data-testid="lesson-time">
        {Math.round(playhead())}
      </span>
    </article>
  );
}
