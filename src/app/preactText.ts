import { options, type VNode } from 'preact';

/**
 * Preact (10.29) compares a text node's old and new content as `oldVNode.props || {}`, so a text
 * whose content is falsy — the number 0 or the empty string — never equals itself and is written
 * again on every render. Each write is a DOM mutation that marks the text for layout: the panels,
 * which re-render ten times a second while a run plays, laid the page out again for tallies that
 * still said "0". Numbers become their string here (the same text, now truthy); an empty string
 * cannot be fixed this way, so components render `null`, not `''`, for "nothing"
 * (e2e/steadyText.spec.ts watches for both).
 */
export function installStableTextFix(): void {
  const previous = options.vnode;
  options.vnode = (vnode: VNode) => {
    previous?.(vnode);
    if (vnode.type === null && typeof vnode.props === 'number') (vnode as { props: unknown }).props = String(vnode.props);
  };
}
