import { Fragment, useEffect, useId, useLayoutEffect, useRef, useState, type FocusEvent as ReactFocusEvent, type JSX } from 'react';
import * as d3 from 'd3';
import { setAttr } from './d3quiet';
import type { Action, NodeId } from '../../sim/types';
import type { Lang } from '../i18n/lang';
import { colourOf, kindColour, kindSymbol, kindSymbolPath, messageColours } from '../palette';
import { roleOf, termOf } from '../words/nodeWords';
import { hiddenByRivals, topologyLayout, type Pt, type TopologyLayout } from './geometry';
import { directedSegment, flightFraction, groupsFromDrop, lerpSeg } from './topologyMath';
import { outOf } from './nodeLabels';
import { timed, useCssValues, useDraw, useFontSize, useReducedMotion, useSize, useTheme, type FrameSource } from './hooks';
import { rateLimited, type RateLimited } from './rateLimited';
import { drawMovingSvg, movingFrame, movingPaintFrame, type DropGlyph, type FlightDot, type ProgressArc } from './topologyMoving';
import { holdOffscreen, layersOffscreen, paintOffscreen } from './offscreenLayer';
import { DIR_OFFSET, drawLinks, linksKeyOf } from './topologyLinks';
import { drawNodeLabels, drawNodes, drawNodeWords, enterNode, labelledVersions, labelRoom, nodeShapeKey, type NodeDatum } from './topologyNodes';
import { applyRoving, onRovingKey } from './topologyRoving';
import type { RunReader } from '../../engine/runReader';
import { dropsNear, messageById } from './drops';
import { indexOf, stateAt, staticOf } from './runView';
import { kindName, vs } from './strings';
import { wordsContext } from './wordsContext';
import './views.css';

export interface TopologyViewProps {
  sim: RunReader;
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

/** How long a dropped message's ✕ stays visible, in simulated ms. */
const DROP_FLASH_MS = 200;
/** A ✕'s reach from its centre at the default type size (15 px): the bold glyph it replaced. */
const DROP_R = 6.4;
/** A drop closer than this to the home position is a click or a fumble, not a partition gesture. */
const DRAG_MIN_PX = 40;
const SPRING_MS = 350;
/**
 * While the run advances, the drawn version labels, the spoken labels and the tooltips change at
 * most this often (ms); the `data-version` hooks follow every frame. Each label rewritten costs a text layout
 * and a paint of the nodes' SVG: on a 16-worker run, about five labels a frame took 4 % of the
 * main thread, and a number that changes sixty times a second cannot be read anyway (the panels
 * follow ten times a second for the same reason, store.panelFrame).
 */
const VERSION_TEXT_MS = 100;

export function TopologyView(p: TopologyViewProps): JSX.Element {
  const { sim, frame, lang, selected } = p;
  const stageRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  // The moving parts: a canvas the paint worker paints, or an SVG where none can be handed over.
  const movingRef = useRef<SVGSVGElement>(null);
  const movingCanvasRef = useRef<HTMLCanvasElement>(null);
  const [onCanvas] = useState(layersOffscreen);
  useEffect(() => {
    const canvas = movingCanvasRef.current;
    return canvas ? holdOffscreen(canvas) : undefined;
  }, []);
  const frontRef = useRef<SVGSVGElement>(null);
  // The drawing's box: the panel less the hint line above and the legend below (both HTML).
  const size = useSize(stageRef);
  // The labels are in rem: their room in the layout grows with the type (presenter, wide screens).
  const fs = useFontSize(stageRef, size, 15);
  const reduced = useReducedMotion();
  const theme = useTheme();
  const css = useCssValues(stageRef, ['--cv-bg', 'color', '--mono'], [size.width, size.height, theme]);
  // What the SVG layers were last drawn for: frames that change only the moving parts skip them.
  const drawnKey = useRef('');
  const [kindCount, setKindCount] = useState(0);
  const drawnLinks = useRef('');
  const drawnNodes = useRef('');
  // The drawn version labels, at most every VERSION_TEXT_MS while the run advances, on the panels'
  // clock where the frames come with one; the run's time at the last drawing tells whether it advanced.
  const versionTexts = useRef<RateLimited | null>(null);
  versionTexts.current ??= p.frames?.textClock ? rateLimited(VERSION_TEXT_MS, p.frames.textClock, true) : rateLimited(VERSION_TEXT_MS);
  const drawnSimNow = useRef(NaN);
  useEffect(() => () => versionTexts.current?.dispose(), []);
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
  const layMemo = useRef<{ roster: readonly unknown[]; key: string; lay: TopologyLayout; charW: number } | null>(null);
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
      // The labels' room follows the type, the language and the protocol's word for a term (term,
      // epoch, ballot: the servers' facts from the run's start), measured with the layout only.
      // Each node's version as labelled; the longest sets the labels' room (laid out again when it gains a digit).
      const { shown, digits } = labelledVersions(nodes, (id) => metrics?.nodes[id]?.version);
      const layKey = `${width}x${height}|${groupsKey}|${fs}|${lang}|${css.font}|${css['--mono']}|${digits}`;
      if (layMemo.current?.roster !== roster || layMemo.current.key !== layKey) {
        const labelW = labelRoom(nodes, lang, fs, css.font, css['--mono'], digits);
        // The versions are in tabular monospace: 'v' and `digits` eights, over digits + 1, is one character's width.
        layMemo.current = { roster, key: layKey, lay: topologyLayout(roster, width, height, 0, undefined, groups, fs / 15, labelW), charW: labelW.version / (digits + 1) };
      }
      const lay = layMemo.current.lay;
      svg.classed('cluster', lay.kind === 'cluster'); // quiet (d3quiet): written only when it changes
      // The labels' type scale, for what decorates the nodes from outside (the live room's name tags).
      setAttr(frontRef.current!, 'data-text-scale', lay.textScale.toFixed(3));
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

      // ---- moving parts (their own SVG), every frame -----------------------------------------
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
        dots.push({ x: at.x, y: at.y, kind: m.kind, colour: kindColour(m.kind), symbol: kindSymbol(ix.kinds, m.kind), area: dotArea });
      }
      // Dropped messages flash a ✕ where they were lost, fading over DROP_FLASH_MS of sim time.
      const drops: DropGlyph[] = [];
      for (const dm of dropsNear(ix, t, DROP_FLASH_MS)) {
        const sg = segFor(dm.from, dm.to);
        if (!sg) continue;
        const span = messageById(ix, dm.id, dm.sentAt);
        const f = span ? flightFraction(dm.t, span.sentAt, span.due) : 0.5;
        const at = lerpSeg(sg, Math.max(0.15, Math.min(0.85, f)));
        drops.push({ kind: dm.kind, x: at.x, y: at.y, colour: messageColours[dm.kind] ?? css.color, opacity: reduced ? 1 : 1 - (0.7 * (t - dm.t)) / DROP_FLASH_MS });
      }
      const arcs: ProgressArc[] = [];
      for (const n of nodes) {
        const q = n.computing ? posOf(n.id) : undefined;
        if (!q || !n.computing) continue;
        arcs.push({ x: q.x, y: q.y, r: R + 2, frac: reduced ? 1 : Math.max(0.02, flightFraction(t, n.computing.t, n.computing.due)) });
      }
      const movingEl = movingCanvasRef.current ?? movingRef.current;
      if (movingEl) {
        const moving = movingFrame(movingEl, width, height, { dots, kinds: ix.kinds, drops, dropR: DROP_R * (fs / 15), arcs });
        if (movingEl instanceof HTMLCanvasElement) paintOffscreen(movingEl, movingPaintFrame(moving, { fg: css.color || '#1f2328', bg: css['--cv-bg'] || '#ffffff' }));
        else drawMovingSvg(movingEl, moving);
      }

      // ---- the SVG layers: only when a node, a link, the partition or the frame changed ---------
      // A node's facts change as a new object: numbered by identity, they key the tooltip lines.
      const fid = (f: object | null): number => {
        if (!f) return 0;
        let id = factIds.current.ids.get(f);
        if (id === undefined) factIds.current.ids.set(f, (id = ++factIds.current.next));
        return id;
      };
      // What every mark depends on (the layout: size, type, language, partition, the versions'
      // length; selection, theme, a drag): when it changes, everything is redrawn; otherwise only
      // the links or nodes whose own key changed.
      const globalKey = [
        // The layout's own key: a new layout (a longer version, another font) moves every mark.
        layKey,
        selected,
        reduced,
        css['--cv-bg'],
        // While a node is dragged or springs back, its position changes every frame.
        dragRef.current || springRef.current ? performance.now() : '',
      ].join('#');
      const linksKey = linksKeyOf(links);
      const nodeKeyOf = (n: (typeof nodes)[number]): string =>
        `${n.id}:${n.up}:${n.failed ?? ''}:${n.version}:${n.slowFactor}:${n.byzantine?.attack ?? ''}:${n.paused?.since ?? ''}:${fid(n.facts)}:${shown.get(n.id)}:${n.role === 'worker' ? sim.backendFor(n.id) : ''}`;
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

      if (linksChanged) drawLinks(svg, { lay, links, groups, selected, lang, uid, handlers });

      // ---- nodes ---------------------------------------------------------------------------------
      const data: NodeDatum[] = nodes
        .filter((n) => lay.pos.has(n.id))
        .map((n) => {
          const q = lay.pos.get(n.id)!;
          const isWorker = n.role === 'worker';
          return {
            id: n.id,
            node: n,
            role: roleOf(n),
            term: termOf(n),
            version: shown.get(n.id)!,
            backend: isWorker ? sim.backendFor(n.id) : '',
            p: q,
            colour: colourOf(n.id),
            isWorker,
            out: lay.labelOut.get(n.id) ?? outOf(q, { x: lay.cx, y: lay.cy }),
          };
        });
      let entered = false;
      const nodeSel = front
        .select('g.cv-layer-nodes')
        .selectAll<SVGGElement, NodeDatum>('g.cv-node')
        .data(data, (d) => d.id)
        .join((enter) => {
          entered ||= !enter.empty();
          return enterNode(enter, handlers, dragRef2.current!);
        });

      // Only the nodes whose own drawing changed (or all, when everything must be redrawn): a Raft
      // heartbeat changes one node's facts, not the other eight glyphs. A node whose version or
      // facts alone changed gets only its labels written.
      const hidden = hiddenByRivals(lay, (id) => shown.get(id), layMemo.current.charW);
      const relabelled: SVGGElement[] = [];
      const drawn = nodeSel.filter(function (d) {
        const q = posOf(d.id) ?? d.p;
        // A worker on a crowded ring is drawn again when its label comes or goes for its rival.
        const placed = `${hidden.has(d.id) ? '|h' : ''}@${q.x},${q.y}`;
        const k = `${nodeKeys.get(d.id)}${placed}`;
        const el = this as SVGGElement & { __cvKey?: string; __cvShape?: string };
        if (!force && el.__cvKey === k) return false;
        // The shape key only for a node that changed: its parts derive from what nodeKeys holds.
        const shape = `${nodeShapeKey(d)}${placed}`;
        const whole = force || el.__cvShape !== shape;
        el.__cvKey = k;
        el.__cvShape = shape;
        if (!whole) relabelled.push(el);
        return whole;
      });
      drawNodes(drawn, { lay, lang, selected, idChars, words: ctx, posOf, hidden });
      // Each element still holds its datum from the join above. Their words wait (rateLimited).
      if (relabelled.length > 0) drawNodeLabels(d3.selectAll<SVGGElement, NodeDatum>(relabelled), { lay, lang, words: ctx, hidden }, false);
      const advancing = sim.now() !== drawnSimNow.current;
      drawnSimNow.current = sim.now();
      versionTexts.current?.offer(advancing, relabelled.length > 0, () => drawNodeWords(nodeSel, { lay, lang, words: ctx, hidden }));

      // New nodes or links came in with tabindex -1: one of them holds the drawing's tab stop
      // (a changed selection redraws everything; a focus moves the stop itself, in onFocus).
      if (force || linksChanged || entered) applyRoving(stageRef.current!, stopRef.current, selected);

      setKindCount(ix.kinds.length);
    }),
    [sim, ix, p.t, frame, size, fs, lang, selected, reduced, uid, css],
    p.frames,
  );

  // Legend of message kinds: a wrapped line under the drawing, where it never covers a node.
  // The index appends kinds between renders: the drawing reports a new count, which re-renders this.
  const kinds = ix.kinds.slice(0, Math.min(8, Math.max(kindCount, ix.kinds.length)));
  return (
    <div className="cv-view cv-topology">
      {/* Its gestures wrap whole: one per line where the line is short. The space between them
          stays outside the spans (an inline block drops its own trailing space: "restore ·drag"). */}
      <div className="cv-hint">
        {vs(lang, 'topologyHint')
          .split(' · ')
          .map((part, i, all) => (
            <Fragment key={i}>
              <span>{i < all.length - 1 ? `${part} ·` : part}</span>
              {i < all.length - 1 ? ' ' : null}
            </Fragment>
          ))}
      </div>
      {/* One group for the drawings (links, the moving parts, nodes in front): one Tab stop, arrow keys move inside. */}
      <div className="cv-topo-stage" ref={stageRef} role="group" aria-label={vs(lang, 'topology')} aria-describedby={`keys-${uid}`} onFocus={onFocus} onKeyDown={onRovingKey}>
        <svg ref={svgRef} className="cv-svg" />
        {onCanvas ? <canvas ref={movingCanvasRef} className="cv-svg cv-topo-moving" aria-hidden="true" /> : <svg ref={movingRef} className="cv-svg cv-topo-moving" aria-hidden="true" />}
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

