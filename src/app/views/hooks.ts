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
