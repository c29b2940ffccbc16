import { useEffect, useId, useLayoutEffect, useRef, useState, type FocusEvent as ReactFocusEvent, type JSX, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import * as d3 from 'd3';
import './d3quiet';
import type { LinkState, NodeState } from '../../engine/index/runState';
import type { Action, NodeId, NodeRole } from '../../sim/types';
import type { Lang } from '../i18n/lang';
import { colourOf, kindColour, kindSymbolPath, messageColours } from '../palette';
import { consensusRoleOf, nodeLines, roleOf, termOf, termWord, versionOf, type DataRole } from '../words/nodeWords';
import { directedSegment, flightFraction, groupsFromDrop, hullPath, labelPlacement, lerpSeg, nodeHitBox, nodeHitRect, idFontPx, pairLinks, textOn, topologyLayout, type LinkPair, type Pt, type TopologyLayout } from './geometry';
import { timed, useCssValues, useDraw, useReducedMotion, useSize, useTheme, type FrameSource } from './hooks';
import { drawMovingParts, type DropGlyph, type FlightDot, type ProgressArc } from './topologyMoving';
import type { Simulation } from '../../engine/simulation';
import { dropsNear, messageById } from './drops';
import { indexOf, stateAt, staticOf } from './runView';
import { kindName, vs } from './strings';
import { wordsContext } from './wordsContext';
import './views.css';

export interface TopologyViewProps {
  sim: Simulation;
  /** The time shown and a counter bumped on each engine frame, when no frame source is given (the lesson panels re-render per frame). */
  t?: number;
  frame?: number;
  /** Engine frames to redraw on, and the time to show, without re-rendering (the main view). */
  frames?: FrameSource;
  lang: Lang;
  selected: string | null;
  onSelect(id: string | null): void;
  onAction(a: Action): void;
}

/** Sideways offset of each direction of an edge, so both directions (and their messages) show. */
const DIR_OFFSET = 3.5;
/** Width of each direction's invisible hit line: two of them make a ≥ 24 px target per edge. */
const HIT_WIDTH = 14;
/** How long a dropped message's ✕ stays visible, in simulated ms. */
const DROP_FLASH_MS = 200;
/** A drop closer than this to the home position is a click or a fumble, not a partition gesture. */
const DRAG_MIN_PX = 40;
const SPRING_MS = 350;

interface NodeDatum {
  id: NodeId;
  node: NodeState;
  /** The stable `data-role` hook at the cursor time (crashed, leader, follower, worker …). */
  role: DataRole;
  /** Raft term or Kafka leader epoch at the cursor time (null where it does not apply). */
  term: number | null;
  /** The version it holds at the cursor time (servers: from their facts). */
  version: number;
  backend: string;
  p: Pt;
  colour: string;
  isWorker: boolean;
  /** Unit vector from the centre outwards (labels go on the outside of the circle). */
  out: Pt;
}

interface DirDatum {
  link: LinkState;
  seg: { x1: number; y1: number; x2: number; y2: number };
  offset: number;
}

function hexagon(r: number): string {
  const pts = d3.range(6).map((i) => {
    const a = (Math.PI / 3) * i + Math.PI / 6;
    return `${r * Math.cos(a)},${r * Math.sin(a)}`;
  });
  return `M${pts.join('L')}Z`;
}

function shapePath(role: NodeRole, r: number): string {
  if (role === 'worker') return `M${-r},0A${r},${r} 0 1,0 ${r},0A${r},${r} 0 1,0 ${-r},0Z`;
  if (role === 'broker') return hexagon(r * 1.05);
  // A coordination-service server: a diamond, apart from the strategy's own servers.
  if (role === 'coord') return `M0,${-r * 1.15}L${r * 1.15},0L0,${r * 1.15}L${-r * 1.15},0Z`;
  const s = r * 0.9;
  return `M${-s},${-s}H${s}V${s}H${-s}Z`;
}

/** A node group's classes: its state (down, paused, failed), kind and selection. */
function nodeClass(d: NodeDatum, selected: NodeId | null): string {
  let c = 'cv-node';
  if (!d.node.up) c += ' down';
  if (d.isWorker) c += ' draggable';
  else c += ' infra';
  if (d.node.paused !== undefined) c += ' paused';
  if (d.node.failed !== undefined) c += ' failed';
  if (d.id === selected) c += ' selected';
  return c;
}

/**
 * The links' drawn state (cut, partitioned) as one key. A run's links array changes only with its
 * faults (runState.linksAt), so the key is built once per change, not on every frame.
 */
const linksKeys = new WeakMap<readonly LinkState[], string>();
function linksKeyOf(links: readonly LinkState[]): string {
  let key = linksKeys.get(links);
  if (key === undefined) {
    key = links.map((l) => `${l.from}>${l.to}:${l.cut ? 1 : 0}${l.partitioned ? 1 : 0}`).join(',');
    linksKeys.set(links, key);
  }
  return key;
}

export function TopologyView(p: TopologyViewProps): JSX.Element {
  const { sim, frame, lang, selected } = p;
  const stageRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const movingRef = useRef<SVGSVGElement>(null);
  const frontRef = useRef<SVGSVGElement>(null);
  // The drawing's box: the panel less the hint line above and the legend below (both HTML).
  const size = useSize(stageRef);
  const reduced = useReducedMotion();
  const theme = useTheme();
  const css = useCssValues(stageRef, ['--cv-bg', 'color'], [size.width, size.height, theme]);
  // What the SVG layers were last drawn for: frames that change only the moving parts skip them.
  const drawnKey = useRef('');
  const [kindCount, setKindCount] = useState(0);
  const drawnLinks = useRef('');
  const drawnNodes = useRef('');
  const factIds = useRef({ ids: new WeakMap<object, number>(), next: 0 });
  // A click's answer in the next frame: the selection's class is set as the click is rendered,
  // not only in the full redraw after the paint, which takes ~45 ms on a 16-worker run at speed
  // max. The redraw then writes the same class string (nodeClass).
  useLayoutEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const want = selected === null ? null : `node-${selected}`;
    for (const el of stage.querySelectorAll('g.cv-node.selected')) if (el.getAttribute('data-testid') !== want) el.classList.remove('selected');
    if (want !== null) stage.querySelector(`g.cv-node[data-testid="${want}"]`)?.classList.add('selected');
  }, [selected]);
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  // Handlers live in a ref: D3 listeners are bound once at enter and must call the latest props.
  const handlers = useRef({ onSelect: p.onSelect, onAction: p.onAction });
  useEffect(() => {
    handlers.current = { onSelect: p.onSelect, onAction: p.onAction };
  });
  const layoutRef = useRef<TopologyLayout | null>(null);
  const layMemo = useRef<{ roster: readonly unknown[]; key: string; lay: TopologyLayout } | null>(null);
  const dragRef = useRef<{ id: NodeId; x: number; y: number } | null>(null);
  // A dropped node springing back home; frames rendered meanwhile place it where the spring is.
  const springRef = useRef<{ id: NodeId; from: Pt; start: number } | null>(null);
  const springPos = (id: NodeId, home: Pt): Pt => {
    const sp = springRef.current;
    if (!sp || sp.id !== id) return home;
    const k = Math.min(1, (performance.now() - sp.start) / SPRING_MS);
    if (k >= 1) springRef.current = null;
    const e = d3.easeBackOut(k);
    return { x: sp.from.x + (home.x - sp.from.x) * e, y: sp.from.y + (home.y - sp.from.y) * e };
  };

  // Drag a worker across the centre line to partition; it springs back home afterwards. Bound
  // once per node element (at enter): the handlers read the current layout from refs.
  const dragRef2 = useRef<d3.DragBehavior<SVGGElement, NodeDatum, Pt> | null>(null);
  const frameRef = useRef({ height: 0, reduced: false });
  frameRef.current = { height: size.height, reduced };
  if (!dragRef2.current) {
    dragRef2.current = d3
      .drag<SVGGElement, NodeDatum, Pt>()
      .filter((ev: MouseEvent, d) => d.isWorker && !ev.button)
      .clickDistance(4)
      .subject((_ev, d) => ({ x: d.p.x, y: d.p.y }))
      .on('start', (_ev, d) => {
        dragRef.current = { id: d.id, x: d.p.x, y: d.p.y };
      })
      .on('drag', function (ev: d3.D3DragEvent<SVGGElement, NodeDatum, Pt>, d) {
        dragRef.current = { id: d.id, x: ev.x, y: ev.y };
        d3.select(this).attr('transform', `translate(${ev.x},${ev.y})`).raise();
        const lay = layoutRef.current;
        if (lay && Math.hypot(ev.x - d.p.x, ev.y - d.p.y) > DRAG_MIN_PX) {
          d3.select(svgRef.current)
            .select('line.cv-centre-line')
            .style('display', null)
            .attr('x1', lay.cx)
            .attr('x2', lay.cx)
            .attr('y1', 8)
            .attr('y2', frameRef.current.height - 8);
        }
      })
      .on('end', function (ev: d3.D3DragEvent<SVGGElement, NodeDatum, Pt>, d) {
        dragRef.current = null;
        d3.select(svgRef.current).select('line.cv-centre-line').style('display', 'none');
        const lay0 = layoutRef.current;
        const home = lay0?.pos.get(d.id) ?? d.p;
        if (lay0 && Math.hypot(ev.x - home.x, ev.y - home.y) >= DRAG_MIN_PX) {
          const groups = groupsFromDrop(lay0.pos, d.id, { x: ev.x, y: ev.y }, lay0.cx);
          if (groups) handlers.current.onAction({ do: 'partition', groups });
        }
        // Spring back home (the partition shows as shading, not as a moved node). A d3.timer
        // rather than a transition: the next frame's join may rewrite the transform anyway.
        const g = d3.select(this);
        // A click (no move) has nothing to spring back from.
        if (frameRef.current.reduced || Math.hypot(ev.x - home.x, ev.y - home.y) < 1) {
          g.attr('transform', `translate(${home.x},${home.y})`);
          return;
        }
        springRef.current = { id: d.id, from: { x: ev.x, y: ev.y }, start: performance.now() };
        const timer = d3.timer(() => {
          // Home as the layout has it now: selecting a node can resize the panel meanwhile, and
          // a frame that finds the node unchanged does not move it again.
          const q = springPos(d.id, layoutRef.current?.pos.get(d.id) ?? home);
          if (!dragRef.current) g.attr('transform', `translate(${q.x},${q.y})`);
          if (!springRef.current) timer.stop();
        });
      });
  }

  const ix = indexOf(sim);
  // Roving tab stop: the whole drawing is one Tab stop; this is the node or link that holds it.
  const stopRef = useRef<string | null>(null);
  const onFocus = (e: ReactFocusEvent<HTMLDivElement>): void => {
    const id = (e.target as Element).closest('g.cv-node, g.cv-link')?.getAttribute('data-testid');
    if (!id || !stageRef.current) return;
    stopRef.current = id;
    applyRoving(stageRef.current, id, selected);
  };

  // One-time scaffold: layers in paint order, and the background that clears the selection.
  useEffect(() => {
    const svg = d3.select(svgRef.current!);
    svg.selectAll('*').remove();
    const defs = svg.append('defs');
    const pat = defs
      .append('pattern')
      .attr('id', `hatch-${uid}`)
      .attr('width', 8)
      .attr('height', 8)
      .attr('patternUnits', 'userSpaceOnUse')
      .attr('patternTransform', 'rotate(45)');
    pat.append('rect').attr('width', 8).attr('height', 8).attr('class', 'cv-hatch-bg');
    pat.append('line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 8).attr('class', 'cv-hatch-line');
    svg
      .append('rect')
      .attr('class', 'cv-bg')
      .on('click', () => handlers.current.onSelect(null));
    svg.append('line').attr('class', 'cv-centre-line').style('display', 'none');
    for (const layer of ['shade', 'links', 'cuts']) svg.append('g').attr('class', `cv-layer-${layer}`);
    const front = d3.select(frontRef.current!);
    front.selectAll('*').remove();
    front.append('g').attr('class', 'cv-layer-nodes');
    drawnKey.current = '';
  }, [uid]);

  useDraw(
    () =>
    timed('topology', () => {
      const t = p.frames ? p.frames.t() : (p.t ?? sim.now());
      const svgEl = svgRef.current;
      const { width, height } = size;
      if (!svgEl || width === 0 || height === 0) return;
      const svg = d3.select(svgEl);
      const front = d3.select(frontRef.current!);

      const { nodes, links, inFlight, partition, metrics } = stateAt(sim, t);
      const ctx = wordsContext(sim.scenario, staticOf(sim));
      const groups = partition ?? [];
      const groupsKey = groups.map((g) => g.join(',')).join('|');
      // The layout depends on the run's nodes, the size and the partition: laid out when one of
      // them changes, not on every frame.
      const roster = staticOf(sim).nodes;
      const layKey = `${width}x${height}|${groupsKey}`;
      if (layMemo.current?.roster !== roster || layMemo.current.key !== layKey) {
        layMemo.current = { roster, key: layKey, lay: topologyLayout(roster, width, height, 0, undefined, groups) };
      }
      const lay = layMemo.current.lay;
      // classList writes even an unchanged class (a mutation, a style invalidation): only on change.
      if (svgEl.classList.contains('cluster') !== (lay.kind === 'cluster')) svg.classed('cluster', lay.kind === 'cluster');
      layoutRef.current = lay;
      const posOf = (id: NodeId): Pt | undefined => {
        const d = dragRef.current;
        if (d && d.id === id) return { x: d.x, y: d.y };
        const home = lay.pos.get(id);
        return home && springRef.current?.id === id ? springPos(id, home) : home;
      };
      const R = lay.nodeR;
      // The longest worker id ("w15") sets one type size for every glyph's id.
      const idChars = nodes.reduce((m, n) => Math.max(m, n.id.length), 2);

      // ---- moving parts on the canvas, every frame -------------------------------------------
      const segFor = (from: NodeId, to: NodeId): ReturnType<typeof directedSegment> | null => {
        const a = lay.pos.get(from);
        const b = lay.pos.get(to);
        return a && b ? directedSegment(a, b, DIR_OFFSET, R + 2) : null;
      };
      // Reduced motion: messages hop between three fixed stations instead of gliding.
      const quantise = (f: number): number => (reduced ? [1 / 6, 1 / 2, 5 / 6][Math.min(2, Math.floor(f * 3))] : f);
      const dots: FlightDot[] = [];
      // A symbol a little larger than the old disc of radius max(4, R·0.22): a star or a wye needs the room.
      const dotArea = Math.round(1.3 * Math.PI * Math.max(4, R * 0.22) ** 2);
      for (const m of inFlight) {
        const sg = segFor(m.from, m.to);
        if (!sg) continue;
        const at = lerpSeg(sg, quantise(flightFraction(t, m.sentAt, m.due)));
        dots.push({ x: at.x, y: at.y, colour: kindColour(m.kind), shape: kindSymbolPath(ix.kinds, m.kind, dotArea) });
      }
      // Dropped messages flash a ✕ where they were lost, fading over DROP_FLASH_MS of sim time.
      const drops: DropGlyph[] = [];
      for (const dm of dropsNear(ix, t, DROP_FLASH_MS)) {
        const sg = segFor(dm.from, dm.to);
        if (!sg) continue;
        const span = messageById(ix, dm.id, dm.sentAt);
        const f = span ? flightFraction(dm.t, span.sentAt, span.due) : 0.5;
        const at = lerpSeg(sg, Math.max(0.15, Math.min(0.85, f)));
        drops.push({ x: at.x, y: at.y, colour: messageColours[dm.kind] ?? css.color, opacity: reduced ? 1 : 1 - (0.7 * (t - dm.t)) / DROP_FLASH_MS });
      }
      const arcs: ProgressArc[] = [];
      for (const n of nodes) {
        const q = n.computing ? posOf(n.id) : undefined;
        if (!q || !n.computing) continue;
        arcs.push({ x: q.x, y: q.y, r: R + 2, frac: reduced ? 1 : Math.max(0.02, flightFraction(t, n.computing.t, n.computing.due)) });
      }
      if (movingRef.current) drawMovingParts(movingRef.current, width, height, { dots, drops, arcs });

      // ---- the SVG layers: only when a node, a link, the partition or the frame changed ---------
      // A node's facts change as a new object: numbered by identity, they key the tooltip lines.
      const fid = (f: object | null): number => {
        if (!f) return 0;
        let id = factIds.current.ids.get(f);
        if (id === undefined) factIds.current.ids.set(f, (id = ++factIds.current.next));
        return id;
      };
      // What every mark depends on (size, language, selection, theme, partition, a drag): when it
      // changes, everything is redrawn; otherwise only the links or nodes whose own key changed.
      const globalKey = [
        width,
        height,
        lang,
        selected,
        reduced,
        css['--cv-bg'],
        groupsKey,
        // While a node is dragged or springs back, its position changes every frame.
        dragRef.current || springRef.current ? performance.now() : '',
      ].join('#');
      const linksKey = linksKeyOf(links);
      const nodeKeyOf = (n: (typeof nodes)[number]): string =>
        `${n.id}:${n.up}:${n.failed ?? ''}:${n.version}:${n.slowFactor}:${n.byzantine?.attack ?? ''}:${n.paused?.since ?? ''}:${fid(n.facts)}:${versionOf(n, metrics?.nodes[n.id]?.version)}:${n.role === 'worker' ? sim.trainer.backendFor(n.id) : ''}`;
      const nodeKeys = new Map(nodes.map((n) => [n.id, nodeKeyOf(n)]));
      const nodesKey = [...nodeKeys.values()].join(',');
      const force = globalKey !== drawnKey.current;
      const linksChanged = force || linksKey !== drawnLinks.current;
      if (!linksChanged && nodesKey === drawnNodes.current) return;
      drawnKey.current = globalKey;
      drawnLinks.current = linksKey;
      drawnNodes.current = nodesKey;
      svg.attr('viewBox', `0 0 ${width} ${height}`);
      front.attr('viewBox', `0 0 ${width} ${height}`);
      svg.select('rect.cv-bg').attr('width', width).attr('height', height);

      if (linksChanged) {
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

      // ---- nodes ---------------------------------------------------------------------------------
      const data: NodeDatum[] = nodes
        .filter((n) => lay.pos.has(n.id))
        .map((n) => {
          const q = lay.pos.get(n.id)!;
          const dx = q.x - lay.cx;
          const dy = q.y - lay.cy;
          const len = Math.hypot(dx, dy);
          const isWorker = n.role === 'worker';
          return {
            id: n.id,
            node: n,
            role: roleOf(n),
            term: termOf(n),
            version: versionOf(n, metrics?.nodes[n.id]?.version),
            backend: isWorker ? sim.trainer.backendFor(n.id) : '',
            p: q,
            colour: colourOf(n.id),
            isWorker,
            out: lay.labelOut.get(n.id) ?? (len > 1 ? { x: dx / len, y: dy / len } : { x: 0, y: 1 }),
          };
        });
      const nodeSel = front
        .select('g.cv-layer-nodes')
        .selectAll<SVGGElement, NodeDatum>('g.cv-node')
        .data(data, (d) => d.id)
        .join((enter) => {
          const g = enter
            .append('g')
            .attr('class', 'cv-node')
            .attr('tabindex', -1)
            .attr('role', 'button')
            .attr('aria-haspopup', 'menu')
            .on('click', (ev: MouseEvent, d) => {
              ev.stopPropagation();
              if (ev.defaultPrevented) return; // the click that ends a drag
              handlers.current.onSelect(d.id);
            })
            .on('keydown', function (ev: KeyboardEvent, d) {
              if (ev.key !== 'Enter' && ev.key !== ' ') return;
              ev.preventDefault();
              ev.stopPropagation(); // Space must not also play/pause
              handlers.current.onSelect(d.id);
              // Enter opens the node's action menu by the right-click path (the panel's
              // onContextMenu), placed at the glyph's corner.
              if (ev.key === 'Enter') {
                const r = this.getBoundingClientRect();
                this.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: r.right, clientY: r.bottom }));
              }
            });
          // Transparent hit area over glyph and labels: a generous target that never reaches a
          // neighbour's centre. The extent box (no pointer events) is symmetric about the glyph
          // and covers every label, so the centre of the group's box, where Playwright and a
          // quick hand both click, is always the glyph, whichever side the labels are on.
          g.append('rect').attr('class', 'cv-node-extent');
          g.append('rect').attr('class', 'cv-node-hit');
        g.append('circle').attr('class', 'cv-focus');
          g.append('path').attr('class', 'cv-progress');
          g.append('path').attr('class', 'cv-role-ring');
          g.append('path').attr('class', 'cv-shape');
          g.append('path').attr('class', 'cv-cross');
          // The drawn words are hidden from assistive technology: the group's aria-label says
          // them all in a sentence (id, role, version, term, state).
          g.append('text').attr('class', 'cv-id').attr('aria-hidden', 'true');
          g.append('text').attr('class', 'cv-ver cv-num').attr('aria-hidden', 'true');
          g.append('text').attr('class', 'cv-backend').attr('aria-hidden', 'true');
          g.append('text').attr('class', 'cv-term').attr('aria-hidden', 'true');
          g.append('text').attr('class', 'cv-crown').attr('aria-hidden', 'true').text('♛');
          const clock = g.append('g').attr('class', 'cv-clock').attr('aria-hidden', 'true');
          clock.append('rect');
          clock.append('circle');
          clock.append('path');
          clock.append('text').attr('class', 'cv-num');
          g.append('text').attr('class', 'cv-bang').attr('aria-hidden', 'true').text('!');
          // A pause sign (two bars on a disc), drawn: the ⏸ character is missing from common fonts.
          const pause = g.append('g').attr('class', 'cv-paused').attr('aria-hidden', 'true');
          pause.append('circle').attr('r', 9);
          pause.append('path').attr('d', 'M-3.5,-4.5V4.5M3.5,-4.5V4.5');
          // A space after each drawn word (SVG does not render text between elements): read as
          // one string, "w0 v3 wasm" stays three words, as the aria-label has them.
          g.selectAll<SVGTextElement, unknown>('text').each(function () {
            this.after(' ');
          });
          g.append('title');
          g.call(dragRef2.current!);
          return g;
        });

      // Only the nodes whose own drawing changed (or all, when everything must be redrawn): a Raft
      // heartbeat changes one node's facts, not the other eight glyphs.
      const drawn = nodeSel.filter(function (d) {
        const q = posOf(d.id) ?? d.p;
        const k = `${nodeKeys.get(d.id)}@${q.x},${q.y}`;
        const el = this as SVGGElement & { __cvKey?: string };
        if (!force && el.__cvKey === k) return false;
        el.__cvKey = k;
        return true;
      });
      drawn
        .attr('data-testid', (d) => `node-${d.id}`)
        .attr('data-up', (d) => String(d.node.up))
        .attr('data-version', (d) => String(d.version))
        .attr('data-role', (d) => d.role)
        .attr('data-term', (d) => (d.term === null ? null : String(d.term)))
        .attr('aria-label', (d) => nodeLabel(d, lang, !lay.dense))
        // One class string, written only when it differs (classList writes even an unchanged one).
        .each(function (d) {
          const cls = nodeClass(d, selected);
          if (this.getAttribute('class') !== cls) this.setAttribute('class', cls);
        })
        .attr('transform', (d) => {
          const q = posOf(d.id) ?? d.p;
          return `translate(${q.x},${q.y})`;
        });
      drawn.select('circle.cv-focus').attr('r', R + 8);
      drawn
        .select('path.cv-shape')
        .attr('d', (d) => shapePath(d.node.role, R))
        .attr('fill', (d) => (d.isWorker ? d.colour : null))
        // A darker rim: a yellow or orange disc on a white panel is under 3:1 (WCAG 1.4.11); its rim is not.
        .attr('stroke', (d) => (d.isWorker ? (d3.color(d.colour)?.darker(1.5).formatHex() ?? d.colour) : null));
      // Consensus role on server/broker glyphs (RaftScope): leader = bold ring and a crown,
      // candidate = dashed ring, follower plain; the term (Kafka: leader epoch) under the version.
      // Coordination servers are `coord` in data-role but lead and follow all the same.
      const ring = (d: NodeDatum): string => (d.isWorker ? 'none' : (consensusRoleOf(d.node) ?? 'none'));
      drawn
        .select('path.cv-role-ring')
        .attr('class', (d) => `cv-role-ring ${ring(d)}`)
        .attr('d', (d) => (ring(d) === 'leader' || ring(d) === 'candidate' ? shapePath(d.node.role, R + 6) : ''));
      drawn
        .select('text.cv-crown')
        .attr('x', 0)
        .attr('y', -(R + 10))
        .attr('text-anchor', 'middle')
        .style('display', (d) => (ring(d) === 'leader' ? null : 'none'));
      const k = R * 0.55;
      drawn.select('path.cv-cross').attr('d', (d) => (d.node.up ? '' : `M${-k},${-k}L${k},${k}M${k},${-k}L${-k},${k}`));
      drawn
        .select('text.cv-id')
        .attr('dy', '0.35em')
        .style('font-size', `${idFontPx(R, idChars)}px`)
        // A style, not an attribute: the stylesheet's fill (the theme's text colour) would win
        // over an attribute, and light text on yellow or orange fails contrast.
        .style('fill', (d) => (d.isWorker && d.node.up ? textOn(d.colour) : null))
        .text((d) => d.id);

      // Version (and backend) outside the glyph: beside side nodes, above/below the others.
      drawn.each(function (d) {
        const sideOf = lay.side.get(d.id);
        const term0 = !d.isWorker && d.term !== null;
        const lp =
          sideOf !== undefined
            ? labelPlacement({ x: sideOf, y: 0 }, true, R, d.isWorker ? d.backend !== '' && !lay.dense : term0)
            : labelPlacement(d.out, d.isWorker, R, d.isWorker && d.backend !== '' && !lay.dense);
        const g = d3.select(this);
        // A worker in an inner sub-column of a crowded column has no room for labels beside it.
        const bare = lay.unlabelled.has(d.id);
        // A coordination server holds no parameters: no version label (its term or epoch says enough).
        const ver = d.node.role === 'coord' || bare ? '' : `v${d.version}`;
        g.select('text.cv-ver').attr('x', lp.x).attr('y', lp.yVersion).attr('text-anchor', lp.anchor).text(ver);
        const backend = d.isWorker && !lay.dense && !bare ? d.backend : '';
        g.select('text.cv-backend').attr('x', lp.x).attr('y', lp.yBackend).attr('text-anchor', lp.anchor).text(backend);
        const term = !d.isWorker && d.term !== null ? `${termWord(d.node, lang)} ${d.term}` : '';
        // A coordination server has no version label: its term (epoch) takes that line.
        g.select('text.cv-term').attr('x', lp.x).attr('y', d.node.role === 'coord' ? lp.yVersion : lp.yBackend).attr('text-anchor', lp.anchor).text(term);
        const extent = nodeHitBox(lp, R, ver.length, Math.max(backend.length, term.length));
        g.select('rect.cv-node-extent').attr('x', extent.x).attr('y', extent.y).attr('width', extent.width).attr('height', extent.height);
        const hit = nodeHitRect(lay, d.id, d.isWorker, extent);
        g.select('rect.cv-node-hit').attr('x', hit.x).attr('y', hit.y).attr('width', hit.width).attr('height', hit.height);
      });

      const clock = drawn.select<SVGGElement>('g.cv-clock').style('display', (d) => (d.node.slowFactor > 1 ? null : 'none'));
      clock.attr('transform', `translate(${R * 0.7},${-R * 0.95})`);
      clock
        .select('rect')
        .attr('x', -8)
        .attr('y', -9)
        .attr('rx', 9)
        .attr('height', 18)
        .attr('width', (d) => 22 + 8 * `×${fmtFactor(d.node.slowFactor)}`.length);
      clock.select('circle').attr('r', 5);
      clock.select('path').attr('d', 'M0,-3.2V0L2.4,1.6');
      clock
        .select('text')
        .attr('x', 8)
        .attr('dy', '0.35em')
        .text((d) => `×${fmtFactor(d.node.slowFactor)}`);
      drawn
        .select('text.cv-bang')
        .attr('x', -R * 0.95)
        .attr('y', -R * 0.55)
        .style('display', (d) => (d.node.failed !== undefined ? null : 'none'));
      drawn
        .select('g.cv-paused')
        .attr('transform', `translate(${R * 0.85},${R * 0.85})`)
        .style('display', (d) => (d.node.paused !== undefined ? null : 'none'));
      drawn.select('title').text((d) => {
        const lines = [`${d.id} · v${d.version}`];
        if (d.node.failed !== undefined) lines.push(`${vs(lang, 'failed')}: ${d.node.failed}`);
        else if (!d.node.up) lines.push(vs(lang, 'crashed'));
        if (d.node.slowFactor > 1) lines.push(`${vs(lang, 'slow')} ×${fmtFactor(d.node.slowFactor)}`);
        if (d.node.up) lines.push(...nodeLines(d.node, ctx, lang));
        return lines.join('\n');
      });

      // New nodes or links came in with tabindex -1: one of them holds the drawing's tab stop.
      applyRoving(stageRef.current!, stopRef.current, selected);

      setKindCount(ix.kinds.length);
    }),
    [sim, ix, p.t, frame, size, lang, selected, reduced, uid, css],
    p.frames,
  );

  // Legend of message kinds: a wrapped line under the drawing, where it never covers a node.
  // The index appends kinds between renders: the drawing reports a new count, which re-renders this.
  const kinds = ix.kinds.slice(0, Math.min(8, Math.max(kindCount, ix.kinds.length)));
  return (
    <div className="cv-view cv-topology">
      <div className="cv-hint">{vs(lang, 'topologyHint')}</div>
      {/* One group for the drawings (links, the moving parts, nodes in front): one Tab stop, arrow keys move inside. */}
      <div className="cv-topo-stage" ref={stageRef} role="group" aria-label={vs(lang, 'topology')} aria-describedby={`keys-${uid}`} onFocus={onFocus} onKeyDown={onRovingKey}>
        <svg ref={svgRef} className="cv-svg" />
        <svg ref={movingRef} className="cv-svg cv-topo-moving" aria-hidden="true" />
        <svg ref={frontRef} className="cv-svg cv-topo-front" />
        <span id={`keys-${uid}`} className="visually-hidden">
          {vs(lang, 'topologyKeys')}
        </span>
      </div>
      {kinds.length > 0 && (
        <div className="cv-topo-legend" aria-label={vs(lang, 'messages')}>
          {kinds.map((k) => (
            <span key={k} className="cv-legend-item">
              <svg className="cv-dot" viewBox="-7 -7 14 14" aria-hidden="true">
                <path d={kindSymbolPath(ix.kinds, k, 64)} fill={kindColour(k)} />
              </svg>
              {kindName(k, lang)}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

/** The focusable items in arrow-key order: nodes (in layout order), then links. */
function rovingItems(stage: Element): SVGGElement[] {
  return [...stage.querySelectorAll<SVGGElement>('g.cv-node'), ...stage.querySelectorAll<SVGGElement>('g.cv-link')];
}

/** Gives tabindex 0 to one item (the last focused, else the selected node, else the first) and -1 to the rest. */
function applyRoving(stage: Element, stop: string | null, selected: string | null): void {
  const items = rovingItems(stage);
  const find = (id: string | null): SVGGElement | undefined => (id === null ? undefined : items.find((el) => el.getAttribute('data-testid') === id));
  const current = find(stop) ?? find(selected === null ? null : `node-${selected}`) ?? items[0];
  for (const el of items) {
    const v = el === current ? '0' : '-1';
    if (el.getAttribute('tabindex') !== v) el.setAttribute('tabindex', v);
  }
}

/** Arrow keys, Home and End move the focus inside the drawing (and never reach the page's shortcuts: → would step). */
function onRovingKey(e: ReactKeyboardEvent<HTMLDivElement>): void {
  const items = rovingItems(e.currentTarget);
  const i = items.indexOf(document.activeElement as SVGGElement);
  if (i < 0 || items.length === 0) return;
  const n = items.length;
  const next = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1 + n, ArrowLeft: i - 1 + n, Home: 0, End: n - 1 }[e.key];
  if (next === undefined) return;
  e.preventDefault();
  e.stopPropagation();
  items[next % n].focus();
}

/**
 * What a screen reader says for a node: first the words the glyph shows, in their order (id,
 * version, backend, term, slow factor: a speech-input user says what they see, WCAG 2.5.3),
 * then its role and state in words.
 */
function nodeLabel(d: NodeDatum, lang: Lang, showBackend: boolean): string {
  const shown = [d.id, `v${d.version}`];
  if (d.isWorker && showBackend && d.backend) shown.push(d.backend);
  if (!d.isWorker && d.term !== null) shown.push(`${termWord(d.node, lang)} ${d.term}`);
  if (d.node.slowFactor > 1) shown.push(`×${fmtFactor(d.node.slowFactor)}`);
  const state: string[] = [];
  if (d.role === 'leader' || d.role === 'candidate' || d.role === 'follower') state.push(vs(lang, d.role));
  if (d.node.failed !== undefined) state.push(vs(lang, 'failed'));
  else if (!d.node.up) state.push(vs(lang, 'crashed'));
  if (d.node.paused !== undefined) state.push(vs(lang, 'paused'));
  if (d.node.slowFactor > 1) state.push(vs(lang, 'slow'));
  return state.length > 0 ? `${shown.join(' ')}: ${state.join(', ')}` : shown.join(' ');
}

function fmtFactor(f: number): string {
  return Number.isInteger(f) ? String(f) : f.toFixed(1);
}
