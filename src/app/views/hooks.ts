import { useEffect, useState, type RefObject } from 'react';


export interface Size {
  width: number;
  height: number;
}

/** The element's content-box size, kept current by a ResizeObserver (views fill their parent). */
export function useSize(ref: RefObject<HTMLElement | null>): Size {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = (w: number, h: number): void => {
      // Whole pixels: sub-pixel jitter would otherwise re-run every layout effect.
      const width = Math.floor(w);
      const height = Math.floor(h);
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    };
    const r = el.getBoundingClientRect();
    update(r.width, r.height);
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) update(e.contentRect.width, e.contentRect.height);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return size;
}

/** prefers-reduced-motion: animation becomes discrete steps (DESIGN, visual language). */
export function useReducedMotion(): boolean {
  const query = '(prefers-reduced-motion: reduce)';
  const [reduced, setReduced] = useState(() => typeof matchMedia !== 'undefined' && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia === 'undefined') return;
    const mq = matchMedia(query);
    const on = (): void => setReduced(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return reduced;
}

/**
 * Frame-budget probe: when `globalThis.__cvTiming` is set (by a benchmark or a Playwright
 * script), each view's render pass is recorded as a `performance.measure` named `cv:<view>`.
 * Off by default, and then costs one property read.
 */
export function timed(name: string, fn: () => void): void {
  if (!(globalThis as { __cvTiming?: boolean }).__cvTiming) {
    fn();
    return;
  }
  const t0 = performance.now();
  fn();
  performance.measure(`cv:${name}`, { start: t0, end: performance.now() });
}

/**
 * The element's computed font size, read when its box or the page's type size changes — not in
 * every frame (a style read mid-frame may force a recalculation). `size` is the element's box
 * from useSize; presenter mode changes both.
 */
export function useFontSize(ref: RefObject<Element | null>, size: Size, fallback: number): number {
  const [fs, setFs] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof getComputedStyle === 'undefined') return;
    const v = parseFloat(getComputedStyle(el).fontSize);
    if (Number.isFinite(v) && v > 0) setFs((old) => (old === v ? old : v));
  }, [ref, size.width, size.height]);
  return fs;
}

/**
 * Estimated width of a label in px, for placing things after it without measuring (getBBox in a
 * frame forces layout). CJK characters are about one em wide, Latin ones about 0.58 em.
 */
export function textWidth(text: string, fontPx: number): number {
  let em = 0;
  for (const ch of text) em += /[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 1 : 0.58;
  return em * fontPx;
}
