import { namespace, selection } from 'd3';

/**
 * D3's `attr`, `style`, `text` and `classed` write to the DOM whether or not the value changed. The views
 * re-run their joins on every frame, and most values stay what they were, yet every write costs a
 * call into the DOM, may invalidate style and layout, and `text` replaces the element's text node
 * (a relayout and a garbage node each time), and `classed` sets the class attribute again even
 * when the element has the class already (a mutation each time). Importing this module makes the
 * setters write only when the value differs from the element's current one, and `text` change a
 * lone text node in place — same results, so the views keep
 * plain D3 idioms. Getters, `null` (removal) and namespaced attributes behave as in D3.
 *
 * Installed once for the page (D3's selection prototype is shared): every view module imports it.
 */

type El = Element & ElementCSSInlineStyle;
type Value = string | number | boolean | null | undefined;
type ValueFn = (this: El, d: unknown, i: number, nodes: ArrayLike<El>) => Value;

const proto = selection.prototype as unknown as Record<string, unknown> & { __quiet?: true };

/** Writes an attribute only when it differs (null removes it); also for code that writes by hand. */
export function setAttr(el: El, name: string, v: Value): void {
  if (v == null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else {
    const s = String(v);
    if (el.getAttribute(name) !== s) el.setAttribute(name, s);
  }
}

function setStyle(el: El, name: string, v: Value, priority: string): void {
  if (v == null) {
    if (el.style.getPropertyValue(name) !== '') el.style.removeProperty(name);
  } else {
    const s = String(v);
    if (el.style.getPropertyValue(name) !== s || el.style.getPropertyPriority(name) !== priority) el.style.setProperty(name, s, priority);
  }
}

function setText(el: El, v: Value): void {
  const s = v == null ? '' : String(v);
  const only = el.firstChild;
  // A label's one text node changes in place: assigning textContent replaces the node, which the
  // renderer takes as a removal and an insertion (a style recalc and a layout of a new node).
  if (only !== null && only.nodeType === 3 && only.nextSibling === null && s !== '') {
    const t = only as Text;
    if (t.data !== s) t.data = s;
  } else if (el.textContent !== s) el.textContent = s;
}

if (!proto.__quiet) {
  proto.__quiet = true;
  const attr = proto.attr as (this: unknown, ...a: unknown[]) => unknown;
  const style = proto.style as (this: unknown, ...a: unknown[]) => unknown;
  const text = proto.text as (this: unknown, ...a: unknown[]) => unknown;
  const classed = proto.classed as (this: unknown, ...a: unknown[]) => unknown;
  type Sel = { each(f: (this: El, d: unknown, i: number, nodes: ArrayLike<El>) => void): unknown };

  proto.attr = function (this: Sel, ...args: unknown[]) {
    const name = args[0] as string;
    const value = args[1] as Value | ValueFn;
    // Getters and namespaced names (xlink:href …) as D3 does them.
    if (args.length < 2 || typeof namespace(name) !== 'string') return attr.apply(this, args);
    if (typeof value === 'function') {
      return this.each(function (d, i, nodes) {
        setAttr(this, name, value.call(this, d, i, nodes));
      });
    }
    return this.each(function () {
      setAttr(this, name, value);
    });
  };

  proto.style = function (this: Sel, ...args: unknown[]) {
    if (args.length < 2) return style.apply(this, args);
    const name = args[0] as string;
    const value = args[1] as Value | ValueFn;
    const prio = args[2] == null ? '' : String(args[2]);
    if (typeof value === 'function') {
      return this.each(function (d, i, nodes) {
        setStyle(this, name, value.call(this, d, i, nodes), prio);
      });
    }
    return this.each(function () {
      setStyle(this, name, value, prio);
    });
  };

  proto.text = function (this: Sel, ...args: unknown[]) {
    if (args.length < 1) return text.apply(this, args);
    const value = args[0] as Value | ValueFn;
    if (typeof value === 'function') {
      return this.each(function (d, i, nodes) {
        setText(this, value.call(this, d, i, nodes));
      });
    }
    return this.each(function () {
      setText(this, value);
    });
  };

  proto.classed = function (this: Sel, ...args: unknown[]) {
    if (args.length < 2) return classed.apply(this, args);
    const names = String(args[0]).trim().split(/^|\s+/);
    const value = args[1] as boolean | ((this: El, d: unknown, i: number, nodes: ArrayLike<El>) => boolean);
    return this.each(function (d, i, nodes) {
      const on = typeof value === 'function' ? !!value.call(this, d, i, nodes) : !!value;
      for (const n of names) if (this.classList.contains(n) !== on) this.classList.toggle(n, on);
    });
  };
}
