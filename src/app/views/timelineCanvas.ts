import type { MessageSpan, RunIndex, VersionMark } from '../../engine/index/runIndex';
import { firstAtOrAfter } from '../../engine/index/series';
import type { NodeId } from '../../sim/types';
import { colourOf, kindColour, kindDash } from '../palette';

/**
 * The time-space diagram's dense marks on two canvases. Thousands of messages and version marks
 * accumulate over a run, but once a message has been delivered or dropped, and once a version
 * mark exists, it never changes: those go on the *settled* canvas, drawn once each as they
 * settle (appends, not a redraw of everything), and at most every SETTLE_MS of wall time: a
 * canvas that changes is copied to the compositor whole, every frame it changes. What has not
 * been appended yet — messages on the wire, and those that landed and marks made since the last
 * append — is drawn each frame as a few SVG paths (`unflushed`), which repaint only where they
 * are. The settled canvas is redrawn whole only when the geometry changes (size, time window,
 * lanes, hidden kinds, theme).
 */

export interface TimelineGeometry {
  x: (t: number) => number;
  yOf: ReadonlyMap<NodeId, number>;
  width: number;
  height: number;
  /** The plot area's left and right edges (messages are clipped to it). */
  left: number;
  right: number;
  t0: number;
  t1: number;
  /** Colours the canvas cannot read from CSS by itself. */
  bg: string;
  neutral: string;
}

/** Longest flight looked back for (messages sent before the window that land in it). */
const LOOKBACK_MS = 5_000;
export const MARK_R = 3.5;
/** Above this many messages in the window the arrows are drawn fainter (one redraw when crossed). */
const DENSE = 2000;
/** Wall ms between appends to the settled canvas while a run goes. */
export const SETTLE_MS = 100;

/** What the settled canvas does not show yet: drawn each frame by the view, not on the canvas. */
export interface Unflushed {
  flying: MessageSpan[];
  landed: MessageSpan[];
  marks: VersionMark[];
}

/** A path to trace arrows into: a canvas context or a d3 path (SVG). */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
}

export class SettledLayer {
  private key = '';
  private ix: RunIndex | null = null;
  /** Message rows i < msgRead have been seen: drawn, hidden, or waiting in `pending` (rows). */
  private msgRead = 0;
  private pending: number[] = [];
  private marksRead = 0;
  private count = 0;
  private dense = false;
  private lastFlush = -Infinity;

  /** Whether update() would start over (the geometry or the run changed). */
  stale(key: string, ix: RunIndex): boolean {
    return key !== this.key || ix !== this.ix;
  }

  /** Whether the settled canvas should take what settled now: on a new geometry, or SETTLE_MS after the last append. */
  due(key: string, ix: RunIndex, wall: number): boolean {
    return this.stale(key, ix) || wall - this.lastFlush >= SETTLE_MS;
  }

  /** Whether message row `r` belongs on this picture (in the window, a shown kind, both lanes). */
  private shows(ix: RunIndex, r: number, g: TimelineGeometry, hidden: ReadonlySet<string>): boolean {
    const msgs = ix.messages;
    if (hidden.has(msgs.kind(r))) return false;
    const end = msgs.end(r);
    if (end !== null && end < g.t0) return false;
    const m = msgs.get(r);
    return g.yOf.has(m.from) && g.yOf.has(m.to);
  }

  /**
   * What the canvas does not show yet (read-only): messages still on the wire, messages that
   * landed since the last append, and version marks made since. Call after update().
   */
  unflushed(g: TimelineGeometry, ix: RunIndex, hidden: ReadonlySet<string>): Unflushed {
    const out: Unflushed = { flying: [], landed: [], marks: [] };
    if (ix !== this.ix) return out;
    const msgs = ix.messages;
    const take = (r: number): void => void (msgs.end(r) === null ? out.flying : out.landed).push(msgs.get(r));
    for (const r of this.pending) take(r);
    for (let r = this.msgRead; r < msgs.length && msgs.sentAt(r) <= g.t1; r++) if (this.shows(ix, r, g, hidden)) take(r);
    for (let i = this.marksRead; i < ix.versions.length && ix.versions[i].t <= g.t1; i++) if (g.yOf.has(ix.versions[i].node)) out.marks.push(ix.versions[i]);
    return out;
  }


  /**
   * Brings the settled canvas up to date with the index: a full redraw when `key` (the geometry)
   * or the index changed, else only what settled since the last call.
   */
  update(ctx: CanvasRenderingContext2D, key: string, g: TimelineGeometry, ix: RunIndex, hidden: ReadonlySet<string>, wall = 0): void {
    this.lastFlush = wall;
    const full = key !== this.key || ix !== this.ix;
    if (full) {
      this.key = key;
      this.ix = ix;
      this.pending = [];
      this.count = 0;
      this.msgRead = ix.messages.firstSentAtOrAfter(g.t0 - LOOKBACK_MS);
      this.marksRead = firstAtOrAfter(ix.versions, g.t0, (m) => m.t);
      ctx.clearRect(0, 0, g.width, g.height);
    }
    ctx.save();
    ctx.beginPath();
    ctx.rect(g.left, 0, g.right - g.left, g.height);
    ctx.clip();
    // Messages: new ones, then those that were in flight and have landed since.
    const fresh: MessageSpan[] = [];
    const msgs = ix.messages;
    for (; this.msgRead < msgs.length; this.msgRead++) {
      const r = this.msgRead;
      if (msgs.sentAt(r) > g.t1) break;
      if (!this.shows(ix, r, g, hidden)) continue;
      this.count++;
      if (msgs.end(r) === null) this.pending.push(r);
      else fresh.push(msgs.get(r));
    }
    if (this.pending.length > 0) {
      const still: number[] = [];
      for (const r of this.pending) {
        if (msgs.end(r) === null) still.push(r);
        else fresh.push(msgs.get(r));
      }
      this.pending = still;
    }
    const dense = this.count > DENSE;
    if (dense !== this.dense && !full) {
      // Crossing the density threshold changes every arrow's alpha: start over.
      this.dense = dense;
      ctx.restore();
      this.key = '';
      this.update(ctx, key, g, ix, hidden, wall);
      return;
    }
    this.dense = dense;
    drawMessages(ctx, g, fresh, dense ? 0.35 : 0.6, ix.kinds);
    // Version marks (appended in time order).
    const marks = ix.versions;
    ctx.globalAlpha = 1;
    ctx.lineWidth = 1;
    ctx.strokeStyle = g.bg;
    for (; this.marksRead < marks.length; this.marksRead++) {
      const v = marks[this.marksRead];
      if (v.t > g.t1) break;
      const y = g.yOf.get(v.node);
      if (y === undefined) continue;
      drawMark(ctx, g, v, y);
    }
    ctx.restore();
  }
}

/** A node colour as a canvas can paint it: a server's is a CSS variable, read once into `g.neutral`. */
export function canvasColour(c: string, g: Pick<TimelineGeometry, 'neutral'>): string {
  return c.startsWith('var(') ? g.neutral : c;
}

function drawMark(ctx: CanvasRenderingContext2D, g: TimelineGeometry, v: VersionMark, y: number): void {
  ctx.fillStyle = canvasColour(colourOf(v.node), g);
  ctx.beginPath();
  ctx.arc(g.x(v.t), y, MARK_R, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
}

/** Groups messages by kind (one path per kind: one colour each). */
export function byKind(msgs: readonly MessageSpan[]): Map<string, MessageSpan[]> {
  const out = new Map<string, MessageSpan[]>();
  for (const m of msgs) {
    const list = out.get(m.kind);
    if (list) list.push(m);
    else out.set(m.kind, [m]);
  }
  return out;
}

/**
 * Traces message arrows into `p`. `until` null: finished messages (to their delivery or drop,
 * with an arrowhead; a drop's position goes to `drops` for its ✕); a time: messages in flight,
 * drawn as far as they have got by then.
 */
export function traceArrows(p: PathSink, g: TimelineGeometry, list: readonly MessageSpan[], until: number | null, drops: Array<{ x: number; y: number }>): void {
  for (const m of list) {
    const ya = g.yOf.get(m.from);
    const yb = g.yOf.get(m.to);
    if (ya === undefined || yb === undefined) continue;
    const xa = g.x(m.sentAt);
    if (until !== null) {
      // In flight: the arrow stops where the message is now.
      const f = m.due > m.sentAt ? Math.max(0, Math.min(1, (until - m.sentAt) / (m.due - m.sentAt))) : 1;
      p.moveTo(xa, ya);
      p.lineTo(g.x(until), ya + (yb - ya) * f);
      continue;
    }
    const xb = g.x(m.end!);
    p.moveTo(xa, ya);
    p.lineTo(xb, yb);
    if (m.dropped) drops.push({ x: xb, y: yb });
    else if (xb - xa > 8) {
      // A small arrowhead when the arrow is long enough to carry one.
      const ang = Math.atan2(yb - ya, xb - xa);
      p.moveTo(xb, yb);
      p.lineTo(xb - 5 * Math.cos(ang - 0.45), yb - 5 * Math.sin(ang - 0.45));
      p.moveTo(xb, yb);
      p.lineTo(xb - 5 * Math.cos(ang + 0.45), yb - 5 * Math.sin(ang + 0.45));
    }
  }
}

/** A ✕ at each drop. */
export function traceCrosses(p: PathSink, drops: ReadonlyArray<{ x: number; y: number }>): void {
  for (const d of drops) {
    p.moveTo(d.x - 3.5, d.y - 3.5);
    p.lineTo(d.x + 3.5, d.y + 3.5);
    p.moveTo(d.x + 3.5, d.y - 3.5);
    p.lineTo(d.x - 3.5, d.y + 3.5);
  }
}

/** Finished message arrows on the settled canvas, one path per kind (see traceArrows). */
function drawMessages(ctx: CanvasRenderingContext2D, g: TimelineGeometry, msgs: readonly MessageSpan[], alpha: number, order: readonly string[]): void {
  if (msgs.length === 0) return;
  const kinds = byKind(msgs);
  const drops: Array<{ x: number; y: number; c: string }> = [];
  ctx.lineWidth = 1;
  ctx.globalAlpha = alpha;
  for (const [kind, list] of kinds) {
    const c = kindColour(kind);
    ctx.strokeStyle = c;
    ctx.setLineDash(kindDash(order, kind));
    ctx.beginPath();
    const mine: Array<{ x: number; y: number }> = [];
    traceArrows(ctx, g, list, null, mine);
    ctx.stroke();
    for (const d of mine) drops.push({ ...d, c });
  }
  ctx.setLineDash([]);
  ctx.globalAlpha = 0.9;
  ctx.lineWidth = 1.6;
  for (const d of drops) {
    ctx.strokeStyle = d.c;
    ctx.beginPath();
    traceCrosses(ctx, [d]);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}
