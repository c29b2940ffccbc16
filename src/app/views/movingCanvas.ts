import { movingFrameSvg, type MovingColours } from './movingPaint';
import type { MovingFrame } from './topologyMoving';

/**
 * The topology's moving parts on a canvas handed to the drawing worker (workers/movingWorker.ts):
 * the page posts each frame's path data and changes nothing in its own document, so a frame of
 * messages in flight costs it no style, layout or paint (on raft-ps-majority at speed 1, drawing
 * them in an SVG took 4–7 points of the main thread's busy time). Where a canvas cannot be handed
 * over (no OffscreenCanvas), the view keeps its SVG layer.
 */

export type MovingRequest =
  | { op: 'add'; id: number; canvas: OffscreenCanvas }
  | { op: 'draw'; id: number; frame: MovingFrame; dpr: number; colours: MovingColours }
  | { op: 'drop'; id: number };

export const offscreenMoving: boolean =
  typeof window !== 'undefined' && typeof Worker !== 'undefined' && typeof HTMLCanvasElement !== 'undefined' && 'transferControlToOffscreen' in HTMLCanvasElement.prototype;

let worker: Worker | null = null;
/** Set when the drawing worker failed to load or threw: views mounted afterwards keep the SVG layer. */
let workerFailed = false;
function drawingWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('../../workers/movingWorker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('error', () => void (workerFailed = true));
  }
  return worker;
}

/** Whether a view mounted now draws its moving parts on a worker's canvas (else in an SVG). */
export const movingOnCanvas = (): boolean => offscreenMoving && !workerFailed;
let nextId = 1;

interface Layer {
  id: number;
  /** What was last posted, to post nothing when a frame draws the same. */
  sent: string;
  /** The last frame drawn and its colours: the export's stand-in, and what tests read. */
  last: { frame: MovingFrame; colours: MovingColours } | null;
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
    layer = { id: nextId++, sent: '', last: null, dropping: null };
    layers.set(canvas, layer);
    drawingWorker().postMessage({ op: 'add', id: layer.id, canvas: off } satisfies MovingRequest, [off]);
  }
  return layer;
}

/** Draws `frame` on `canvas` (handed to the worker on its first frame). */
export function drawMovingCanvas(canvas: HTMLCanvasElement, frame: MovingFrame, colours: MovingColours): void {
  const layer = layerOf(canvas);
  if (!layer) return;
  const dpr = window.devicePixelRatio || 1;
  const key = [frame.width, frame.height, dpr, colours.fg, colours.bg, frame.ring, ...frame.dots.map((k) => `${k.colour}${k.d}`), ...frame.drops.map((x) => `${x.colour}${x.opacity}${x.d}`)].join('|');
  layer.last = { frame, colours };
  (canvas as MovingCanvasElement).cvMovingFrame = frame;
  if (key === layer.sent) return;
  layer.sent = key;
  drawingWorker().postMessage({ op: 'draw', id: layer.id, frame, dpr, colours } satisfies MovingRequest);
}

/**
 * Keeps `canvas`'s layer while its view is mounted; the function returned lets it go (the worker
 * forgets the canvas). A release and a hold in the same task — React's StrictMode remount — keep it.
 */
export function holdMovingCanvas(canvas: HTMLCanvasElement): () => void {
  const held = layers.get(canvas);
  if (held?.dropping) clearTimeout(held.dropping);
  if (held) held.dropping = null;
  return () => {
    const layer = layers.get(canvas);
    if (!layer || layer.dropping) return;
    layer.dropping = setTimeout(() => {
      layers.delete(canvas);
      drawingWorker().postMessage({ op: 'drop', id: layer.id } satisfies MovingRequest);
    }, 0);
  };
}

/** The last frame drawn on `canvas` as SVG markup, or null for a canvas that is not a moving-parts layer. */
export function movingStandIn(canvas: HTMLCanvasElement): string | null {
  const last = layers.get(canvas)?.last;
  return last ? movingFrameSvg(last.frame, last.colours) : null;
}

/** A moving-parts canvas carries its last frame, for tests to read (it has no elements). */
export type MovingCanvasElement = HTMLCanvasElement & { cvMovingFrame?: MovingFrame };
