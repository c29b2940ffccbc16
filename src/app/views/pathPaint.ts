/**
 * Styled paths painted on a 2D canvas — the offscreen canvases of the paint worker
 * (workers/paintWorker.ts) — and the same frame as SVG markup for the run export (a transferred
 * canvas cannot be read back). A view turns what its SVG layer would draw, with the stylesheet's
 * look, into a frame of these items (topologyMoving.ts, timelineLive.ts).
 */

export interface PaintItem {
  /** What the item is, as the SVG layer's class would say (tests read it: a canvas has no elements). */
  name: string;
  /** SVG path data. */
  d: string;
  fill?: string;
  stroke?: string;
  /** Stroke width in CSS px (1 when absent). */
  width?: number;
  fillOpacity?: number;
  strokeOpacity?: number;
  dash?: readonly number[];
  join?: CanvasLineJoin;
  /** `paint-order: stroke`: the outline under the fill. */
  strokeFirst?: boolean;
}

export interface PaintFrame {
  width: number;
  height: number;
  /** Nothing is painted outside this rectangle (CSS px). */
  clip?: { x: number; y: number; width: number; height: number };
  items: PaintItem[];
}

/** The context calls this paints with (CanvasRenderingContext2D and OffscreenCanvasRenderingContext2D both have them). */
export interface PaintContext<P> {
  globalAlpha: number;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  lineJoin: CanvasLineJoin;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  setLineDash(segments: number[]): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  save(): void;
  restore(): void;
  beginPath(): void;
  rect(x: number, y: number, w: number, h: number): void;
  clip(): void;
  fill(path: P): void;
  stroke(path: P): void;
}

/** Whether two frames paint the same (compared field by field: no key string built per frame). */
export function samePaint(a: PaintFrame, b: PaintFrame): boolean {
  if (a.width !== b.width || a.height !== b.height || a.items.length !== b.items.length) return false;
  const ca = a.clip;
  const cb = b.clip;
  if (ca !== cb && (!ca || !cb || ca.x !== cb.x || ca.y !== cb.y || ca.width !== cb.width || ca.height !== cb.height)) return false;
  return a.items.every((x, i) => {
    const y = b.items[i];
    return (
      x.d === y.d &&
      x.fill === y.fill &&
      x.stroke === y.stroke &&
      x.width === y.width &&
      x.fillOpacity === y.fillOpacity &&
      x.strokeOpacity === y.strokeOpacity &&
      x.join === y.join &&
      x.strokeFirst === y.strokeFirst &&
      sameDash(x.dash, y.dash)
    );
  });
}

const sameDash = (a: readonly number[] = [], b: readonly number[] = []): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/** Paints `frame` over a cleared canvas at `dpr` device pixels per CSS pixel; `path` makes a path from SVG path data (Path2D). */
export function paintFrame<P>(ctx: PaintContext<P>, frame: PaintFrame, dpr: number, path: (d: string) => P): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, Math.round(frame.width * dpr), Math.round(frame.height * dpr));
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.save();
  if (frame.clip) {
    ctx.beginPath();
    ctx.rect(frame.clip.x, frame.clip.y, frame.clip.width, frame.clip.height);
    ctx.clip();
  }
  for (const it of frame.items) {
    if (!it.d) continue;
    const p = path(it.d);
    const fill = (): void => {
      if (!it.fill) return;
      ctx.globalAlpha = it.fillOpacity ?? 1;
      ctx.fillStyle = it.fill;
      ctx.fill(p);
    };
    const stroke = (): void => {
      if (!it.stroke) return;
      ctx.globalAlpha = it.strokeOpacity ?? 1;
      ctx.strokeStyle = it.stroke;
      ctx.lineWidth = it.width ?? 1;
      ctx.lineJoin = it.join ?? 'miter';
      ctx.setLineDash(it.dash ? [...it.dash] : []);
      ctx.stroke(p);
    };
    if (it.strokeFirst) {
      stroke();
      fill();
    } else {
      fill();
      stroke();
    }
  }
  ctx.restore();
  ctx.globalAlpha = 1;
}

const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The same frame as SVG elements (no classes: the export carries no stylesheet); `clipId` names its clip path. */
export function frameSvg(frame: PaintFrame, clipId: string): string {
  const out: string[] = [];
  for (const it of frame.items) {
    if (!it.d) continue;
    const a = [`d="${attr(it.d)}"`, `fill="${it.fill ? attr(it.fill) : 'none'}"`];
    if (it.fill && it.fillOpacity !== undefined) a.push(`fill-opacity="${it.fillOpacity}"`);
    if (it.stroke) {
      a.push(`stroke="${attr(it.stroke)}"`, `stroke-width="${it.width ?? 1}"`);
      if (it.strokeOpacity !== undefined) a.push(`stroke-opacity="${it.strokeOpacity}"`);
      if (it.dash?.length) a.push(`stroke-dasharray="${it.dash.join(' ')}"`);
      if (it.join) a.push(`stroke-linejoin="${it.join}"`);
      if (it.strokeFirst) a.push('paint-order="stroke"');
    }
    out.push(`<path ${a.join(' ')}/>`);
  }
  if (!frame.clip || out.length === 0) return out.join('');
  const c = frame.clip;
  return `<clipPath id="${attr(clipId)}"><rect x="${c.x}" y="${c.y}" width="${c.width}" height="${c.height}"/></clipPath><g clip-path="url(#${attr(clipId)})">${out.join('')}</g>`;
}
