import { useMemo } from 'react';
import { activityByMember } from '../../room/export';
import { describeAction } from '../../scenario/describeAction';
import { formatSeconds } from '../format';
import { useApp } from '../store';
import { useRoom } from './roomStore';
import { refusalText } from './refusalText';
import { rs } from './strings';

/** The teacher's "who did what": per student, every action with the simulated time it applied. */
export function ActivityPanel() {
  const lang = useApp((st) => st.lang);
  const show = useRoom((st) => st.showActivity && st.role === 'teacher');
  const members = useRoom((st) => st.members);
  const entries = useRoom((st) => st.entries);
  const refused = useRoom((st) => st.refused);
  const run = useRoom((st) => st.run);
  const sim = useApp((st) => st.sim);
  // The room's run: an invalid action's problems are worded by checking it against these nodes.
  const nodeIds = useMemo(() => sim?.nodes().map((n) => n.id) ?? [], [sim]);
  const rows = useMemo(() => activityByMember(members, entries, refused, run), [members, entries, refused, run]);
  if (!show) return null;
  return (
    <section className="room-activity" aria-label={rs(lang, 'activity')} data-testid="classroom-activity">
      {rows.length === 0 && <p className="muted">{rs(lang, 'nobodyYet')}</p>}
      {rows.map((r) => (
        <div className="room-activity-row" key={r.pub} data-pub={r.pub}>
          <div className="room-activity-who">
            <strong>{r.pub === 'teacher' ? rs(lang, 'teacher') : r.name}</strong> <span className="num muted">{r.node ?? ''}</span>
          </div>
          <ul className="room-activity-items">
            {r.items.length === 0 && <li className="muted">{rs(lang, 'noActivity')}</li>}
            {r.items.map((it, i) =>
              it.action ? (
                <li key={i} data-at={it.t} data-do={it.action.do}>
                  <span className="num">{formatSeconds(it.t)}</span> {describeAction(it.action, lang)}
                  {it.asked !== undefined && <span className="muted small"> ({rs(lang, 'asked', { t: formatSeconds(it.asked) })})</span>}
                </li>
              ) : (
                <li key={i} className="refused" data-at={it.t}>
                  <span className="num">{formatSeconds(it.t)}</span> {rs(lang, 'refused')}: {it.refused ? refusalText(it.refused, lang, nodeIds) : ''}
                </li>
              ),
            )}
          </ul>
        </div>
      ))}
    </section>
  );
}
