import { samePaint, type PaintFrame } from './pathPaint';

/**
 * A view's every-frame layer on a canvas handed to the paint worker (workers/paintWorker.ts): the
 * page posts each frame's styled paths and changes nothing in its own document, so a frame costs
 * it no style, layout or paint — an SVG whose paths changed sixty times a second ran all three
 * every frame (the topology's moving parts took 4–7 points of raft-ps-majority's busy time).
 * Where a canvas cannot be handed over (no OffscreenCanvas), or the worker failed, views keep
 * their SVG layers.
 */

export type PaintRequest = { op: 'add'; id: number; canvas: OffscreenCanvas } | { op: 'draw'; id: number; frame: PaintFrame; dpr: number } | { op: 'drop'; id: number };

const offscreenCanvas: boolean =
  typeof window !== 'undefined' && typeof Worker !== 'undefined' && typeof HTMLCanvasElement !== 'undefined' && 'transferControlToOffscreen' in HTMLCanvasElement.prototype;

let worker: Worker | null = null;
/** Set when the paint worker failed to load or threw: views mounted afterwards keep their SVG layers. */
let workerFailed = false;
function paintWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('../../workers/paintWorker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('error', () => void (workerFailed = true));
  }
  return worker;
}

/** Whether a view mounted now paints its every-frame layer on a worker's canvas (else in SVG). */
export const layersOffscreen = (): boolean => offscreenCanvas && !workerFailed;

let nextId = 1;

interface Layer {
  id: number;
  /** The frame last posted (at `dpr`): a frame that paints the same is not posted again; the export draws it. */
  sent: { frame: PaintFrame; dpr: number } | null;
  /** A release waiting for the end of the task (a remount in the same task keeps the layer). */
  dropping: ReturnType<typeof setTimeout> | null;
}

const layers = new WeakMap<HTMLCanvasElement, Layer>();
/** Canvases handed over: a canvas can be transferred once, so one released stays blank. */
const transferred = new WeakSet<HTMLCanvasElement>();

function layerOf(canvas: HTMLCanvasElement): Layer | null {
  let layer = layers.get(canvas);
  if (!layer) {
    if (transferred.has(canvas)) return null;
    transferred.add(canvas);
    const off = canvas.transferControlToOffscreen();
    layer = { id: nextId++, sent: null, dropping: null };
    layers.set(canvas, layer);
    paintWorker().postMessage({ op: 'add', id: layer.id, canvas: off } satisfies PaintRequest, [off]);
  }
  return layer;
}

/** Paints `frame` on `canvas` (handed to the worker on its first frame). */
export function paintOffscreen(canvas: HTMLCanvasElement, frame: PaintFrame): void {
  const layer = layerOf(canvas);
  if (!layer) return;
  const dpr = window.devicePixelRatio || 1;
  if (layer.sent && layer.sent.dpr === dpr && samePaint(layer.sent.frame, frame)) return;
  layer.sent = { frame, dpr };
  // The canvas has no elements to read: tests read its last frame here.
  (canvas as HTMLCanvasElement & { cvFrame?: PaintFrame }).cvFrame = frame;
  paintWorker().postMessage({ op: 'draw', id: layer.id, frame, dpr } satisfies PaintRequest);
}

/**
 * Keeps `canvas`'s layer while its view is mounted; the function returned lets it go (the worker
 * forgets the canvas). A release and a hold in the same task — React's StrictMode remount — keep it.
 */
export function holdOffscreen(canvas: HTMLCanvasElement): () => void {
  const held = layers.get(canvas);
  if (held?.dropping) clearTimeout(held.dropping);
  if (held) held.dropping = null;
  return () => {
    const layer = layers.get(canvas);
    if (!layer || layer.dropping) return;
    layer.dropping = setTimeout(() => {
      layers.delete(canvas);
      paintWorker().postMessage({ op: 'drop', id: layer.id } satisfies PaintRequest);
    }, 0);
  };
}

/** The last frame painted on `canvas` and the layer's number, or null for a canvas that is not such a layer (the run export draws it as SVG). */
export function offscreenFrame(canvas: HTMLCanvasElement): { id: number; frame: PaintFrame } | null {
  const layer = layers.get(canvas);
  return layer?.sent ? { id: layer.id, frame: layer.sent.frame } : null;
}
