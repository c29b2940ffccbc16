import * as d3 from 'd3';
import './d3quiet';
import type { VersionMark } from '../../engine/index/runIndex';
import { colourOf, kindColour } from '../palette';
import { byKind, MARK_R, traceArrows, traceCrosses, type TimelineGeometry, type Unflushed } from './timelineCanvas';

type Layer = d3.Selection<SVGGElement, unknown, null, undefined>;

interface KindPath {
  key: string;
  kind: string;
  d: string;
  cls: string;
}

/**
 * The time-space diagram's moving part, in SVG: messages on the wire (drawn as far as they have
 * got by `now`), and what landed or was marked since the settled canvas last took it. One path
 * per kind and state, so a busy run is still a handful of elements, each with one attribute
 * rewritten per frame; only where they are gets repainted (a canvas is copied whole).
 */
export function drawUnflushed(layer: Layer, g: TimelineGeometry, u: Unflushed, now: number, clipId: string): void {
  const paths: KindPath[] = [];
  for (const [kind, list] of byKind(u.flying)) {
    const p = d3.path();
    traceArrows(p, g, list, now, []);
    paths.push({ key: `f:${kind}`, kind, d: p.toString(), cls: 'cv-live-flying' });
  }
  for (const [kind, list] of byKind(u.landed)) {
    const p = d3.path();
    const drops: Array<{ x: number; y: number }> = [];
    traceArrows(p, g, list, null, drops);
    paths.push({ key: `l:${kind}`, kind, d: p.toString(), cls: 'cv-live-landed' });
    if (drops.length === 0) continue;
    const q = d3.path();
    traceCrosses(q, drops);
    paths.push({ key: `x:${kind}`, kind, d: q.toString(), cls: 'cv-live-drop' });
  }
  // Arrows from before the window are cut at the plot's left edge, as on the canvas.
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
  layer
    .selectAll<SVGPathElement, KindPath>('path')
    .data(paths, (d) => d.key)
    .join('path')
    .attr('class', (d) => d.cls)
    .attr('stroke', (d) => kindColour(d.kind))
    .attr('d', (d) => d.d);
  layer
    .selectAll<SVGCircleElement, VersionMark>('circle')
    .data(u.marks, (m) => `${m.node}@${m.t}`)
    .join('circle')
    .attr('class', 'cv-live-mark')
    .attr('r', MARK_R)
    .attr('cx', (m) => g.x(m.t))
    .attr('cy', (m) => g.yOf.get(m.node) ?? 0)
    .attr('fill', (m) => {
      const c = colourOf(m.node);
      return c.startsWith('var(') ? g.neutral : c;
    })
    .attr('stroke', g.bg);
}
