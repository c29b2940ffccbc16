import * as d3 from 'd3';
import { drawSymbolAt } from '../palette';
import { setAttr } from './d3quiet';

/**
 * The topology's moving parts — messages in flight, the ✕ of a dropped message, the progress ring
 * of a computing worker — change on every frame: they live in their own SVG between the links
 * and the nodes, so a frame touches a few small elements and repaints only where they are (a
 * canvas the size of the panel was copied to the compositor whole, every frame), and the links
 * and nodes are touched only when a node, a link or the partition changes.
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
interface KindDots {
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
  const paths = new Map<string, { colour: string; path: d3.Path | null }>();
  for (const k of kinds) paths.set(k, { colour: '', path: null });
  for (const dot of dots) {
    let k = paths.get(dot.kind);
    if (!k) paths.set(dot.kind, (k = { colour: dot.colour, path: null }));
    k.colour = dot.colour;
    // To a tenth of a pixel, as the dots' transforms were written: shorter strings to write and parse.
    k.path ??= d3.pathRound(1);
    drawSymbolAt(k.path, dot.symbol, dot.area, Math.round(dot.x * 10) / 10, Math.round(dot.y * 10) / 10);
  }
  return [...paths].map(([kind, k]) => ({ kind, colour: k.colour, d: k.path === null ? '' : k.path.toString() }));
}

export interface DropGlyph {
  /** The dropped message's id. */
  key: number;
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

export interface MovingParts {
  dots: FlightDot[];
  /** The run's message kinds in a stable order (the index's): the dots' paths keep it. */
  kinds: readonly string[];
  drops: DropGlyph[];
  arcs: ProgressArc[];
}

/**
 * Draws `parts` into the moving-parts SVG. Dots are one path per kind (dotsByKind), keyed by
 * kind. A ✕ lasts DROP_FLASH_MS and is keyed by its message, so only its opacity changes.
 */
export function drawMovingParts(svgEl: SVGSVGElement, width: number, height: number, parts: MovingParts): void {
  const svg = d3.select(svgEl).attr('viewBox', `0 0 ${width} ${height}`);
  // Progress rings (.cv-progress look): one path, clockwise from 12 o'clock, 3 px wide; to a tenth
  // of a pixel (a full-precision path was twice as long to write and parse, 16 workers a frame).
  const ring = d3.pathRound(1);
  for (const a of parts.arcs) {
    const r = a.r + 1.5;
    const start = -Math.PI / 2;
    ring.moveTo(a.x + r * Math.cos(start), a.y + r * Math.sin(start));
    ring.arc(a.x, a.y, r, start, start + 2 * Math.PI * Math.min(1, a.frac));
  }
  svg
    .selectAll<SVGPathElement, string>('path.cv-moving-progress')
    .data([ring.toString()])
    .join('path')
    .attr('class', 'cv-moving-progress')
    .attr('d', (d) => d);
  svg
    .selectAll<SVGPathElement, KindDots>('path.cv-msg')
    .data(dotsByKind(parts.dots, parts.kinds), (d) => d.kind)
    .join((enter) => enter.append('path').attr('class', 'cv-msg'))
    .attr('d', (d) => d.d)
    // An empty path keeps the colour it last had: nothing to write while its kind rests.
    .each(function (d) {
      if (d.colour) setAttr(this, 'fill', d.colour);
    });
  svg
    .selectAll<SVGTextElement, DropGlyph>('text.cv-drop')
    .data(parts.drops, (d) => d.key)
    .join((enter) => enter.append('text').attr('class', 'cv-drop').text('✕'))
    .attr('x', (d) => d.x)
    .attr('y', (d) => d.y)
    .attr('fill', (d) => d.colour)
    .attr('opacity', (d) => (Math.round(d.opacity * OPACITY_STEPS) / OPACITY_STEPS).toFixed(2));
}
