/// <reference lib="webworker" />
import { paintFrame } from '../app/views/pathPaint';
import type { PaintRequest } from '../app/views/offscreenLayer';

/**
 * The paint worker: paints views' every-frame layers (the topology's moving parts, the timeline's
 * messages on the wire) on offscreen canvases, which reach the compositor without the page's
 * style, layout and paint.
 */
const canvases = new Map<number, { canvas: OffscreenCanvas; ctx: OffscreenCanvasRenderingContext2D }>();
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (e: MessageEvent<PaintRequest>) => {
  const m = e.data;
  if (m.op === 'add') {
    const ctx = m.canvas.getContext('2d');
    if (ctx) canvases.set(m.id, { canvas: m.canvas, ctx });
  } else if (m.op === 'drop') canvases.delete(m.id);
  else {
    const c = canvases.get(m.id);
    if (!c) return;
    const w = Math.max(1, Math.round(m.frame.width * m.dpr));
    const h = Math.max(1, Math.round(m.frame.height * m.dpr));
    if (c.canvas.width !== w || c.canvas.height !== h) {
      c.canvas.width = w;
      c.canvas.height = h;
    }
    paintFrame(c.ctx, m.frame, m.dpr, (d) => new Path2D(d));
  }
};
