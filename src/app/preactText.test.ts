import { options, type VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { installStableTextFix } from './preactText';

describe('installStableTextFix', () => {
  installStableTextFix();
  const textVNode = (props: unknown) => ({ type: null, props }) as unknown as VNode;

  it('turns a number text into its string, so 0 stays equal to itself across renders', () => {
    for (const n of [0, 7, -1.5]) {
      const v = textVNode(n);
      options.vnode?.(v);
      expect(v.props).toBe(String(n));
    }
  });

  it('leaves string texts and elements alone', () => {
    const s = textVNode('0');
    options.vnode?.(s);
    expect(s.props).toBe('0');
    const el = { type: 'span', props: { children: 0 } } as unknown as VNode;
    options.vnode?.(el);
    expect(el.props).toEqual({ children: 0 });
  });
});
