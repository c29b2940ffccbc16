/// <reference lib="webworker" />
import { paintMovingFrame } from '../app/views/movingPaint';
import type { MovingRequest } from '../app/views/movingCanvas';

/**
 * The drawing worker: paints the topology's moving parts on offscreen canvases, so a frame's
 * messages in flight reach the compositor without the page's style, layout and paint — which an
 * SVG or canvas changed on the main thread sixty times a second cost every frame.
 */
const canvases = new Map<number, { canvas: OffscreenCanvas; ctx: OffscreenCanvasRenderingContext2D }>();
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (e: MessageEvent<MovingRequest>) => {
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
    paintMovingFrame(c.ctx, m.frame, m.dpr, m.colours, (d) => new Path2D(d));
  }
};
