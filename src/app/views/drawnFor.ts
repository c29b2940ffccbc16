import type { BaseType, Selection } from 'd3';

/**
 * What each layer of a view was last drawn for. A layer is rewritten only when the key of what it
 * shows changes: every attribute write (even of the value already there) and every `text()` call
 * (which replaces the text node) invalidates style and layout, and a view that rewrote its static
 * marks each frame paid for that sixty times a second.
 */
const drawn = new WeakMap<Element, string>();

/** True (and remembered) when `el` was last drawn for another key; false when it is up to date. */
export function redrawFor(el: Element | null, key: string): boolean {
  if (!el || drawn.get(el) === key) return false;
  drawn.set(el, key);
  return true;
}

/** Forget what `el` was drawn for (its content was cleared): the next `redrawFor` draws it. */
export function forgetDrawn(el: Element | null): void {
  if (el) drawn.delete(el);
}

/**
 * d3's `text()`, writing only where the words changed: `text()` replaces the text node every call,
 * which re-lays out the text even when it says the same thing.
 */
export function setText<E extends BaseType, D, P extends BaseType, PD>(sel: Selection<E, D, P, PD>, value: (d: D, i: number) => string): void {
  sel.each(function (d, i) {
    const v = value(d, i);
    const el = this as Element | null;
    if (el && el.textContent !== v) el.textContent = v;
  });
}
