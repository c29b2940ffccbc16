import * as d3 from 'd3';
import './d3quiet';
import type { LinkState } from '../../engine/index/runState';
import type { NodeId } from '../../sim/types';
import type { Lang } from '../i18n/lang';
import type { Pt, TopologyLayout } from './geometry';
import { directedSegment, hullPath, pairLinks, type LinkPair } from './topologyMath';
import { vs } from './strings';
import type { TopologyHandlers } from './topologyNodes';

/**
 * The topology's links layer: partition shading behind everything, each edge as two directed
 * links (each with a wider invisible hit line) and the scissors of a cut edge. Drawn only when the
 * links, the partition or the frame change (TopologyView keys it), never per animation frame.
 */

/** Sideways offset of each direction of an edge, so both directions (and their messages) show. */
export const DIR_OFFSET = 3.5;
/** Width of each direction's invisible hit line: two of them make a ≥ 24 px target per edge. */
const HIT_WIDTH = 14;

interface DirDatum {
  link: LinkState;
  seg: { x1: number; y1: number; x2: number; y2: number };
  offset: number;
}

/**
 * The links' drawn state (cut, partitioned) as one key. A run's links array changes only with its
 * faults (runState.linksAt), so the key is built once per change, not on every frame.
 */
const linksKeys = new WeakMap<readonly LinkState[], string>();
export function linksKeyOf(links: readonly LinkState[]): string {
  let key = linksKeys.get(links);
  if (key === undefined) {
    key = links.map((l) => `${l.from}>${l.to}:${l.cut ? 1 : 0}${l.partitioned ? 1 : 0}`).join(',');
    linksKeys.set(links, key);
  }
  return key;
}

export interface LinksFrame {
  lay: TopologyLayout;
  links: readonly LinkState[];
  groups: readonly NodeId[][];
  selected: NodeId | null;
  lang: Lang;
  /** The view's id: the hatch pattern's name. */
  uid: string;
  handlers: { readonly current: TopologyHandlers };
}

export function drawLinks(svg: d3.Selection<SVGSVGElement, unknown, null, undefined>, f: LinksFrame): void {
  const { lay, links, groups, selected, lang, uid, handlers } = f;
  const R = lay.nodeR;
  // ---- partition shading (behind everything) ------------------------------------------------
  const shades = groups.map((g, i) => ({
    key: `${i}:${g.join(',')}`,
    d: hullPath(g.map((id) => lay.pos.get(id)).filter((q): q is Pt => q !== undefined)),
  }));
  svg
    .select('g.cv-layer-shade')
    .selectAll<SVGPathElement, (typeof shades)[number]>('path')
    .data(shades, (d) => d.key)
    .join('path')
    .attr('class', 'cv-shade')
    .attr('d', (d) => d.d)
    .attr('fill', `url(#hatch-${uid})`)
    .attr('stroke', `url(#hatch-${uid})`)
    .attr('stroke-width', 2 * (R + 16));

  // ---- links ---------------------------------------------------------------------------------
  const pairs = pairLinks(links).filter((pr) => lay.pos.has(pr.a) && lay.pos.has(pr.b));
  const dirsOf = (pr: LinkPair<LinkState>): DirDatum[] => {
    const both = pr.ab !== undefined && pr.ba !== undefined;
    const out: DirDatum[] = [];
    for (const l of [pr.ab, pr.ba]) {
      if (!l) continue;
      const offset = both ? DIR_OFFSET : 0;
      out.push({ link: l, offset, seg: directedSegment(lay.pos.get(l.from)!, lay.pos.get(l.to)!, offset, R + 2) });
    }
    return out;
  };
  const pairSel = svg
    .select('g.cv-layer-links')
    .selectAll<SVGGElement, LinkPair<LinkState>>('g.cv-pair')
    .data(pairs, (d) => d.key)
    .join('g')
    .attr('class', 'cv-pair')
    // Many edges (clients × servers): worker↔server edges drawn light, server↔server a little
    // stronger, the selected node's edges at full strength (CSS), so the nodes stay readable.
    .classed('client', (d) => (d.a[0] === 'w') !== (d.b[0] === 'w'))
    .classed('peer', (d) => d.a[0] !== 'w' && d.b[0] !== 'w')
    .classed('active', (d) => d.a === selected || d.b === selected);
  const dirSel = pairSel
    .selectAll<SVGGElement, DirDatum>('g.cv-link')
    .data(dirsOf, (d) => `${d.link.from}>${d.link.to}`)
    .join((enter) => {
      const g = enter
        .append('g')
        .attr('class', 'cv-link')
        .attr('tabindex', -1)
        .attr('role', 'button')
        .on('click', (ev: MouseEvent, d) => {
          ev.stopPropagation();
          handlers.current.onAction({ do: d.link.cut ? 'restore' : 'cut', from: d.link.from, to: d.link.to });
        })
        .on('keydown', (ev: KeyboardEvent, d) => {
          // Enter and Space do what a click does; neither reaches the page's shortcuts (Space: play).
          if (ev.key !== 'Enter' && ev.key !== ' ') return;
          ev.preventDefault();
          ev.stopPropagation();
          handlers.current.onAction({ do: d.link.cut ? 'restore' : 'cut', from: d.link.from, to: d.link.to });
        });
      g.append('line').attr('class', 'cv-link-vis');
      g.append('line').attr('class', 'cv-link-hit');
      g.append('title');
      return g;
    });
  dirSel
    .attr('data-testid', (d) => `link-${d.link.from}-${d.link.to}`)
    .attr('data-cut', (d) => String(d.link.cut))
    .attr('data-partitioned', (d) => String(d.link.partitioned))
    .classed('cut', (d) => d.link.cut)
    .classed('partitioned', (d) => d.link.partitioned)
    .attr('aria-label', (d) => `${d.link.from} → ${d.link.to}${d.link.cut ? ` (${vs(lang, 'cutLink')})` : ''}${d.link.partitioned ? ` (${vs(lang, 'partitioned')})` : ''}: ${vs(lang, d.link.cut ? 'clickToRestore' : 'clickToCut')}`);
  dirSel.select('title').text((d) => `${d.link.from} → ${d.link.to}${d.link.cut ? ` (${vs(lang, 'cutLink')})` : ''}${d.link.partitioned ? ` (${vs(lang, 'partitioned')})` : ''}`);
  dirSel
    .select<SVGLineElement>('line.cv-link-vis')
    .attr('x1', (d) => d.seg.x1)
    .attr('y1', (d) => d.seg.y1)
    .attr('x2', (d) => d.seg.x2)
    .attr('y2', (d) => d.seg.y2);
  // The hit line sits on the outer side of its direction so the two halves of an edge tile.
  dirSel
    .select<SVGLineElement>('line.cv-link-hit')
    .each(function (d) {
      const pFrom = lay.pos.get(d.link.from)!;
      const pTo = lay.pos.get(d.link.to)!;
      const off = d.offset === 0 ? 0 : HIT_WIDTH / 2;
      const s = directedSegment(pFrom, pTo, off, R + 2);
      d3.select(this)
        .attr('x1', s.x1)
        .attr('y1', s.y1)
        .attr('x2', s.x2)
        .attr('y2', s.y2)
        .attr('stroke-width', d.offset === 0 ? 2 * HIT_WIDTH : HIT_WIDTH);
    });

  // Scissors at the middle of every edge with a cut direction.
  const cutPairs = pairs.filter((pr) => pr.ab?.cut || pr.ba?.cut);
  svg
    .select('g.cv-layer-cuts')
    .selectAll<SVGTextElement, LinkPair<LinkState>>('text')
    .data(cutPairs, (d) => d.key)
    .join('text')
    .attr('class', 'cv-scissors')
    .attr('x', (d) => (lay.pos.get(d.a)!.x + lay.pos.get(d.b)!.x) / 2)
    .attr('y', (d) => (lay.pos.get(d.a)!.y + lay.pos.get(d.b)!.y) / 2)
    .text('✂');
}
