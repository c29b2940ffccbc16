import { get, set } from '../store';
import { getLesson } from './store';

/**
 * The presenter's keys that work on any page (CURRICULUM §C.8): Shift+P toggles the presenter
 * size, F full screen (in presenter mode or a lesson). Kept apart from the lesson's own keys
 * (keys.ts), which need the lesson controller: a page without a lesson never loads it.
 * Returns true when the key was handled.
 */
export function presenterKey(e: KeyboardEvent): boolean {
  if (e.key === 'P' && e.shiftKey) {
    const presenter = !get().presenter;
    set({ presenter, showSettings: !presenter });
    return true;
  }
  if (e.key.toLowerCase() === 'f' && !e.shiftKey && (get().presenter || getLesson().lesson)) {
    toggleFullScreen();
    return true;
  }
  return false;
}

export function toggleFullScreen(): void {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
  else void document.documentElement.requestFullscreen?.().catch(() => undefined);
}
