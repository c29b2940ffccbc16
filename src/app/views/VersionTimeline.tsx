import { useEffect, useId, useRef, useState, type JSX, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import * as d3 from 'd3';
import './d3quiet';
import type { NodeId } from '../../sim/types';
import type { Lang } from '../i18n/lang';
import { colourOf, kindColour } from '../palette';
import type { NoteEvent } from '../../engine/index/runIndex';
import { firstAtOrAfter } from '../../engine/index/series';
import { noteText } from '../words/noteWords';
import { fitCanvas, timed, useCssValues, useFontSize, useSize, useTheme } from './hooks';
import { SettledLayer } from './timelineCanvas';
import { drawUnflushed } from './timelineLive';
import type { Simulation } from '../../engine/simulation';
import { indexOf, staticOf } from './runView';
import { kindName, vs } from './strings';
import { keyNotes, laneOrder, laneStretches, pausedStretches, timeDomain } from './timelineModel';
import './views.css';

export interface VersionTimelineProps {
  sim: Simulation;
  t: number;
  frame: number;
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
  const { sim, t, frame, lang, cursor } = p;
  const wrapRef = useRef<HTMLDivElement>(null);
  const backRef = useRef<SVGSVGElement>(null);
  const settledRef = useRef<HTMLCanvasElement>(null);
  const frontRef = useRef<SVGSVGElement>(null);
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const size = useSize(wrapRef);
  // The axis and the legend under it grow with the type (18 px root at 1920): keep them apart.
  const fs = useFontSize(wrapRef, size, 14);
  const theme = useTheme();
  const css = useCssValues(wrapRef, ['--cv-bg', '--neutral-node'], [size.width, size.height, theme]);
  // Finished messages and version marks, drawn once each (timelineCanvas.ts).
  const settled = useRef(new SettledLayer());
  // Version labels written so far (incremental, like the marks): per lane, the last one's x.
  const labelsDone = useRef<{ key: string; read: number; lastX: Map<NodeId, number> }>({ key: '', read: 0, lastX: new Map() });
  // What the notes and lane labels were last drawn for.
  const notesFor = useRef('');
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const onScrub = useRef(p.onScrub);
  useEffect(() => {
    onScrub.current = p.onScrub;
  });
  // What the marks layer was last laid out for: marks are repositioned only when this changes.
  const placedFor = useRef('');
  const xRef = useRef<d3.ScaleLinear<number, number> | null>(null);

  const ix = indexOf(sim);
  const kinds = ix.kinds;

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

  useEffect(() =>
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
      const tCur = Math.min(t, tEnd);
      // Marks and the axis are repositioned only when the scales change (size, window, lanes).
      const layoutKey = `${width}x${height}|${t0}-${t1}|${ids.join(',')}|${lang}|${fs}`;
      const relayout = layoutKey !== placedFor.current;
      placedFor.current = layoutKey;

      const back = d3.select(backRef.current!).attr('viewBox', `0 0 ${width} ${height}`);
      const front = d3.select(frontRef.current!).attr('viewBox', `0 0 ${width} ${height}`);
      front.select('rect.cv-bg').attr('width', width).attr('height', height);

      // ---- partition periods and cuts -----------------------------------------------------------
      const periods = ix.partitions
        .filter((q) => q.start <= tEnd && (q.end ?? Infinity) >= t0)
        .map((q) => ({ key: String(q.start), x0: x(Math.max(q.start, t0)), x1: x(Math.min(q.end ?? tEnd, tEnd)) }));
      const per = back
        .select('g.cv-layer-periods')
        .selectAll<SVGGElement, (typeof periods)[number]>('g')
        .data(periods, (d) => d.key)
        .join((enter) => {
          const g = enter.append('g');
          g.append('rect').attr('class', 'cv-period');
          g.append('text').attr('class', 'cv-period-label');
          return g;
        });
      per
        .select('rect')
        .attr('x', (d) => d.x0)
        .attr('width', (d) => Math.max(1, d.x1 - d.x0))
        .attr('y', M.top - 4)
        .attr('height', height - M.top - M.bottom + 8);
      per
        .select('text')
        .attr('x', (d) => d.x0 + 4)
        .attr('y', M.top - 8)
        .text((d) => (d.x1 - d.x0 > 50 ? vs(lang, 'partition') : ''));

      const cuts = ix.cuts
        .filter((c) => c.start >= t0 && c.start <= tEnd && yOf.has(c.from) && yOf.has(c.to) && c.from < c.to)
        .map((c) => ({ key: `${c.from}>${c.to}@${c.start}`, x: x(c.start), y0: yOf.get(c.from)!, y1: yOf.get(c.to)! }));
      const cutSel = front
        .select('g.cv-layer-cuts')
        .selectAll<SVGGElement, (typeof cuts)[number]>('g')
        .data(cuts, (d) => d.key)
        .join((enter) => {
          const g = enter.append('g');
          g.append('line').attr('class', 'cv-cut-mark');
          g.append('text').attr('class', 'cv-cut-glyph').text('✂');
          return g;
        });
      cutSel
        .select('line')
        .attr('x1', (d) => d.x)
        .attr('x2', (d) => d.x)
        .attr('y1', (d) => Math.min(d.y0, d.y1))
        .attr('y2', (d) => Math.max(d.y0, d.y1));
      cutSel
        .select('text')
        .attr('x', (d) => d.x)
        .attr('y', (d) => (d.y0 + d.y1) / 2)
        .attr('dy', '0.35em');

      // ---- lanes: coloured while up, grey dashed while down; faint ahead of t --------------------
      const lanes = ids.flatMap((id) =>
        laneStretches(ix.downs.get(id), t0, tEnd).map((s) => ({ key: `${id}@${s.start}`, id, ...s })),
      );
      back
        .select('g.cv-layer-lanes')
        .selectAll<SVGLineElement, (typeof lanes)[number]>('line.cv-lane')
        .data(lanes, (d) => d.key)
        .join('line')
        .attr('class', (d) => `cv-lane${d.up ? '' : ' down'}`)
        .attr('stroke', (d) => (d.up ? colourOf(d.id) : null))
        .attr('x1', (d) => x(d.start))
        .attr('x2', (d) => x(d.end))
        .attr('y1', (d) => yOf.get(d.id)!)
        .attr('y2', (d) => yOf.get(d.id)!);
      // Paused (a GC pause): a thick hollow band over the lane — up, but handling nothing.
      const pauses = ids.flatMap((id) => pausedStretches(ix.pauses.get(id), t0, tEnd).map((s) => ({ key: `${id}@${s.start}`, id, ...s })));
      back
        .select('g.cv-layer-lanes')
        .selectAll<SVGRectElement, (typeof pauses)[number]>('rect.cv-lane-paused')
        .data(pauses, (d) => d.key)
        .join('rect')
        .attr('class', 'cv-lane-paused')
        .attr('stroke', (d) => colourOf(d.id))
        .attr('x', (d) => x(d.start))
        .attr('width', (d) => Math.max(1, x(d.end) - x(d.start)))
        .attr('y', (d) => yOf.get(d.id)! - 4)
        .attr('height', 8);
      const labels = front
        .select('g.cv-layer-lanelabels')
        .selectAll<SVGGElement, NodeId>('g')
        .data(ids, (d) => d)
        .join((enter) => {
          const g = enter.append('g');
          g.append('line').attr('class', 'cv-lane-future').attr('stroke-width', 1).attr('stroke-opacity', 0.18);
          g.append('text').attr('class', 'cv-lane-label');
          return g;
        });
      labels
        .select('line')
        .attr('stroke', (d) => colourOf(d))
        .attr('x1', x(tEnd))
        .attr('x2', width - M.right)
        .attr('y1', (d) => yOf.get(d)!)
        .attr('y2', (d) => yOf.get(d)!);
      labels
        .select('text')
        // Many thin lanes (16 workers): the smallest size the design allows, so labels never touch.
        .style('font-size', () => (laneH < 14.5 ? '12px' : null))
        .attr('x', M.left - 6)
        .attr('y', (d) => yOf.get(d)!)
        // Lanes thinner than a 12 px label (21 lanes in a short panel): every k-th lane named.
        .text((d, i) => (i % Math.max(1, Math.ceil(12 / laneH)) === 0 ? d : ''));

      // ---- axis ---------------------------------------------------------------------------------
      if (relayout) {
        back
          .select<SVGGElement>('g.cv-layer-axis')
          .attr('class', 'cv-layer-axis cv-axis')
          .attr('transform', `translate(0,${height - M.bottom + 4})`)
          .call(
            d3
              .axisBottom(x)
              .ticks(Math.max(2, Math.floor(width / 90)))
              .tickSizeOuter(0)
              .tickFormat((v) => `${(+v / 1000).toFixed(t1 - t0 < 5000 ? 1 : 0)} s`),
          );
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
      drawUnflushed(front.select<SVGGElement>('g.cv-layer-live'), geo, settled.current.unflushed(geo, ix, hidden), tEnd, `live-clip-${uid}`);

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

      // ---- branch points (a forked run) -----------------------------------------------------------
      const br = front
        .select('g.cv-layer-branches')
        .selectAll<SVGGElement, { t: number; label: string }>('g')
        .data((p.marks ?? []).filter((m) => m.t >= t0 && m.t <= t1), (d) => String(d.t))
        .join((enter) => {
          const g = enter.append('g').attr('class', 'cv-branch').attr('data-testid', 'timeline-branch');
          g.append('line').attr('class', 'cv-branch-line');
          g.append('text').attr('class', 'cv-branch-label');
          return g;
        });
      br.attr('data-t', (d) => d.t);
      br.select('line').attr('x1', (d) => x(d.t)).attr('x2', (d) => x(d.t)).attr('y1', M.top - 6).attr('y2', height - M.bottom + 2);
      br.select('text').attr('x', (d) => x(d.t) + 3).attr('y', height - M.bottom - 2).text((d) => d.label);

      // ---- cursor ---------------------------------------------------------------------------------
      const cur = front
        .select('g.cv-layer-cursor')
        .selectAll<SVGGElement, number>('g')
        .data([tCur])
        .join((enter) => {
          const g = enter.append('g');
          g.append('line').attr('class', 'cv-cursor');
          g.append('text').attr('class', 'cv-cursor-label cv-num');
          return g;
        });
      cur
        .select('line')
        .attr('x1', x(tCur))
        .attr('x2', x(tCur))
        .attr('y1', M.top - 6)
        .attr('y2', height - M.bottom + 2);
      cur
        .select('text')
        .attr('x', Math.min(width - M.right - 24, Math.max(M.left + 24, x(tCur))))
        .attr('y', 12)
        .text(cursor === null ? '' : `t=${(tCur / 1000).toFixed(2)} s`);
      front
        .select('rect.cv-veil')
        .style('display', cursor === null ? 'none' : 'inline')
        .attr('x', x(tCur))
        .attr('width', Math.max(0, x(tEnd) - x(tCur)))
        .attr('y', M.top - 6)
        .attr('height', height - M.top - M.bottom + 8);
    }), [sim, ix, t, frame, size, fs, lang, cursor, hidden, p.marks, css, uid]);

  // Keyboard scrubbing (the drawing is a slider over simulated time): ←/→ 0.1 s, PageUp/PageDown
  // or Shift+arrows 1 s, Home the start, End back to live. Handled here, so → never steps the run.
  const now = sim.now();
  const at = cursor ?? now;
  const onKey = (e: ReactKeyboardEvent<SVGSVGElement>): void => {
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

  const toggle = (kind: string): void =>
    setHidden((h) => {
      const n = new Set(h);
      if (n.has(kind)) n.delete(kind);
      else n.add(kind);
      return n;
    });

  return (
    <div className="cv-view cv-timeline" ref={wrapRef} title={vs(lang, 'scrubHint')}>
      <svg ref={backRef} className="cv-svg" aria-hidden="true" />
      <canvas ref={settledRef} />
      <svg
        ref={frontRef}
        className="cv-svg"
        role="slider"
        tabIndex={0}
        aria-label={vs(lang, 'timeline')}
        aria-valuemin={0}
        aria-valuemax={Math.round(now)}
        aria-valuenow={Math.round(at)}
        aria-valuetext={`t=${(at / 1000).toFixed(1)} s${cursor === null ? ` (${vs(lang, 'live')})` : ''}`}
        aria-describedby={`${uid}-keys`}
        onKeyDown={onKey}
      />
      <span id={`${uid}-keys`} className="visually-hidden">
        {vs(lang, 'timelineKeys')}
      </span>
      <div className="cv-kinds cv-kinds-top">
        {kinds.map((k) => (
          <label key={k}>
            <input type="checkbox" checked={!hidden.has(k)} onChange={() => toggle(k)} />
            <span className="cv-swatch" style={{ background: kindColour(k) }} />
            {kindName(k, lang)}
          </label>
        ))}
      </div>
      {cursor !== null && (
        <button type="button" className="cv-live" onClick={() => p.onScrub(null)}>
          ▶ {vs(lang, 'live')}
        </button>
      )}
    </div>
  );
}
