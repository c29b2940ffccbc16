import * as d3 from 'd3';
import './d3quiet';
import { colourOf, kindColour, kindDash } from '../palette';
import { redrawFor } from './drawnFor';
import { byKind, canvasColour, MARK_R, traceArrows, traceCrosses, type TimelineGeometry, type Unflushed } from './timelineCanvas';
import type { PaintFrame, PaintItem } from './pathPaint';

type Layer = d3.Selection<SVGGElement, unknown, null, undefined>;

/** The paths each live layer has drawn so far, in the order they first appeared. */
const kept = new WeakMap<object, KindPath[]>();

export interface KindPath {
  key: string;
  d: string;
  cls: 'cv-live-flying' | 'cv-live-landed' | 'cv-live-drop' | 'cv-live-mark';
  stroke: string;
  fill: string | null;
  dash: string | null;
}

/**
 * The time-space diagram's moving part: messages on the wire (drawn as far as they have got by
 * `now`), and what landed or was marked since the settled canvas last took it. One path per kind
 * and state, so a busy run is still a handful of paths. Every path the layer `owner` has had stays,
 * empty when its kind has nothing in the air: paths that came and went would be inserted, removed
 * and reordered in the DOM several times a second (and paint over each other in another order).
 */
export function livePaths(owner: object, g: TimelineGeometry, u: Unflushed, now: number, kinds: readonly string[]): KindPath[] {
  const dash = (kind: string): string | null => kindDash(kinds, kind).join(' ') || null;
  const paths: KindPath[] = [];
  for (const [kind, list] of byKind(u.flying)) {
    const p = d3.path();
    traceArrows(p, g, list, now, []);
    paths.push({ key: `f:${kind}`, d: p.toString(), cls: 'cv-live-flying', stroke: kindColour(kind), fill: null, dash: dash(kind) });
  }
  for (const [kind, list] of byKind(u.landed)) {
    const p = d3.path();
    const drops: Array<{ x: number; y: number }> = [];
    traceArrows(p, g, list, null, drops);
    paths.push({ key: `l:${kind}`, d: p.toString(), cls: 'cv-live-landed', stroke: kindColour(kind), fill: null, dash: dash(kind) });
    if (drops.length === 0) continue;
    const q = d3.path();
    traceCrosses(q, drops);
    paths.push({ key: `x:${kind}`, d: q.toString(), cls: 'cv-live-drop', stroke: kindColour(kind), fill: null, dash: null });
  }
  // Version marks not yet on the canvas: one path of dots per node.
  const marksOf = new Map<string, d3.Path>();
  for (const m of u.marks) {
    const y = g.yOf.get(m.node);
    if (y === undefined) continue;
    let p = marksOf.get(m.node);
    if (!p) marksOf.set(m.node, (p = d3.path()));
    const x = g.x(m.t);
    p.moveTo(x + MARK_R, y);
    p.arc(x, y, MARK_R, 0, 2 * Math.PI);
  }
  for (const [node, p] of marksOf) {
    const fill = canvasColour(colourOf(node), g);
    // The colours are in the key (they are set once per path, and the theme can change them).
    paths.push({ key: `m:${node}:${fill}:${g.bg}`, d: p.toString(), cls: 'cv-live-mark', stroke: g.bg, fill, dash: null });
  }
  const had = kept.get(owner) ?? [];
  kept.set(owner, had);
  const current = new Map(paths.map((p) => [p.key, p]));
  for (const p of paths) if (!had.some((h) => h.key === p.key)) had.push({ ...p, d: '' });
  return had.map((h) => current.get(h.key) ?? { ...h, d: '' });
}

/** The live paths of the layer `owner` as styled paths for the paint worker (offscreenLayer.ts). */
export function liveFrameFor(owner: object, g: TimelineGeometry, u: Unflushed, now: number, kinds: readonly string[]): PaintFrame {
  return livePaintFrame(livePaths(owner, g, u, now, kinds), g);
}

/** The live paths as styled paths, with timeline.css's look, clipped to the plot as the SVG layer is. */
export function livePaintFrame(paths: readonly KindPath[], g: TimelineGeometry): PaintFrame {
  const items: PaintItem[] = paths.map((p) =>
    p.cls === 'cv-live-mark'
      ? { name: p.cls, d: p.d, fill: p.fill ?? undefined, stroke: p.stroke, width: 1 }
      : { name: p.cls, d: p.d, stroke: p.stroke, width: p.cls === 'cv-live-drop' ? 1.6 : 1, strokeOpacity: p.cls === 'cv-live-drop' ? 0.9 : 0.6, dash: p.dash ? p.dash.split(' ').map(Number) : undefined },
  );
  return { width: g.width, height: g.height, clip: { x: g.left, y: 0, width: Math.max(0, g.right - g.left), height: g.height }, items };
}

/** The future veil: what covers the lanes after the run's now (layers.css's .cv-future). */
export interface Veil {
  /** Its left edge: one pixel left of now's x, rounded. */
  x: number;
  /** The lanes' band, top and bottom (timelineLayers.ts bandY). */
  y0: number;
  y1: number;
  /** Each lane's faint continuation. */
  lanes: ReadonlyArray<{ y: number; colour: string }>;
  /** Following the run (no scrub cursor): its left edge is drawn, the live cursor. */
  edge: boolean;
  fg: string;
}

/**
 * The future veil as styled paths, for a canvas the paint worker paints where the veil element was
 * (under the settled messages, over the lanes): as a composited box moved by a transform some
 * thirty times a second, it made Chromium re-layerize the whole page on every move (2–3 % of the
 * main thread on raft-ps-majority). It reaches one pixel past the plot, so the edge still shows at
 * the window's end; its bottom stops half a pixel short of the band's, where the time axis's line
 * is (the element, snapped to device pixels, left that line whole).
 */
export function veilPaintFrame(v: Veil, g: TimelineGeometry): PaintFrame {
  const end = g.right + 1;
  const bottom = v.y1 - 0.5;
  const items: PaintItem[] = [];
  if (v.x < end) {
    items.push({ name: 'cv-future', d: `M${v.x},${v.y0}H${end}V${bottom}H${v.x}Z`, fill: g.bg });
    for (const l of v.lanes) items.push({ name: 'cv-lane-future', d: `M${v.x},${l.y}H${end}`, stroke: canvasColour(l.colour, g), width: 1, strokeOpacity: 0.18 });
    if (v.edge) items.push({ name: 'cv-future-edge', d: `M${v.x},${v.y0}h2V${bottom}h-2Z`, fill: v.fg });
  }
  return { width: g.width, height: g.height, clip: { x: 0, y: v.y0, width: end, height: Math.max(0, v.y1 - v.y0) }, items };
}

/** Draws the live paths into the SVG layer (where no offscreen canvas can: offscreenLayer.ts). */
export function drawUnflushed(layer: Layer, g: TimelineGeometry, u: Unflushed, now: number, clipId: string, kinds: readonly string[]): void {
  const stable = livePaths(layer.node()!, g, u, now, kinds);
  // Arrows from before the window are cut at the plot's left edge, as on the canvas.
  const clip = `${g.left},${g.right},${g.height}`;
  if (redrawFor(layer.node(), clip)) {
    layer
      .attr('clip-path', `url(#${clipId})`)
      .selectAll<SVGClipPathElement, null>(`clipPath`)
      .data([null])
      .join((enter) => {
        const c = enter.append('clipPath').attr('id', clipId);
        c.append('rect');
        return c;
      })
      .select('rect')
      .attr('x', g.left)
      .attr('y', 0)
      .attr('width', Math.max(0, g.right - g.left))
      .attr('height', g.height);
  }
  // A path's kind, state and colours are in its key: only its shape is set after it enters.
  layer
    .selectAll<SVGPathElement, KindPath>('path')
    .data(stable, (d) => d.key)
    .join((enter) =>
      enter
        .append('path')
        .attr('class', (d) => d.cls)
        .attr('stroke', (d) => d.stroke)
        .attr('stroke-dasharray', (d) => d.dash)
        .attr('fill', (d) => d.fill),
    )
    .attr('d', (d) => d.d);
}
