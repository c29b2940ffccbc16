import type { MouseEvent as ReactMouseEvent } from 'react';
import { rs } from '../i18n/runStrings';
import { onDemand } from '../onDemand';
import { get, reportError, set } from '../store';

/**
 * Opening the node and link context menu (ContextMenu.tsx), in the first load; the menu itself
 * loads on demand (issue 9): fetched at the first selection (act.ts) or the first press in the
 * topology (App.tsx), drawn once here. A failed load closes it and says so in the error panel;
 * the next opening tries again.
 */
export const contextMenu = onDemand<object, typeof import('./ContextMenu')>(
  () => import('./ContextMenu'),
  (m) => m.ContextMenu,
  (e) => {
    const menu = get().menu;
    set({ menu: null });
    reportError(`${rs(get().lang, 'menuFor', { target: menu?.sel ?? '' })}: ${e instanceof Error ? e.message : String(e)}`);
  },
);

/** Finds the node or link under a right-click by its stable test id (`node-w1`, `link-w1-s0`). */
export function selectionAt(el: Element | null): string | null {
  const hit = el?.closest('[data-testid^="node-"], [data-testid^="link-"]');
  const id = hit?.getAttribute('data-testid') ?? '';
  const m = /^(?:node|link)-(.+)$/.exec(id);
  return m ? m[1] : null;
}

/** onContextMenu for the topology panel: selects what was right-clicked and opens its menu. */
export function openContextMenu(e: ReactMouseEvent): void {
  const sel = selectionAt(e.target as Element);
  if (!sel) return;
  e.preventDefault();
  // What was right-clicked takes the focus (as the pointer's press would give it), so the focus
  // comes back to it when the menu closes, and the menu key then means the same target.
  const hit = (e.target as Element).closest('[data-testid^="node-"], [data-testid^="link-"]');
  if (hit instanceof SVGElement || hit instanceof HTMLElement) hit.focus({ preventScroll: true });
  const isLink = sel.includes('-');
  set({ selected: sel, toolTab: isLink ? 'links' : 'node', menu: { x: e.clientX, y: e.clientY, sel } });
}
