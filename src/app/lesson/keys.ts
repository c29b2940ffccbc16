import { next, prev } from './controller';
import { choose, reveal } from './predictions';
import { doItForMe } from './waits';
import { getLesson, setLesson } from './store';

/**
 * The lesson's keys (CURRICULUM §C.8), checked before the app's own (keys.ts): in a guided
 * lesson → ← walk the steps (by scrubbing), 1–4 choose an option, R reveals, D (or ▶ at a wait)
 * does the scripted action for the learner, G switches to free play and back. F and Shift+P,
 * which work on any page, are presenterKeys.ts. Returns true when the key was handled.
 */
export function lessonKey(e: KeyboardEvent): boolean {
  const key = e.key;
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
