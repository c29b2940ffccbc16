import { get, set } from '../store';
import { choose, doItForMe, next, prev, reveal } from './controller';
import { getLesson, setLesson } from './store';

/**
 * The presenter's keys (CURRICULUM §C.8), checked before the app's own (keys.ts): in a guided
 * lesson → ← walk the steps (by scrubbing), 1–4 choose an option, R reveals, D (or ▶ at a wait)
 * does the scripted action for the learner, G switches to free play and back; anywhere
 * F toggles full screen and Shift+P the presenter size. Returns true when the key was handled.
 */
export function lessonKey(e: KeyboardEvent): boolean {
  const key = e.key;
  if (key === 'P' && e.shiftKey) {
    const presenter = !get().presenter;
    set({ presenter, showSettings: !presenter });
    return true;
  }
  if (key.toLowerCase() === 'f' && !e.shiftKey && (get().presenter || getLesson().lesson)) {
    toggleFullScreen();
    return true;
  }
  const st = getLesson();
  if (!st.lesson) return false;
  if (key.toLowerCase() === 'g') {
    setLesson({ mode: st.mode === 'guided' ? 'free' : 'guided' });
    return true;
  }
  if (st.mode !== 'guided') return false;
  switch (key) {
    case 'ArrowRight':
      void next();
      return true;
    case 'ArrowLeft':
      void prev();
      return true;
    case '1':
    case '2':
    case '3':
    case '4':
      choose(Number(key) - 1);
      return true;
    case 'r':
    case 'R':
      reveal();
      return true;
    case 'd':
    case 'D':
      doItForMe();
      return true;
    default:
      return false;
  }
}

export function toggleFullScreen(): void {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
  else void document.documentElement.requestFullscreen?.().catch(() => undefined);
}
