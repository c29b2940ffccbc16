import type { LessonMeta } from '../../../scenario/lesson';
import { ls } from '../../i18n/lessonStrings';
import type { Lang } from '../../i18n/lang';
import { LiveText } from './StepCard';

/**
 * The popular answers a lesson corrects, quoted as they were written (usually Chinese) with an
 * English rendering, marked as a popular answer, beside the correction — the evidence is the run
 * on screen next to it.
 */
export function Misconceptions({ meta, lang, open }: { meta: LessonMeta; lang: Lang; open: boolean }) {
  if (meta.misconceptions.length === 0) return null;
  const first = meta.misconceptions[0];
  // Folded between the first and the last step to one line — the claim — so the step has the room.
  return (
    <details className="misconceptions" aria-label={ls(lang, 'popular')} data-testid="misconceptions" open={open}>
      <summary>
        <span className="tag">{ls(lang, 'popular')}</span>{' '}
        <span lang={first.lang === 'zh' ? 'zh-CN' : 'en'} className="quote-inline">
          “{first.quote}”
        </span>
        {meta.misconceptions.length > 1 && <span className="muted"> +{meta.misconceptions.length - 1}</span>}
      </summary>
      {meta.misconceptions.map((m, i) => (
        <div className="misconception" key={i} data-testid="misconception">
          <p className="popular-tag">
            <span className="tag">{ls(lang, 'popular')}</span> <span className="muted small">{ls(lang, 'popularFrom', { source: m.source[lang] })}</span>
          </p>
          <blockquote lang={m.lang === 'zh' ? 'zh-CN' : 'en'} className="quote">
            “{m.quote}”
          </blockquote>
          {m.lang !== 'en' && m.quoteEn && (
            <p className="quote-en" lang="en">
              “{m.quoteEn}”
            </p>
          )}
          <p className="correction">
            <span className="tag ok">{ls(lang, 'correction')}</span> {m.correction[lang]}
          </p>
        </div>
      ))}
    </details>
  );
}

/** Goals, the teacher's note, the model answer and follow-ups (L14), and the sources. */
export function AboutLesson({ meta, lang, open }: { meta: LessonMeta; lang: Lang; open?: boolean }) {
  return (
    <details className="about-lesson" data-testid="about-lesson" open={open}>
      <summary>{ls(lang, 'about')}</summary>
      <h3 className="lesson-kicker">{ls(lang, 'goals')}</h3>
      <ol className="goals">
        {meta.goals.map((g, i) => (
          <li key={i}>{g[lang]}</li>
        ))}
      </ol>
      {meta.classroomNote && (
        <>
          <h3 className="lesson-kicker">{ls(lang, 'classroomNote')}</h3>
          <p>{meta.classroomNote[lang]}</p>
        </>
      )}
      {meta.modelAnswer && (
        <>
          <h3 className="lesson-kicker">{ls(lang, 'modelAnswer')}</h3>
          <LiveText className="model-answer" text={meta.modelAnswer[lang]} lang={lang} />
        </>
      )}
      {meta.followUps && meta.followUps.length > 0 && (
        <>
          <h3 className="lesson-kicker">{ls(lang, 'followUps')}</h3>
          <dl className="follow-ups">
            {meta.followUps.map((f, i) => (
              <div key={i}>
                <dt>{f.question[lang]}</dt>
                <dd>{f.answer[lang]}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <h3 className="lesson-kicker">{ls(lang, 'learnMore')}</h3>
      <ul className="sources" data-testid="learn-more">
        {meta.learnMore.map((src, i) => (
          <li key={i}>
            {src.url ? (
              <a href={src.url} target="_blank" rel="noreferrer noopener">
                {src.cite}
              </a>
            ) : (
              src.cite
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
