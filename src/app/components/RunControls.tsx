import { s, type StringKey } from '../i18n/strings';
import { driver } from '../driver';
import { formatSeconds } from '../format';
import { restart } from '../load';
import { set, speeds, useApp, type Speed } from '../store';
import { useLesson } from '../lesson/store';
import { useIsStudent } from '../room/roomStore';
import { useScheduleHash } from '../scheduleHash';

/** A URL may ask for any speed (speed=4): it joins the list in order rather than showing as ×0.1. */
function speedOptions(current: Speed): Speed[] {
  if (current === 'max' || speeds.includes(current)) return [...speeds];
  const numeric = speeds.filter((v): v is number => v !== 'max');
  return [...numeric.filter((v) => v < current), current, ...numeric.filter((v) => v > current), 'max'];
}

function speedLabel(v: Speed, max: string): string {
  return v === 'max' ? max : `×${v}`;
}

/** ◀◀ restart · ▶/❚❚ · ▶| step · speed · t=12.4 s · run status. */
export function RunControls() {
  const lang = useApp((st) => st.lang);
  const status = useApp((st) => st.status);
  const speed = useApp((st) => st.speed);
  const sim = useApp((st) => st.sim);
  const loading = useApp((st) => st.loading);
  // Live room: a student's device follows the teacher's clock; the controls are the teacher's.
  const student = useIsStudent();
  const cursor = useApp((st) => st.cursor);
  useApp((st) => st.panelFrame); // the time display moves (ten times a second while running)
  const guided = useLesson((st) => st.lesson !== null && st.mode === 'guided');
  const now = sim ? sim.now() : 0;
  // In a lesson the clock shows the play-head (the lesson's cursor), and ▶ replays from it.
  const shown = guided && cursor !== null ? cursor : now;
  const finished = (status === 'done' && !(guided && cursor !== null)) || status === 'error';
  const running = status === 'running';
  const hash = useScheduleHash(sim, status === 'done');
  // The clock's box fits the run's last time (monospace: one ch a character), so it neither
  // shifts the bar as digits are added nor clips a long run's time.
  const widest = `t=${formatSeconds(sim ? sim.durationMs : 0)}`.length;

  return (
    <div className="run-controls" role="group" aria-label="run">
      <button type="button" className="icon" onClick={() => void restart()} title={s(lang, 'restart')} aria-label={s(lang, 'restart')} disabled={!sim || loading || student}>
        ◀◀
      </button>
      <button
        type="button"
        className="icon primary"
        onClick={() => driver.toggle()}
        title={s(lang, running ? 'pause' : 'play')}
        aria-label={s(lang, running ? 'pause' : 'play')}
        disabled={!sim || finished || student}
        data-testid="play"
      >
        {running ? '❚❚' : '▶'}
      </button>
      <button type="button" className="icon" onClick={() => void driver.step()} title={s(lang, 'step')} aria-label={s(lang, 'step')} disabled={!sim || finished || student}>
        ▶|
      </button>
      <label className="field">
        <span className="visually-hidden">{s(lang, 'speed')}</span>
        <select
          value={String(speed)}
          title={s(lang, 'speed')}
          disabled={student}
          data-testid="speed"
          onChange={(e) => set({ speed: e.target.value === 'max' ? 'max' : Number(e.target.value) })}
        >
          {speedOptions(speed).map((v) => (
            <option key={String(v)} value={String(v)}>
              {speedLabel(v, s(lang, 'speedMax'))}
            </option>
          ))}
        </select>
      </label>
      <span className="sim-time num" aria-live="off">
        <span className="sim-time-text" style={{ width: `${widest}ch` }}>
          t={formatSeconds(shown)}
        </span>
      </span>
      <span className={`status-chip status-${status}`}>{s(lang, `status_${status}` as StringKey)}</span>
      {/* Stable test hooks (CONTRACTS §4): English keywords and raw numbers, whatever the language. */}
      <span className="hook" aria-hidden="true" data-testid="run-status">
        {status}
      </span>
      <span className="hook" aria-hidden="true" data-testid="sim-time">
        {Math.round(now)}
      </span>
      <span className="hook" aria-hidden="true" data-testid="schedule-hash">
        {hash || null}
      </span>
      {/* The scrub cursor in simulated ms (empty: following the run), e.g. after `&at=`. */}
      <span className="hook" aria-hidden="true" data-testid="cursor-time">
        {cursor === null ? null : Math.round(cursor)}
      </span>
    </div>
  );
}

/** In max mode: a thin bar along the bottom of the top bar (takes no row of its own). */
export function MaxProgress() {
  const lang = useApp((st) => st.lang);
  const speed = useApp((st) => st.speed);
  const progress = useApp((st) => st.progress);
  if (speed !== 'max') return null;
  return <progress className="progress-line" max={1} value={progress} aria-label={s(lang, 'progress')} title={`${Math.round(progress * 100)}%`} />;
}
