import { Fragment, useEffect, useMemo, useRef, useState, type JSX } from 'react';
import { makeDataset, makeEvalSet, type Bounds, type Dataset } from '../../train/datasets';
import type { Lang } from '../i18n/lang';
import { colourOf } from '../palette';
import { classColours, gridDecision, probColourTable, type GridSlot } from './boundary';
import { measuredWidth, useCssValues, useFontSize, useSize } from './hooks';
import { imageTileWidth, MIN_LABEL_PX, SUB_EM, tileLayout, type CaptionWidths } from './tileLayout';
import type { RunReader } from '../../engine/runReader';
import type { Evaluation } from '../../train/types';
import { indexOf, stateAt } from './runView';
import { vs } from './strings';
import { laneOrder } from './timelineModel';
import { fashionTile, imageDataset } from './fashionTileLoad';
import './views.css';

export interface ReplicaBoundariesProps {
  sim: RunReader;
  t: number;
  frame: number;
  lang: Lang;
}

/** Grid resolution asked of the trainer (40×40 = 1600 forward passes, cheap on any backend). */
const RES = 40;
interface Slot extends GridSlot {
  grid: Float32Array | null;
  /** An image dataset's tile: the evaluation taken with the same snapshot. */
  evaluation: Evaluation | null;
}

/**
 * The caption's widths as the browser draws them (.cv-sub: words in the text face, numbers in
 * monospace; measured once per size and family, textWidth's estimate without a canvas).
 * `versionChars`: the longest version label's length, at least "v1234".
 */
function captionWidths(lang: Lang, fontPx: number, sans: string, mono: string, versionChars: number): CaptionWidths {
  const px = SUB_EM * fontPx;
  // '0.000' and '100%': the widest values; 1 px of slack for sub-pixel rounding.
  const phrase = (word: string, num: string): number => Math.ceil(measuredWidth(`${word} `, px, sans) + measuredWidth(num, px, mono)) + 1;
  const loss = phrase(vs(lang, 'loss'), '0.000');
  const accuracy = phrase(vs(lang, 'accuracy'), '100%');
  const small = (text: string, family: string, weight?: string): number => Math.ceil(measuredWidth(text, MIN_LABEL_PX, family, weight)) + 1;
  const cell = Math.max(small('v'.padEnd(Math.max(5, versionChars), '8'), mono), small('0.000', mono), small('w88', sans, '700'));
  const key = Math.max(small(vs(lang, 'loss'), sans), small(vs(lang, 'accuracy'), sans));
  return { line: loss + accuracy + 0.7 * px, phrase: Math.max(loss, accuracy), cell, key };
}

function paint(canvas: HTMLCanvasElement, grid: Float32Array | null, points: Dataset | null, bounds: Bounds | null, side: number): void {
  const dpr = window.devicePixelRatio || 1;
  const px = Math.round(side * dpr);
  if (canvas.width !== px || canvas.height !== px) {
    canvas.width = px;
    canvas.height = px;
  }
  canvas.style.width = `${side}px`;
  canvas.style.height = `${side}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, px, px);
  if (grid && grid.length === RES * RES) {
    const small = document.createElement('canvas');
    small.width = RES;
    small.height = RES;
    const sctx = small.getContext('2d');
    if (sctx) {
      const img = sctx.createImageData(RES, RES);
      const table = probColourTable();
      for (let i = 0; i < RES * RES; i++) {
        const k = 3 * Math.round(255 * Math.min(1, Math.max(0, grid[i])));
        img.data[4 * i] = table[k];
        img.data[4 * i + 1] = table[k + 1];
        img.data[4 * i + 2] = table[k + 2];
        img.data[4 * i + 3] = 255;
      }
      sctx.putImageData(img, 0, 0);
      // Bilinear upscaling turns the 40×40 cells into a smooth boundary.
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(small, 0, 0, px, px);
    }
  }
  if (points && bounds) {
    const sx = px / (bounds.xMax - bounds.xMin);
    const sy = px / (bounds.yMax - bounds.yMin);
    const r = Math.max(1.5, side / 90) * dpr;
    ctx.lineWidth = 0.8 * dpr;
    ctx.strokeStyle = '#fff';
    for (let i = 0; i < points.n; i++) {
      const x = (points.x[2 * i] - bounds.xMin) * sx;
      const y = (bounds.yMax - points.x[2 * i + 1]) * sy;
      ctx.fillStyle = classColours[points.y[i] > 0.5 ? 1 : 0];
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
  }
}

export function ReplicaBoundaries(p: ReplicaBoundariesProps): JSX.Element {
  const { sim, t, frame, lang } = p;
  const wrapRef = useRef<HTMLDivElement>(null);
  const size = useSize(wrapRef);
  const canvases = useRef(new Map<string, HTMLCanvasElement>());
  const slots = useRef(new Map<string, Slot>());
  const painted = useRef(new WeakMap<HTMLCanvasElement, string>());
  // Bumped when a throttled or finished request wants another look while frames are paused.
  const [tick, setTick] = useState(0);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const model = sim.scenario.model;
  const seed = sim.scenario.seed;
  // Images have no 2-D boundary: their tiles draw the evaluation taken with the snapshot.
  const images = imageDataset(sim.scenario);
  // The training set fixes the region predictGrid renders; the evaluation set is what we plot
  // (fewer points than training, so the boundary stays visible in a small square).
  const { bounds, evalSet } = useMemo(() => {
    if (images) return { bounds: null, evalSet: null };
    try {
      return { bounds: makeDataset(model, seed).bounds, evalSet: makeEvalSet(model, seed) };
    } catch {
      return { bounds: null, evalSet: null };
    }
  }, [model, seed, images]);

  // A new simulation starts with empty panels.
  useEffect(() => {
    slots.current = new Map();
  }, [sim]);

  // Each tile is the replica at t: its version from the history, its boundary from the parameter
  // snapshot the engine took at the newest sample ≤ t (live included: t = now).
  const nodes = stateAt(sim, t).nodes.filter((n) => n.role === 'worker');
  const ordered = laneOrder(nodes.map((n) => n.id)).map((id) => nodes.find((n) => n.id === id)!);
  const fontPx = useFontSize(wrapRef, size, 14);
  const count = Math.max(1, ordered.length);
  // An image tile's caption is as wide as the tile; a square's may be wider (tileLayout).
  const imageWidth = images ? imageTileWidth(count, size.width, fontPx) : 0;
  const css = useCssValues(wrapRef, ['--mono'], [size.width, size.height, fontPx]);
  const versionChars = Math.max(0, ...ordered.map((n) => `v${n.version}`.length));
  const caption = captionWidths(lang, fontPx, css.font, css['--mono'], versionChars);
  const { side, maxWidth, subScale, subWraps, stacked, stackPx, keyWidth, cols } = images
    ? { side: imageWidth, maxWidth: imageWidth, subScale: 1, subWraps: false, stacked: false, stackPx: 0, keyWidth: 0, cols: count }
    : tileLayout(count, size.width, size.height, fontPx, caption);
  const ix = indexOf(sim);
  const sampleAt = (id: string) => {
    const s = ix.samples.get(id);
    return s?.at(s.lastAtOrBefore(t)) ?? null;
  };

  useEffect(() => {
    const wall = performance.now();
    let retry = Infinity;
    for (const n of ordered) {
      let slot = slots.current.get(n.id);
      if (!slot) {
        slot = { have: null, pending: null, lastRequest: -Infinity, grid: null, evaluation: null };
        slots.current.set(n.id, slot);
      }
      const canvas = canvases.current.get(n.id);
      // Repaint only when the picture or the panel size changed (not on every frame).
      const paintKey = `${slot.have}|${side}|${window.devicePixelRatio}`;
      if (!images && canvas && painted.current.get(canvas) !== paintKey) {
        paint(canvas, slot.grid, evalSet, bounds, side);
        painted.current.set(canvas, paintKey);
      }
      // Recompute when the sampled snapshot at t changes (one per sample period, live or scrubbed).
      const snap = sampleAt(n.id);
      const want = snap ? `s${snap.t}` : null;
      if (want === null) continue;
      const d = gridDecision(slot, want, wall);
      if (d === 'no') continue;
      if (typeof d === 'number') {
        retry = Math.min(retry, d);
        continue;
      }
      const s = slot;
      s.pending = want;
      s.lastRequest = wall;
      // The engine's worker answers: a boundary grid from the snapshot, or (images) the evaluation taken with it.
      const asked = images
        ? Promise.resolve(sim.evaluationAt(n.id, snap!.t)).then((e) => {
            if (e) s.evaluation = e;
          })
        : sim.gridAt(n.id, snap!.t, RES).then((grid) => {
            // None yet (no parameters at that sample): keep the last picture.
            if (grid) s.grid = grid;
          });
      asked
        .then(() => {
          s.have = want;
        })
        .catch(() => {
          // A failed worker cannot predict; keep the last picture (the panel is greyed anyway).
          s.have = want;
        })
        .finally(() => {
          s.pending = null;
          if (alive.current) setTick((k) => k + 1);
        });
    }
    if (retry === Infinity) return;
    const timer = setTimeout(() => {
      if (alive.current) setTick((k) => k + 1);
    }, retry + 5);
    return () => clearTimeout(timer);
    // `ordered` derives from (sim, t, frame); listing it would re-run on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sim, t, frame, tick, side, evalSet, bounds, ix, images]);

  return (
    // A focusable group: the tiles scroll when they do not fit, and must scroll by keyboard too.
    <div
      className={`cv-view cv-replicas${stacked ? ' stacked' : ''}`}
      ref={wrapRef}
      role="group"
      tabIndex={0}
      aria-label={vs(lang, 'replicas')}
      style={stacked ? { gridTemplateColumns: `${keyWidth}px repeat(${cols}, minmax(0, 1fr))` } : undefined}
    >
      {ordered.map((n, i) => {
        const s = sampleAt(n.id);
        return (
          <Fragment key={n.id}>
            {stacked && i % cols === 0 && (
              // Each row's first column: the words of the stacked captions' lines, level with them
              // (each tile says them to a screen reader).
              <div className="cv-replica-key" aria-hidden="true" style={{ paddingTop: side + 2, fontSize: `${stackPx}px` }}>
                <span>{'\u00a0'}</span>
                <span>{'\u00a0'}</span>
                <span>{vs(lang, 'loss')}</span>
                <span>{vs(lang, 'accuracy')}</span>
              </div>
            )}
            <figure className={`cv-replica${n.up ? '' : ' down'}${images ? ' images' : ''}`} data-testid={`replica-${n.id}`} style={{ margin: 0, maxWidth }}>
              {images ? (
                <fashionTile.Part evaluation={slots.current.get(n.id)?.evaluation ?? null} lang={lang} size={side} colour={colourOf(n.id)} down={!n.up} fit />
              ) : (
                <canvas
                  ref={(el) => {
                    if (el) canvases.current.set(n.id, el);
                    else canvases.current.delete(n.id);
                  }}
                  style={{ borderColor: colourOf(n.id), width: side, height: side }}
                  title={n.failed ?? undefined}
                />
              )}
              {stacked ? (
                <figcaption className="cv-stack" style={{ fontSize: `${stackPx}px` }}>
                  <b>
                    {n.id}
                    {!n.up && <span title={vs(lang, n.failed !== undefined ? 'failed' : 'crashed')}> ✕</span>}
                  </b>
                  <span className="cv-num">v{n.version}</span>
                  <span>
                    <span className="visually-hidden">{vs(lang, 'loss')} </span>
                    <span className="cv-num">{s ? s.loss.toFixed(3) : '—'}</span>
                  </span>
                  <span>
                    <span className="visually-hidden">{vs(lang, 'accuracy')} </span>
                    <span className="cv-num">{s ? `${(s.accuracy * 100).toFixed(0)}%` : '—'}</span>
                  </span>
                </figcaption>
              ) : (
                <figcaption>
                  <div className="cv-cap">
                    <b>{n.id}</b>
                    <span className="cv-num">v{n.version}</span>
                    {!n.up && <span>✕ {vs(lang, n.failed !== undefined ? 'failed' : 'crashed')}</span>}
                  </div>
                  {/* Two phrases that wrap apart when the tile is narrow (a presenter's type). */}
                  {/* The words in the text face, the numbers in tabular monospace (they change each sample). */}
                  <div className={`cv-sub${subWraps ? ' wraps' : ''}`} style={subScale < 1 ? { fontSize: `${(0.8 * subScale).toFixed(3)}rem` } : undefined}>
                    <span>
                      {vs(lang, 'loss')} <span className="cv-num">{s ? s.loss.toFixed(3) : '—'}</span>
                    </span>
                    <span>
                      {vs(lang, 'accuracy')} <span className="cv-num">{s ? `${(s.accuracy * 100).toFixed(0)}%` : '—'}</span>
                    </span>
                  </div>
                </figcaption>
              )}
            </figure>
          </Fragment>
        );
      })}
    </div>
  );
}
