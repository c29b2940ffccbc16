import { memo, useCallback, useMemo, useEffect, useId, useRef, useState, type JSX, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';
import * as d3 from 'd3';
import './d3quiet';
import type { NodeId } from '../../sim/types';
import type { Lang } from '../i18n/lang';
import { colourOf, kindColour, kindDash } from '../palette';
import type { NoteEvent } from '../../engine/index/runIndex';
import { firstAtOrAfter } from '../../engine/index/series';
import { noteText } from '../words/noteWords';
import { fitCanvas, timed, useCssValues, useDraw, useFontSize, useScrollEdges, useSize, useTheme, type FrameSource } from './hooks';
import { SettledLayer } from './timelineCanvas';
import { drawUnflushed, liveFrameFor, veilPaintFrame, type Veil } from './timelineLive';
import { holdOffscreen, layersOffscreen, paintOffscreen } from './offscreenLayer';
import type { RunReader } from '../../engine/runReader';
import { indexOf, staticOf } from './runView';
import { kindName, vs } from './strings';
import { keyNotes, laneOrder, timeDomain } from './timelineModel';
import { bandY, drawAxis, drawBranches, drawCursor, drawCuts, drawLaneNames, drawLanes, drawPeriods, type LaneFrame } from './timelineLayers';
import './views.css';

export interface VersionTimelineProps {
  sim: RunReader;
  /** Bumped on each engine frame when no frame source is given (the lesson panels re-render per frame). */
  frame?: number;
  /** Engine frames to redraw on, without re-rendering (the main view). */
  frames?: FrameSource;
  lang: Lang;
  cursor: number | null;
  onScrub(t: number | null): void;
  /** Branch points of a forked run (the time this branch left its parent), drawn as dashed lines. */
  marks?: ReadonlyArray<{ t: number; label: string }>;
}

const BASE_M = { left: 40, right: 14, top: 26, bottom: 42 };
const MARK_R = 3.5;
/** Version numbers are written at least this far apart on a lane. */
const LABEL_GAP_PX = 30;

export function VersionTimeline(p: VersionTimelineProps): JSX.Element {
  const { sim, frame, lang, cursor } = p;
  const wrapRef = useRef<HTMLDivElement>(null);
  const backRef = useRef<SVGSVGElement>(null);
  const settledRef = useRef<HTMLCanvasElement>(null);
  const frontRef = useRef<SVGSVGElement>(null);
  // Messages on the wire: a canvas the paint worker paints, or the front SVG's live layer where none can be handed over.
  const liveRef = useRef<HTMLCanvasElement>(null);
  const [liveOnCanvas] = useState(layersOffscreen);
  const veilClipRef = useRef<HTMLDivElement>(null);
  // The future veil: a canvas the paint worker paints alongside the live layer, or an element moved by a transform.
  const veilRef = useRef<HTMLDivElement | HTMLCanvasElement>(null);
  // What the veil's canvas was last painted for.
  const veilDrawn = useRef('');
  useEffect(() => {
    const held = [liveRef.current, veilRef.current].flatMap((c) => (c instanceof HTMLCanvasElement ? [holdOffscreen(c)] : []));
    return () => held.forEach((release) => release());
  }, []);
  const veilLanesRef = useRef<SVGGElement>(null);
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const size = useSize(wrapRef);
  // The axis and the legend under it grow with the type (18 px root at 1920): keep them apart.
  const fs = useFontSize(wrapRef, size, 14);
  const theme = useTheme();
  const css = useCssValues(wrapRef, ['--cv-bg', '--neutral-node', 'color'], [size.width, size.height, theme]);
  // Finished messages and version marks, drawn once each (timelineCanvas.ts).
  const settled = useRef(new SettledLayer());
  // Version labels written so far (incremental, like the marks): per lane, the last one's x.
  const labelsDone = useRef<{ key: string; read: number; lastX: Map<NodeId, number> }>({ key: '', read: 0, lastX: new Map() });
  // What the notes and lane labels were last drawn for.
  const notesFor = useRef('');
  // The run's time at the last drawing, and the x scale's px per ms then.
  const drawnAt = useRef<{ now: number; pxPerMs: number } | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (kind: string): void =>
      setHidden((h) => {
        const n = new Set(h);
        if (n.has(kind)) n.delete(kind);
        else n.add(kind);
        return n;
      }),
    [],
  );
  const onScrub = useRef(p.onScrub);
  useEffect(() => {
    onScrub.current = p.onScrub;
  });
  // What the marks layer was last laid out for: marks are repositioned only when this changes.
  const placedFor = useRef('');
  const xRef = useRef<d3.ScaleLinear<number, number> | null>(null);

  const ix = indexOf(sim);
  // The index appends kinds in place, between renders: the drawing reports a new count, and a copy
  // per count lets the memoised legend see it.
  const [kindCount, setKindCount] = useState(ix.kinds.length);
  const kinds = useMemo(() => ix.kinds.slice(0, Math.max(kindCount, ix.kinds.length)), [ix, kindCount]);

  useEffect(() => {
    const back = d3.select(backRef.current!);
    back.selectAll('*').remove();
    for (const layer of ['periods', 'lanes', 'axis']) back.append('g').attr('class', `cv-layer-${layer}`);
    const front = d3.select(frontRef.current!);
    front.selectAll('*').remove();
    for (const layer of ['live', 'cuts', 'labels']) front.append('g').attr('class', `cv-layer-${layer}`);
    front.append('rect').attr('class', 'cv-veil').style('display', 'none');
    for (const layer of ['lanelabels', 'branches', 'cursor']) front.append('g').attr('class', `cv-layer-${layer}`);
    front.append('rect').attr('class', 'cv-bg');
    // Above the scrub surface, so a note's tooltip shows on hover (a press still bubbles up to scrub).
    front.append('g').attr('class', 'cv-layer-notes');
    placedFor.current = '';
    settled.current = new SettledLayer();
    labelsDone.current = { key: '', read: 0, lastX: new Map() };
    notesFor.current = '';

    // Scrubbing: press/drag anywhere on the plot; double-click returns to live.
    const timeAt = (ev: PointerEvent | MouseEvent): number | null => {
      const x = xRef.current;
      if (!x) return null;
      const [px] = d3.pointer(ev, frontRef.current);
      return Math.round(Math.max(x.domain()[0], Math.min(sim.now(), x.invert(px))));
    };
    let dragging = false;
    front
      .on('pointerdown', (ev: PointerEvent) => {
        if (ev.button !== 0) return;
        dragging = true;
        (ev.target as Element).setPointerCapture?.(ev.pointerId);
        const v = timeAt(ev);
        if (v !== null) onScrub.current(v);
      })
      .on('pointermove', (ev: PointerEvent) => {
        if (!dragging) return;
        const v = timeAt(ev);
        if (v !== null) onScrub.current(v);
      })
      .on('pointerup pointercancel', () => {
        dragging = false;
      })
      .on('dblclick', () => onScrub.current(null));
  }, [sim]);

  useDraw(
    () =>
    timed('timeline', () => {
      const { width, height } = size;
      const settledCanvas = settledRef.current;
      if (!settledCanvas || width === 0 || height === 0) return;
      const M = { ...BASE_M, bottom: Math.max(BASE_M.bottom, Math.round(fs * 3.1)) };
      const now = sim.now();
      const [t0, t1] = timeDomain(now, sim.durationMs);
      const x = d3.scaleLinear().domain([t0, t1]).range([M.left, width - M.right]);
      xRef.current = x;
      const ids = laneOrder(staticOf(sim).nodes.map((n) => n.id));
      const laneH = (height - M.top - M.bottom) / Math.max(1, ids.length);
      const yOf = new Map<NodeId, number>(ids.map((id, i) => [id, M.top + (i + 0.5) * laneH]));
      // Everything recorded so far is drawn (up to now); when scrubbed back, the part after the
      // cursor is veiled rather than hidden, so the teacher can see where to scrub forward to.
      const tEnd = Math.min(now, t1);
      // Marks and the axis are repositioned only when the scales change (size, window, lanes).
      drawnAt.current = { now, pxPerMs: (width - M.left - M.right) / Math.max(1, t1 - t0) };
      const layoutKey = `${width}x${height}|${t0}-${t1}|${ids.join(',')}|${lang}|${fs}`;
      const relayout = layoutKey !== placedFor.current;
      placedFor.current = layoutKey;

      const back = d3.select(backRef.current!);
      const front = d3.select(frontRef.current!);
      const f: LaneFrame = { x, yOf, ids, laneH, width, height, M, t0, t1, tEnd, layoutKey, lang, fs };
      if (relayout) {
        back.attr('viewBox', `0 0 ${width} ${height}`);
        front.attr('viewBox', `0 0 ${width} ${height}`);
        front.select('rect.cv-bg').attr('width', width).attr('height', height);
        const { y0, y1 } = bandY(f);
        // One pixel past the plot, so the edge (the live cursor) still shows at the window's end.
        if (veilClipRef.current) Object.assign(veilClipRef.current.style, { top: `${y0}px`, height: `${y1 - y0}px`, width: `${width - M.right + 1}px` });
      }
      drawPeriods(back.select('g.cv-layer-periods'), ix, f);
      drawCuts(front.select('g.cv-layer-cuts'), ix, f);
      drawLanes(back.select('g.cv-layer-lanes'), ix, f);
      drawLaneNames(front.select('g.cv-layer-lanelabels'), veilLanesRef.current ? d3.select(veilLanesRef.current) : null, f);
      drawAxis(back.select('g.cv-layer-axis'), f);
      // The future veil: a canvas the paint worker paints (below, with the live layer), else an
      // element that follows the run with a transform.
      const veilX = Math.round(x(tEnd)) - 1;
      const veilEl = veilRef.current;
      if (veilEl && !(veilEl instanceof HTMLCanvasElement)) {
        const move = `translateX(${veilX}px)`;
        if (veilEl.style.transform !== move) veilEl.style.transform = move;
        veilEl.classList.toggle('live', cursor === null);
      }

      // ---- messages and version marks: settled ones appended to the canvas (at most every
      // SETTLE_MS), the rest — on the wire, or landed since — as SVG paths redrawn each frame ----
      const geo = { x, yOf, width, height, left: M.left, right: width - M.right, t0, t1, bg: css['--cv-bg'] || '#fff', neutral: css['--neutral-node'] || '#8a9099' };
      const hiddenKey = [...hidden].sort().join(',');
      const canvasKey = `${layoutKey}|${hiddenKey}|${geo.bg}|${geo.neutral}|${window.devicePixelRatio}`;
      const wall = performance.now();
      if (settled.current.due(canvasKey, ix, wall)) {
        const sctx = fitCanvas(settledCanvas, width, height);
        if (sctx) settled.current.update(sctx, canvasKey, geo, ix, hidden, wall);
      }
      const unflushed = settled.current.unflushed(geo, ix, hidden);
      if (liveRef.current) paintOffscreen(liveRef.current, liveFrameFor(liveRef.current, geo, unflushed, tEnd, ix.kinds));
      else drawUnflushed(front.select<SVGGElement>('g.cv-layer-live'), geo, unflushed, tEnd, `live-clip-${uid}`, ix.kinds);
      // The veil's frame is built only when it would paint differently (its edge moves about
      // thirty times a second; most frames it stands still), as the element's transform is written.
      const fg = css.color || '#1b1f24';
      const veilKey = `${veilX}|${cursor === null}|${layoutKey}|${geo.bg}|${geo.neutral}|${fg}|${window.devicePixelRatio}`;
      if (veilEl instanceof HTMLCanvasElement && veilKey !== veilDrawn.current) {
        veilDrawn.current = veilKey;
        const veil: Veil = { x: veilX, ...bandY(f), lanes: ids.map((id) => ({ y: yOf.get(id)!, colour: colourOf(id) })), edge: cursor === null, fg };
        paintOffscreen(veilEl, veilPaintFrame(veil, geo));
      }

      // ---- version numbers where there is room (≥ LABEL_GAP_PX apart on a lane), appended -------
      const labelLayer = front.select<SVGGElement>('g.cv-layer-labels');
      const lk = `${layoutKey}|${laneH >= 22}`;
      const ld = labelsDone.current;
      if (ld.key !== lk) {
        labelLayer.selectAll('*').remove();
        labelsDone.current = { key: lk, read: firstAtOrAfter(ix.versions, t0, (m) => m.t), lastX: new Map() };
      }
      const lab = labelsDone.current;
      for (; lab.read < ix.versions.length; lab.read++) {
        const m = ix.versions[lab.read];
        const y = yOf.get(m.node);
        if (laneH < 22 || y === undefined || m.t > t1) continue;
        const px = x(m.t);
        if (px - (lab.lastX.get(m.node) ?? -Infinity) < LABEL_GAP_PX) continue;
        lab.lastX.set(m.node, px);
        labelLayer
          .append('text')
          .attr('class', 'cv-mark-label cv-num')
          .attr('x', px)
          .attr('y', y - MARK_R - 3)
          .text(m.version);
      }

      // ---- protocol notes: elections, ISR changes, mode switches, merges (typed notes, in words) ----
      const allNotes = keyNotes(ix);
      const notesKey = `${layoutKey}|${allNotes.length}|${laneH}`;
      const notes = notesKey === notesFor.current ? null : allNotes.filter((n) => n.t >= t0 && n.t <= tEnd && (n.node === undefined || yOf.has(n.node)));
      notesFor.current = notesKey;
      if (notes) {
        const noteY = (n: NoteEvent): number => (n.node !== undefined ? yOf.get(n.node)! - Math.min(9, laneH * 0.38) : M.top - 12);
        const noteSel = front
          .select<SVGGElement>('g.cv-layer-notes')
          .selectAll<SVGGElement, NoteEvent>('g')
          .data(notes, (n) => `${n.what}@${n.t}:${n.node ?? ''}`)
          .join((enter) => {
            const g = enter.append('g').attr('class', (n) => `cv-note note-${n.what}`);
            g.append('path').attr('d', 'M0,-4L4,0L0,4L-4,0Z');
            g.append('text').attr('class', 'cv-note-label cv-num').attr('x', 5).attr('dy', '0.35em');
            g.append('title');
            return g;
          });
        noteSel.attr('transform', (n) => `translate(${x(n.t)},${noteY(n)})`);
        // A crown and the term for an election: it reads in both languages and says who leads from when.
        noteSel.select('text').text((n) => (n.what === 'leaderElected' && laneH >= 16 ? `♛${n.data.term}` : ''));
        noteSel.select('title').text((n) => `${(n.t / 1000).toFixed(3)} s · ${noteText(n, lang, sim.scenario)}`);
      }

      drawBranches(front.select('g.cv-layer-branches'), p.marks ?? [], f);
      drawCursor(front.select('g.cv-layer-cursor'), front.select('rect.cv-veil'), cursor, f);
      sliderValue(frontRef.current!, now, cursor, lang);
      setKindCount(ix.kinds.length);
    }),
    [sim, ix, frame, size, fs, lang, cursor, hidden, p.marks, css, uid],
    p.frames,
    // A frame that moves the run's edge less than a pixel changes nothing one can see: at speed 1
    // the edge moves 0.4–0.7 px a frame, and every frame redrew and repainted the whole diagram.
    () => drawnAt.current !== null && Math.abs(sim.now() - drawnAt.current.now) * drawnAt.current.pxPerMs < 1,
  );

  // Keyboard scrubbing (the drawing is a slider over simulated time): ←/→ 0.1 s, PageUp/PageDown
  // or Shift+arrows 1 s, Home the start, End back to live. Handled here, so → never steps the run.
  const onKey = (e: ReactKeyboardEvent<SVGSVGElement>): void => {
    const now = sim.now();
    const at = cursor ?? now;
    const step = ({ ArrowLeft: -100, ArrowDown: -100, ArrowRight: 100, ArrowUp: 100, PageDown: -1000, PageUp: 1000 } as Record<string, number>)[e.key];
    let next: number | null;
    if (step !== undefined) next = Math.max(0, at + step * (e.shiftKey && Math.abs(step) === 100 ? 10 : 1));
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = null;
    else return;
    e.preventDefault();
    e.stopPropagation();
    p.onScrub(next !== null && next >= now ? null : next);
  };

  return (
    <div className="cv-view cv-timeline" ref={wrapRef} title={vs(lang, 'scrubHint')}>
      <svg ref={backRef} className="cv-svg" aria-hidden="true" />
      {liveOnCanvas ? (
        <canvas ref={veilRef as RefObject<HTMLCanvasElement | null>} className="cv-veil-layer" aria-hidden="true" />
      ) : (
        <div className="cv-future-clip" ref={veilClipRef} aria-hidden="true">
          <div className="cv-future" ref={veilRef as RefObject<HTMLDivElement | null>}>
            <svg>
              <g ref={veilLanesRef} />
            </svg>
          </div>
        </div>
      )}
      <canvas ref={settledRef} />
      {liveOnCanvas && <canvas ref={liveRef} className="cv-live-layer" />}
      <svg
        ref={frontRef}
        className="cv-svg"
        role="slider"
        tabIndex={0}
        aria-label={vs(lang, 'timeline')}
        aria-valuemin={0}
        aria-describedby={`${uid}-keys`}
        onKeyDown={onKey}
      />
      <span id={`${uid}-keys`} className="visually-hidden">
        {vs(lang, 'timelineKeys')}
      </span>
      <KindLegend kinds={kinds} hidden={hidden} lang={lang} onToggle={toggle} />
      {cursor !== null && (
        <button type="button" className="cv-live" onClick={() => p.onScrub(null)}>
          ▶ {vs(lang, 'live')}
        </button>
      )}
    </div>
  );
}

/**
 * The slider's value, set where it changed. Following the run it moves in 0.1 s steps (what its
 * text says): an attribute rewritten every frame would update the accessibility tree sixty times
 * a second.
 */
function sliderValue(el: SVGSVGElement, now: number, cursor: number | null, lang: Lang): void {
  const live = Math.floor(now / 100) * 100;
  const at = cursor ?? now;
  const values = {
    'aria-valuemax': String(cursor === null ? live : Math.round(now)),
    'aria-valuenow': String(cursor === null ? live : Math.round(at)),
    'aria-valuetext': `t=${(at / 1000).toFixed(1)} s${cursor === null ? ` (${vs(lang, 'live')})` : ''}`,
  };
  for (const [k, v] of Object.entries(values)) if (el.getAttribute(k) !== v) el.setAttribute(k, v);
}

/**
 * The kinds' checkboxes, outside the per-frame render: React re-applies an input's `type` and
 * `name` on every update, and the timeline renders every frame.
 */
const KindLegend = memo(function KindLegend(p: { kinds: readonly string[]; hidden: ReadonlySet<string>; lang: Lang; onToggle(kind: string): void }): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  useScrollEdges(ref, [p.kinds, p.lang]);
  return (
    <div className="cv-kinds cv-kinds-top" ref={ref}>
      {p.kinds.map((k) => (
        <label key={k}>
          <input type="checkbox" checked={!p.hidden.has(k)} onChange={() => p.onToggle(k)} />
          {/* The arrows' colour and dash, as the diagram draws them. */}
          <svg className="cv-swatch" viewBox="0 0 18 4" aria-hidden="true">
            <line x1={0} y1={2} x2={18} y2={2} stroke={kindColour(k)} strokeWidth={3} strokeDasharray={kindDash(p.kinds, k).join(' ') || undefined} />
          </svg>
          {kindName(k, p.lang)}
        </label>
      ))}
    </div>
  );
});
