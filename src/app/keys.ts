import { useEffect } from 'react';
import { keyChoice } from './actionMenu';
import { choose } from './act';
import { selectionAt } from './components/contextMenuOpen';
import { branching } from './components/branchBarLoad';
import { driver } from './driver';
import { presenterKey } from './lesson/presenterKeys';
import { get, set } from './store';
import { clusterTarget, selectionTarget } from './targets';

/**
 * Keyboard shortcuts. Action keys come from the one action table (DESIGN rule 5) through
 * actionMenu.keyChoice and act on the selected node or link as it is at the cursor time; keys
 * shared by an action and its inverse (x: crash/restart, c: cut/restore) pick by that state.
 * Space plays/pauses, → steps one event, B returns to the previous branch of a forked run,
 * the context-menu key (or Shift+F10) opens the selection's menu, Escape closes it.
 */

function typingInForm(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName);
}

/** The menu key opens the context menu of the focused node or link, else of the selection. */
function openMenuForSelection(): void {
  const focused = selectionAt(document.activeElement);
  if (focused) set({ selected: focused, toolTab: focused.includes('-') ? 'links' : 'node' });
  const selected = focused ?? get().selected;
  if (!selected) return;
  const el = document.querySelector(`[data-testid="node-${selected}"], [data-testid="link-${selected}"]`);
  const r = el?.getBoundingClientRect();
  set({ menu: { x: r ? r.right : 100, y: r ? r.bottom : 100, sel: selected } });
}

/** Guided mode's keys (lesson/keys.ts, wired when a lesson opens) come first; true: the key was theirs. */
export const keyHooks: { first?: (e: KeyboardEvent) => boolean } = {};

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.ctrlKey || e.metaKey || e.altKey || typingInForm(e.target)) return;
      if (get().menu) {
        if (e.key === 'Escape') set({ menu: null });
        return; // the open menu handles its own keys
      }
      // Then the presenter's (Shift+P, F), which work on every page.
      if (keyHooks.first?.(e) || presenterKey(e)) {
        e.preventDefault();
        return;
      }
      if (e.key === ' ') {
        // Space on a focused button would also click it: handle it once, here.
        e.preventDefault();
        driver.toggle();
        return;
      }
      if (e.key === 'ArrowRight') {
        e.preventDefault();
        void driver.step();
        return;
      }
      if (e.key === 'Escape') {
        set({ selected: null });
        return;
      }
      if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
        e.preventDefault();
        openMenuForSelection();
        return;
      }
      if (e.key.toLowerCase() === 'b') {
        // With one branch there is nothing to return to: the forking code is loaded only if there is.
        if (get().branches.length > 1) void branching().then((b) => b.toggleBranch());
        return;
      }
      const { sim, selected, partitionDraft, cursor } = get();
      if (!sim) return;
      const t = cursor ?? sim.now();
      const chosen = keyChoice(e.key, selectionTarget(sim, selected, t), clusterTarget(sim, partitionDraft));
      if (chosen === null) return;
      e.preventDefault();
      choose(chosen);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
