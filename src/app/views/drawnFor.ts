/**
 * What each layer of a view was last drawn for. A layer is joined and set only when the key of
 * what it shows changes: d3quiet.ts already skips a write of an unchanged value, but computing
 * and comparing every mark of every still layer sixty times a second was most of a view's script.
 */
const drawn = new WeakMap<Element, string>();

/** True (and remembered) when `el` was last drawn for another key; false when it is up to date. */
export function redrawFor(el: Element | null, key: string): boolean {
  if (!el || drawn.get(el) === key) return false;
  drawn.set(el, key);
  return true;
}
