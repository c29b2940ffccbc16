import * as d3 from 'd3';
import { drawSymbolAt } from '../palette';
import { setAttr } from './d3quiet';
import type { PaintFrame, PaintItem } from './pathPaint';

/**
 * The topology's moving parts — messages in flight, the ✕ of a dropped message, the progress ring
 * of a computing worker — change on every frame: they live in a layer of their own between the
 * links and the nodes, drawn from one frame of path data (movingFrame) on a canvas the paint
 * worker paints (offscreenLayer.ts), or in an SVG where no canvas can be handed over. The links and
 * nodes are touched only when a node, a link or the partition changes.
 */

export interface FlightDot {
  x: number;
  y: number;
  /** The message's kind: dots of one kind are one path. */
  kind: string;
  colour: string;
  /** The kind's symbol (palette.kindSymbol) and its area in px². */
  symbol: d3.SymbolType;
  area: number;
}

/** All the dots of one kind in flight: one element, its dots subpaths in panel coordinates ('' when none flies). */
export interface KindDots {
  kind: string;
  colour: string;
  d: string;
}

/**
 * Dots grouped by kind, one entry per kind of `kinds` (the run's kinds as they first appeared: the
 * legend's order), '' for a kind with nothing in flight. A frame then rewrites a path's `d` per
 * kind, where one element per dot moved by a transform changed the layer's property tree and made
 * the renderer re-layerize the page every frame. The paths keep one order and stay when empty:
 * ordered by the kinds in flight, or removed when none flew, they were moved and re-inserted a
 * few times a frame. A dot of a kind not in `kinds` is drawn after them.
 */
export function dotsByKind(dots: readonly FlightDot[], kinds: readonly string[]): KindDots[] {
  // To a tenth of a pixel, as the dots' transforms were written: shorter strings to write and parse.
  const draw = (p: d3.Path, dot: FlightDot): void => drawSymbolAt(p, dot.symbol, dot.area, Math.round(dot.x * 10) / 10, Math.round(dot.y * 10) / 10);
  return groupedPaths(dots, [...kinds], (dot) => dot.kind, draw).map((g) => ({ kind: g.key, colour: g.last?.colour ?? '', d: g.d }));
}

/**
 * Marks grouped into one path per key: one entry per key of `order`, which keys not in it yet
 * extend in the order they come (the caller keeps the array, or passes a copy), each with the
 * group's last mark (null when it has none this frame) and its path ('' then).
 */
function groupedPaths<T>(marks: readonly T[], order: string[], keyOf: (m: T) => string, draw: (p: d3.Path, m: T) => void): Array<{ key: string; last: T | null; d: string }> {
  const groups = new Map<string, { last: T | null; path: d3.Path | null }>();
  for (const k of order) groups.set(k, { last: null, path: null });
  for (const m of marks) {
    const key = keyOf(m);
    let g = groups.get(key);
    if (!g) {
      groups.set(key, (g = { last: null, path: null }));
      order.push(key);
    }
    g.last = m;
    g.path ??= d3.pathRound(1);
    draw(g.path, m);
  }
  return [...groups].map(([key, g]) => ({ key, last: g.last, d: g.path === null ? '' : g.path.toString() }));
}

export interface DropGlyph {
  /** The message's kind: the ✕ of one kind and one fading step are one path. */
  kind: string;
  x: number;
  y: number;
  colour: string;
  opacity: number;
}

export interface ProgressArc {
  x: number;
  y: number;
  /** Inner radius; the ring is 3 px wide. */
  r: number;
  /** 0…1 of the step done. */
  frac: number;
}

/** A ✕'s opacity moves in steps of 0.1: each is a visible change, and between steps nothing is written. */
const OPACITY_STEPS = 10;

/** All the ✕ of one kind at one fading step: one element, each ✕ a subpath ('' when none). */
export interface DropPath {
  key: string;
  colour: string;
  /** The step's opacity, as the element's fill and stroke opacity. */
  opacity: string;
  d: string;
}

/**
 * A ✕ centred on x, y, `r` from the centre to each arm's tip: a plus sign's twelve corners turned
 * by 45°, filled, its arms two sevenths of `r` wide (the weight of the bold glyph it replaces).
 */
export function drawCross(p: d3.Path, x: number, y: number, r: number): void {
  const a = r;
  const w = r / 7;
  // The plus's corners (±w, ±a), (±a, ±w) turned by 45°: (u, v) → ((u − v)/√2, (u + v)/√2).
  const corners: Array<[number, number]> = [[w, a], [w, w], [a, w], [a, -w], [w, -w], [w, -a], [-w, -a], [-w, -w], [-a, -w], [-a, w], [-w, w], [-w, a]];
  corners.forEach(([u, v], i) => {
    const px = Math.round((x + (u - v) * Math.SQRT1_2) * 10) / 10;
    const py = Math.round((y + (u + v) * Math.SQRT1_2) * 10) / 10;
    if (i === 0) p.moveTo(px, py);
    else p.lineTo(px, py);
  });
  p.closePath();
}

/**
 * The ✕ grouped by kind and fading step, in `order` — the keys drawn so far, which this extends:
 * a group stays (empty) once it has been drawn, so a frame rewrites a few paths' `d` and the
 * elements never move. One text element per ✕ with its own opacity was a new element for every
 * lost message and an opacity write on each of them every few frames (6.5 writes a frame while
 * raft-ps-majority's server was down), and an opacity is a compositing effect of its own.
 */
export function dropsByStep(drops: readonly DropGlyph[], r: number, order: string[]): DropPath[] {
  const step = (g: DropGlyph): number => Math.max(0, Math.min(OPACITY_STEPS, Math.round(g.opacity * OPACITY_STEPS)));
  return groupedPaths(drops, order, (g) => `${g.kind}|${step(g)}`, (p, g) => drawCross(p, g.x, g.y, r)).map((g) => ({
    key: g.key,
    colour: g.last?.colour ?? '',
    opacity: g.last ? (step(g.last) / OPACITY_STEPS).toFixed(1) : '',
    d: g.d,
  }));
}

export interface MovingParts {
  dots: FlightDot[];
  /** The run's message kinds in a stable order (the index's): the dots' paths keep it. */
  kinds: readonly string[];
  drops: DropGlyph[];
  /** A ✕'s reach from its centre, px (it scales with the labels' type). */
  dropR: number;
  arcs: ProgressArc[];
}

/** One frame of the moving parts, as path data: what the SVG layer or the offscreen canvas draws. */
export interface MovingFrame {
  width: number;
  height: number;
  /** The progress rings, one path ('' when no worker computes). */
  ring: string;
  dots: KindDots[];
  drops: DropPath[];
}

/** Per moving-parts layer (its element): the ✕ groups drawn so far, and for which run's kinds (a new run starts afresh). */
const dropOrders = new WeakMap<Element, { kinds: readonly string[]; order: string[] }>();

/**
 * `parts` as path data for the layer `owner`: dots one path per kind (dotsByKind), the ✕ of lost
 * messages one path per kind and fading step (dropsByStep), both keyed and never reordered.
 */
export function movingFrame(owner: Element, width: number, height: number, parts: MovingParts): MovingFrame {
  // Progress rings (.cv-progress look): one path, clockwise from 12 o'clock, 3 px wide; to a tenth
  // of a pixel (a full-precision path was twice as long to write and parse, 16 workers a frame).
  const ring = d3.pathRound(1);
  for (const a of parts.arcs) {
    const r = a.r + 1.5;
    const start = -Math.PI / 2;
    ring.moveTo(a.x + r * Math.cos(start), a.y + r * Math.sin(start));
    ring.arc(a.x, a.y, r, start, start + 2 * Math.PI * Math.min(1, a.frac));
  }
  let drawn = dropOrders.get(owner);
  if (drawn?.kinds !== parts.kinds) dropOrders.set(owner, (drawn = { kinds: parts.kinds, order: [] }));
  return { width, height, ring: ring.toString(), dots: dotsByKind(parts.dots, parts.kinds), drops: dropsByStep(parts.drops, parts.dropR, drawn.order) };
}

/** Draws a frame into the moving-parts SVG (where no offscreen canvas can: offscreenLayer.ts). */
export function drawMovingSvg(svgEl: SVGSVGElement, frame: MovingFrame): void {
  const svg = d3.select(svgEl).attr('viewBox', `0 0 ${frame.width} ${frame.height}`);
  svg
    .selectAll<SVGPathElement, string>('path.cv-moving-progress')
    .data([frame.ring])
    .join('path')
    .attr('class', 'cv-moving-progress')
    .attr('d', (d) => d);
  svg
    .selectAll<SVGPathElement, KindDots>('path.cv-msg')
    .data(frame.dots, (d) => d.kind)
    .join((enter) => enter.append('path').attr('class', 'cv-msg'))
    .attr('d', (d) => d.d)
    // An empty path keeps the colour it last had: nothing to write while its kind rests.
    .each(function (d) {
      if (d.colour) setAttr(this, 'fill', d.colour);
    });
  svg
    .selectAll<SVGPathElement, DropPath>('path.cv-drop')
    .data(frame.drops, (d) => d.key)
    .join((enter) => enter.append('path').attr('class', 'cv-drop'))
    .attr('d', (d) => d.d)
    // An empty path keeps what it last had, as a dot's path does.
    .each(function (d) {
      if (!d.colour) return;
      setAttr(this, 'fill', d.colour);
      // Fill and stroke opacity, not `opacity`: an opacity is a compositing effect node per element.
      setAttr(this, 'fill-opacity', d.opacity);
      setAttr(this, 'stroke-opacity', d.opacity);
    });
}

/**
 * A frame as styled paths for the paint worker, with the look topology.css and layers.css give
 * the SVG layer: rings stroked in the text colour at 0.55, 3 px; dots filled in their kind's colour
 * under a 1.5-px outline in the panel's colour; each ✕ its 3-px round-joined outline under its
 * fill, both at its fading step's opacity.
 */
export function movingPaintFrame(frame: MovingFrame, colours: { fg: string; bg: string }): PaintFrame {
  const items: PaintItem[] = [];
  if (frame.ring) items.push({ name: 'cv-moving-progress', d: frame.ring, stroke: colours.fg, width: 3, strokeOpacity: 0.55 });
  for (const k of frame.dots) if (k.d) items.push({ name: 'cv-msg', d: k.d, fill: k.colour, stroke: colours.bg, width: 1.5 });
  for (const x of frame.drops) {
    if (!x.d) continue;
    const a = Number(x.opacity);
    items.push({ name: 'cv-drop', d: x.d, fill: x.colour, fillOpacity: a, stroke: colours.bg, strokeOpacity: a, width: 3, join: 'round', strokeFirst: true });
  }
  return { width: frame.width, height: frame.height, items };
}
