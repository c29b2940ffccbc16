import type { MovingFrame } from './topologyMoving';

/**
 * The topology's moving parts painted on a 2D canvas — the offscreen canvas of the drawing
 * worker (workers/movingWorker.ts) — as the SVG layer draws them with the topology's CSS:
 * progress rings stroked in the text colour at 0.55 opacity, 3 px; dots filled in their kind's
 * colour with a 1.5-px outline in the panel's colour; each ✕ its outline (3 px, round joins)
 * under its fill, both at its fading step's opacity. Also the same frame as SVG markup, for the
 * run export (a transferred canvas cannot be read back).
 */

export interface MovingColours {
  /** The text colour (the rings). */
  fg: string;
  /** The panel's background (the outlines). */
  bg: string;
}

/** The context calls this paints with (CanvasRenderingContext2D and OffscreenCanvasRenderingContext2D both have them). */
export interface PaintContext<P> {
  globalAlpha: number;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  lineJoin: CanvasLineJoin;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  fill(path: P): void;
  stroke(path: P): void;
}

export const RING = { width: 3, opacity: 0.55 } as const;
export const DOT_OUTLINE = 1.5;
export const DROP_OUTLINE = 3;

/** Paints `frame` over a cleared canvas at `dpr` device pixels per CSS pixel; `path` makes a path from SVG path data (Path2D). */
export function paintMovingFrame<P>(ctx: PaintContext<P>, frame: MovingFrame, dpr: number, colours: MovingColours, path: (d: string) => P): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, Math.round(frame.width * dpr), Math.round(frame.height * dpr));
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.lineJoin = 'miter';
  if (frame.ring) {
    ctx.globalAlpha = RING.opacity;
    ctx.strokeStyle = colours.fg;
    ctx.lineWidth = RING.width;
    ctx.stroke(path(frame.ring));
  }
  ctx.globalAlpha = 1;
  ctx.strokeStyle = colours.bg;
  ctx.lineWidth = DOT_OUTLINE;
  for (const k of frame.dots) {
    if (!k.d) continue;
    const p = path(k.d);
    ctx.fillStyle = k.colour;
    ctx.fill(p);
    ctx.stroke(p);
  }
  ctx.lineWidth = DROP_OUTLINE;
  ctx.lineJoin = 'round';
  for (const x of frame.drops) {
    if (!x.d) continue;
    const p = path(x.d);
    ctx.globalAlpha = Number(x.opacity);
    ctx.stroke(p);
    ctx.fillStyle = x.colour;
    ctx.fill(p);
  }
  ctx.globalAlpha = 1;
}

const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The same frame as SVG elements (no classes: the export carries no stylesheet). */
export function movingFrameSvg(frame: MovingFrame, colours: MovingColours): string {
  const out: string[] = [];
  if (frame.ring) out.push(`<path d="${attr(frame.ring)}" fill="none" stroke="${attr(colours.fg)}" stroke-width="${RING.width}" opacity="${RING.opacity}"/>`);
  for (const k of frame.dots) if (k.d) out.push(`<path d="${attr(k.d)}" fill="${attr(k.colour)}" stroke="${attr(colours.bg)}" stroke-width="${DOT_OUTLINE}"/>`);
  for (const x of frame.drops)
    if (x.d) out.push(`<path d="${attr(x.d)}" fill="${attr(x.colour)}" stroke="${attr(colours.bg)}" stroke-width="${DROP_OUTLINE}" stroke-linejoin="round" paint-order="stroke" fill-opacity="${x.opacity}" stroke-opacity="${x.opacity}"/>`);
  return out.join('');
}
