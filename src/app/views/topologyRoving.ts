import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

/**
 * The topology is one Tab stop (a roving tabindex): arrow keys, Home and End move between its
 * nodes and links, and the item last focused keeps the stop.
 */

/** The focusable items in arrow-key order: nodes (in layout order), then links. */
function rovingItems(stage: Element): SVGGElement[] {
  return [...stage.querySelectorAll<SVGGElement>('g.cv-node'), ...stage.querySelectorAll<SVGGElement>('g.cv-link')];
}

/** Gives tabindex 0 to one item (the last focused, else the selected node, else the first) and -1 to the rest. */
export function applyRoving(stage: Element, stop: string | null, selected: string | null): void {
  const items = rovingItems(stage);
  const find = (id: string | null): SVGGElement | undefined => (id === null ? undefined : items.find((el) => el.getAttribute('data-testid') === id));
  const current = find(stop) ?? find(selected === null ? null : `node-${selected}`) ?? items[0];
  for (const el of items) {
    const v = el === current ? '0' : '-1';
    if (el.getAttribute('tabindex') !== v) el.setAttribute('tabindex', v);
  }
}

/** Arrow keys, Home and End move the focus inside the drawing (and never reach the page's shortcuts: → would step). */
export function onRovingKey(e: ReactKeyboardEvent<HTMLDivElement>): void {
  const items = rovingItems(e.currentTarget);
  const i = items.indexOf(document.activeElement as SVGGElement);
  if (i < 0 || items.length === 0) return;
  const n = items.length;
  const next = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1 + n, ArrowLeft: i - 1 + n, Home: 0, End: n - 1 }[e.key];
  if (next === undefined) return;
  e.preventDefault();
  e.stopPropagation();
  items[next % n].focus();
}
