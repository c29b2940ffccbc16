import { options, type VNode } from 'preact';

/**
 * The page runs on Preact (scripts/preactAlias.mjs), which sets an SVG element's `tabIndex` prop
 * with setAttribute('tabIndex') — and outside the HTML namespace attribute names keep their case,
 * so the browser ignores it: the timeline slider (an <svg>) could not take focus. React writes
 * `tabindex`. So does this hook, for every element (on HTML ones it changes nothing).
 */
export function installTabIndexFix(): void {
  const previous = options.vnode;
  options.vnode = (vnode: VNode) => {
    previous?.(vnode);
    if (typeof vnode.type !== 'string') return;
    const props = vnode.props as Record<string, unknown>;
    if (!('tabIndex' in props)) return;
    props.tabindex = props.tabIndex;
    delete props.tabIndex;
  };
}
