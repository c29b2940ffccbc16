import type { Lang } from '../i18n/lang';
import { useApp } from '../store';
import { setRoom, useRoom } from './roomStore';
import { rs } from './strings';

/**
 * The room's row in the top bar, on every page of a room: this device's role (and node), the room
 * code, the members with their nodes and presence; the teacher also gets the join URL, the QR
 * card, the lock, "who did what" and the run's export.
 */
export function RoomBar() {
  const lang = useApp((st) => st.lang);
  const room = useRoom();
  const teacher = room.role === 'teacher';
  const me = room.members.find((m) => m.pub === room.pub);
  // Stable hook (CONTRACTS §5): English words and ids whatever the language, like run-status.
  const hook = teacher ? 'teacher' : `student · ${room.myNode ?? 'watching'}`;
  const roleText = teacher ? rs(lang, 'teacher') : `${rs(lang, 'student')} · ${room.myNode ?? rs(lang, 'watching')}`;

  return (
    <div className="bar-row room-bar" role="region" aria-label={rs(lang, 'liveRoom')}>
      <span className={`room-role ${teacher ? 'is-teacher' : 'is-student'}`} title={me?.name}>
        {roleText}
        {me && <span className="room-me"> · {me.name}</span>}
      </span>
      <span className="hook" aria-hidden="true" data-testid="classroom-role">
        {hook}
      </span>
      <span className="room-code" title={rs(lang, 'roomCode')}>
        <span className="field-label">{rs(lang, 'liveRoom')}</span> <strong className="num">{room.code}</strong>
      </span>
      <span className={`room-conn ${room.connected ? 'up' : 'down'}`} role="status">
        {room.problem ? '' : !room.connected ? rs(lang, 'connecting') : !teacher && !room.teacherOnline ? rs(lang, 'teacherAway') : ''}
      </span>
      {teacher && room.joinUrl && (
        <span className="room-join">
          <span className="field-label">{rs(lang, 'joinUrl')}</span>{' '}
          <code className="room-url" data-testid="classroom-join-url">
            {room.joinUrl}
          </code>
          <button type="button" className="compact" title={rs(lang, 'showJoinTitle')} onClick={() => setRoom({ showJoin: true })} data-testid="classroom-show-qr">
            {rs(lang, 'showJoin')}
          </button>
        </span>
      )}
      <Members lang={lang} />
      <span className="spacer" />
      {room.locked && !teacher && <span className="room-locked">🔒 {rs(lang, 'locked')}</span>}
      {teacher && room.controls && (
        <>
          <button type="button" aria-pressed={room.locked} title={rs(lang, 'lockTitle')} onClick={() => room.controls!.setLocked(!room.locked)} data-testid="classroom-lock">
            {room.locked ? `🔒 ${rs(lang, 'unlock')}` : rs(lang, 'lock')}
          </button>
          <button type="button" aria-expanded={room.showActivity} title={rs(lang, 'activityTitle')} onClick={() => setRoom({ showActivity: !room.showActivity })} data-testid="classroom-activity-toggle">
            {rs(lang, 'activity')}
          </button>
          <button type="button" title={rs(lang, 'exportTitle')} onClick={() => room.controls!.exportRun()} data-testid="classroom-export">
            {rs(lang, 'exportRun')}
          </button>
        </>
      )}
    </div>
  );
}

export function Members({ lang, big = false }: { lang: Lang; big?: boolean }) {
  const members = useRoom((st) => st.members);
  const pub = useRoom((st) => st.pub);
  return (
    <ul className={`room-members${big ? ' big' : ''}`} aria-label={rs(lang, 'members')} data-testid={big ? undefined : 'classroom-members'}>
      {members.length === 0 && <li className="muted">{rs(lang, 'nobodyYet')}</li>}
      {members.map((m) => (
        <li
          key={m.pub}
          className={`room-member${m.online ? '' : ' offline'}${m.pub === pub ? ' me' : ''}`}
          data-node={m.node ?? ''}
          data-online={String(m.online)}
          title={m.online ? rs(lang, 'online') : rs(lang, 'offline')}
        >
          <span className="dot" aria-hidden="true" />
          <span className="room-name">{m.name}</span>
          <span className="num room-node">{m.node ?? rs(lang, 'watching')}</span>
        </li>
      ))}
    </ul>
  );
}
