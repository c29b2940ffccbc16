import { h } from 'preact';
import { describe, expect, it } from 'vitest';
import { installTabIndexFix } from './preactTabIndex';

describe('installTabIndexFix', () => {
  installTabIndexFix();

  it('writes tabIndex as the lowercase attribute on elements, SVG ones included', () => {
    expect(h('svg', { tabIndex: 0, role: 'slider' }).props).toEqual({ tabindex: 0, role: 'slider' });
    expect(h('div', { tabIndex: -1 }).props).toEqual({ tabindex: -1 });
  });

  it('leaves components their own props, and elements without tabIndex alone', () => {
    const Comp = (p: { tabIndex: number }) => h('i', { tabIndex: p.tabIndex });
    expect(h(Comp, { tabIndex: 2 }).props).toEqual({ tabIndex: 2 });
    expect(h('svg', { role: 'img' }).props).toEqual({ role: 'img' });
  });
});
