import { useMemo } from 'react';
import { useApp } from '../store';
import { qrPath } from './qr';
import { Members } from './RoomBar';
import { setRoom, useRoom } from './roomStore';
import { rs } from './strings';

/**
 * The teacher's join card, for the projector: the room code in large type, the QR code of the join
 * URL and the URL itself, and who has joined so far. Shown when a class begins; the QR button in
 * the room bar brings it back.
 */
export function JoinCard() {
  const lang = useApp((st) => st.lang);
  const show = useRoom((st) => st.showJoin && st.role === 'teacher');
  const joinUrl = useRoom((st) => st.joinUrl);
  const code = useRoom((st) => st.code);
  const qr = useMemo(() => (joinUrl ? qrPath(joinUrl) : null), [joinUrl]);
  if (!show || !joinUrl || !qr) return null;
  return (
    <div className="room-card-backdrop" role="dialog" aria-modal="false" aria-labelledby="room-card-title">
      <div className="room-card">
        <h2 id="room-card-title">{rs(lang, 'joinTitle')}</h2>
        <div className="room-card-body">
          <svg className="room-qr" viewBox={`0 0 ${qr.size} ${qr.size}`} role="img" aria-label={`QR: ${joinUrl}`} data-testid="classroom-qr" shapeRendering="crispEdges">
            <rect width={qr.size} height={qr.size} fill="#fff" />
            <path d={qr.d} fill="#000" />
          </svg>
          <div className="room-card-side">
            <div className="field-label">{rs(lang, 'roomCode')}</div>
            <div className="room-card-code num">{code}</div>
            <p className="room-card-how">{rs(lang, 'joinHow')}</p>
            <code className="room-card-url">{joinUrl}</code>
            <div className="field-label room-card-members-label">{rs(lang, 'members')}</div>
            <Members lang={lang} big />
          </div>
        </div>
        <div className="room-card-actions">
          <button type="button" className="primary" onClick={() => setRoom({ showJoin: false })} data-testid="classroom-hide-qr">
            {rs(lang, 'hide')}
          </button>
        </div>
      </div>
    </div>
  );
}
