import { useEffect, useLayoutEffect, useRef, useState, type DependencyList, type RefObject } from 'react';

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

/**
 * Marks a scroller (sideways, or `axis` 'y' up and down) with the classes `more-before` /
 * `more-after` while it has content beyond its start / end edge, so CSS can fade that edge as a cue
 * to scroll. It reads the layout on scroll, on resize (window, type size) and when `deps` change:
 * never in a frame. (A CSS scroll timeline did this alone, but Chromium kept its last fade when a
 * resize made the line fit.)
 */
export function useScrollEdges(ref: RefObject<HTMLElement | null>, deps: DependencyList, axis: 'x' | 'y' = 'x'): void {
  const update = useRef(() => {});
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    update.current = () => {
      const over = axis === 'x' ? el.scrollWidth - el.clientWidth : el.scrollHeight - el.clientHeight;
      const at = axis === 'x' ? el.scrollLeft : el.scrollTop;
      el.classList.toggle('more-before', over > 1 && at > 1);
      el.classList.toggle('more-after', over > 1 && at < over - 1);
    };
    const onScroll = (): void => update.current();
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onScroll);
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro?.disconnect();
    };
  }, [ref, axis]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => update.current(), deps);
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

const measured = new Map<string, number>();
let measureCtx: CanvasRenderingContext2D | null | undefined;

/**
 * Width of a label in px as the browser draws it at `fontPx` (and `weight`, e.g. 'bold') in the CSS
 * font family `family`: measured once on an offscreen canvas (measureText reads no layout) and
 * cached. Without a canvas (tests) or a family, textWidth's estimate.
 */
export function measuredWidth(text: string, fontPx: number, family: string, weight = ''): number {
  const key = `${weight}|${fontPx}|${family}|${text}`;
  let w = measured.get(key);
  if (w !== undefined) return w;
  if (measureCtx === undefined) measureCtx = typeof document === 'undefined' || typeof navigator === 'undefined' || /jsdom/.test(navigator.userAgent) ? null : document.createElement('canvas').getContext('2d');
  if (measureCtx && family) {
    measureCtx.font = `${weight ? `${weight} ` : ''}${fontPx}px ${family}`;
    w = measureCtx.measureText(text).width;
  } else w = textWidth(text, fontPx);
  // Labels are few (a word and a number per row); the bound only guards a long session.
  if (measured.size > 1000) measured.clear();
  measured.set(key, w);
  return w;
}

/**
 * The page's theme (`<html data-theme>`), kept current by a MutationObserver: canvas layers take
 * their colours from CSS variables and must repaint when it changes.
 */
export function useTheme(): string {
  const read = (): string => (typeof document === 'undefined' ? '' : (document.documentElement.dataset.theme ?? ''));
  const [theme, setTheme] = useState(read);
  useEffect(() => {
    if (typeof MutationObserver === 'undefined') return;
    const mo = new MutationObserver(() => setTheme(read()));
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => mo.disconnect();
  }, []);
  return theme;
}

/**
 * CSS custom properties (and the font family) of an element, for drawing on a canvas in the
 * page's colours. Read when the element's box, the type size or the theme changes — never in a
 * frame (a style read mid-frame may force a recalculation).
 */
export function useCssValues<K extends string>(ref: RefObject<Element | null>, names: readonly K[], deps: readonly unknown[]): Record<K | 'font', string> {
  const [v, setV] = useState<Record<K | 'font', string>>(() => Object.fromEntries([...names, 'font'].map((n) => [n, ''])) as Record<K | 'font', string>);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof getComputedStyle === 'undefined') return;
    const cs = getComputedStyle(el);
    const next = Object.fromEntries(names.map((n) => [n, cs.getPropertyValue(n).trim()])) as Record<K | 'font', string>;
    next.font = cs.fontFamily;
    setV((old) => (Object.keys(next).every((k) => old[k as K] === next[k as K]) ? old : next));
    // names is a constant list per caller; deps say when to look again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, ...deps]);
  return v;
}

/** A canvas sized to `width`×`height` CSS px at the device pixel ratio, with its context scaled; null if it has none. */
export function fitCanvas(canvas: HTMLCanvasElement, width: number, height: number): CanvasRenderingContext2D | null {
  const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
  const w = Math.round(width * dpr);
  const h = Math.round(height * dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

/**
 * Where a view learns of new engine frames without being re-rendered: `subscribe` calls back once
 * per frame (and returns the unsubscribe). A React render per frame — the parents, the view's hooks,
 * its JSX, a commit — cost more than the drawing it led to.
 */
export interface FrameSource {
  subscribe(onFrame: () => void): () => void;
  /** The simulated time the views show now (a scrub cursor, or the run's now). */
  t(): number;
  /**
   * A clock (ms) for texts that change at most ten times a second: it moves on when the panels
   * are redrawn (store.panelFrame), so such texts change on the frames the panels do — one
   * layout for both, not one each.
   */
  textClock?(): number;
}

/** A frame `still` skipped is drawn this long after it, if no frame has drawn since (the run paused). */
export const CATCH_UP_MS = 100;

/**
 * What a view does on an engine frame: draw, unless `still()` says the frame would change nothing
 * visible since the last drawing; the last frame skipped is drawn `wait` ms later unless a frame
 * drew meanwhile, so a run that stops between two drawings still shows where it stopped.
 */
export function frameGate(draw: () => void, still: () => boolean, wait = CATCH_UP_MS): { onFrame(): void; dispose(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const drawNow = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    draw();
  };
  return {
    onFrame: () => {
      if (!still()) drawNow();
      else timer ??= setTimeout(drawNow, wait);
    },
    dispose: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * Runs `draw` after every render whose `deps` changed and, given a frame source, on each engine
 * frame, with the props of the latest render. `still` (optional): frames that would change nothing
 * visible are skipped (frameGate).
 */
export function useDraw(draw: () => void, deps: DependencyList, frames: FrameSource | undefined, still?: () => boolean): void {
  const latest = useRef(draw);
  const latestStill = useRef(still);
  useEffect(() => {
    latest.current = draw;
    latestStill.current = still;
  });
  // The caller lists what its drawing reads, as it would for useEffect.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => latest.current(), deps);
  useEffect(() => {
    if (!frames) return undefined;
    const gate = frameGate(
      () => latest.current(),
      () => latestStill.current?.() ?? false,
    );
    const off = frames.subscribe(gate.onFrame);
    return () => {
      off();
      gate.dispose();
    };
  }, [frames]);
}
