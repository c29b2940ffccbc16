import type { MessageSpan, RunIndex, VersionMark } from '../../engine/index/runIndex';
import { firstAtOrAfter } from '../../engine/index/series';
import type { NodeId } from '../../sim/types';
import { colourOf, kindColour } from '../palette';

/**
 * The time-space diagram's dense marks on two canvases. Thousands of messages and version marks
 * accumulate over a run, but once a message has been delivered or dropped, and once a version
 * mark exists, it never changes: those go on the *settled* canvas, drawn once each as they
 * settle (appends, not a redraw of everything). Only the messages still on the wire are redrawn
 * each frame, on the *live* canvas. The settled canvas is redrawn whole only when the geometry
 * changes (size, time window, lanes, hidden kinds, theme).
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
const MARK_R = 3.5;
/** Above this many messages in the window the arrows are drawn fainter (one redraw when crossed). */
const DENSE = 2000;

export class SettledLayer {
  private key = '';
  private ix: RunIndex | null = null;
  /** Message rows i < msgRead have been seen: drawn, hidden, or waiting in `pending` (rows). */
  private msgRead = 0;
  private pending: number[] = [];
  private marksRead = 0;
  private count = 0;
  private dense = false;

  /** Messages seen but not yet delivered or dropped (the live layer draws them). */
  inFlight(): readonly MessageSpan[] {
    const ms = this.ix?.messages;
    return ms ? this.pending.map((r) => ms.get(r)) : [];
  }

  /**
   * Brings the settled canvas up to date with the index: a full redraw when `key` (the geometry)
   * or the index changed, else only what settled since the last call.
   */
  update(ctx: CanvasRenderingContext2D, key: string, g: TimelineGeometry, ix: RunIndex, hidden: ReadonlySet<string>): void {
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
      if (hidden.has(msgs.kind(r))) continue;
      const end = msgs.end(r);
      if (end !== null && end < g.t0) continue;
      const m = msgs.get(r);
      if (!g.yOf.has(m.from) || !g.yOf.has(m.to)) continue;
      this.count++;
      if (end === null) this.pending.push(r);
      else fresh.push(m);
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
      this.update(ctx, key, g, ix, hidden);
      return;
    }
    this.dense = dense;
    drawMessages(ctx, g, fresh, dense ? 0.35 : 0.6, null);
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

function drawMark(ctx: CanvasRenderingContext2D, g: TimelineGeometry, v: VersionMark, y: number): void {
  const c = colourOf(v.node);
  ctx.fillStyle = c.startsWith('var(') ? g.neutral : c;
  ctx.beginPath();
  ctx.arc(g.x(v.t), y, MARK_R, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
}

/**
 * Message arrows, one path per kind. `until` null: finished messages (to their delivery or drop,
 * with an arrowhead or a ✕); a time: messages in flight, drawn as far as they have got by then.
 */
export function drawMessages(ctx: CanvasRenderingContext2D, g: TimelineGeometry, msgs: readonly MessageSpan[], alpha: number, until: number | null): void {
  if (msgs.length === 0) return;
  const byKind = new Map<string, MessageSpan[]>();
  for (const m of msgs) {
    const list = byKind.get(m.kind);
    if (list) list.push(m);
    else byKind.set(m.kind, [m]);
  }
  const drops: Array<{ x: number; y: number; c: string }> = [];
  ctx.lineWidth = 1;
  ctx.globalAlpha = alpha;
  for (const [kind, list] of byKind) {
    const c = kindColour(kind);
    ctx.strokeStyle = c;
    ctx.beginPath();
    for (const m of list) {
      const ya = g.yOf.get(m.from);
      const yb = g.yOf.get(m.to);
      if (ya === undefined || yb === undefined) continue;
      const xa = g.x(m.sentAt);
      if (until !== null) {
        // In flight: the arrow stops where the message is now.
        const f = m.due > m.sentAt ? Math.max(0, Math.min(1, (until - m.sentAt) / (m.due - m.sentAt))) : 1;
        ctx.moveTo(xa, ya);
        ctx.lineTo(g.x(until), ya + (yb - ya) * f);
        continue;
      }
      const xb = g.x(m.end!);
      ctx.moveTo(xa, ya);
      ctx.lineTo(xb, yb);
      if (m.dropped) drops.push({ x: xb, y: yb, c });
      else if (xb - xa > 8) {
        // A small arrowhead when the arrow is long enough to carry one.
        const ang = Math.atan2(yb - ya, xb - xa);
        ctx.moveTo(xb, yb);
        ctx.lineTo(xb - 5 * Math.cos(ang - 0.45), yb - 5 * Math.sin(ang - 0.45));
        ctx.moveTo(xb, yb);
        ctx.lineTo(xb - 5 * Math.cos(ang + 0.45), yb - 5 * Math.sin(ang + 0.45));
      }
    }
    ctx.stroke();
  }
  ctx.globalAlpha = 0.9;
  ctx.lineWidth = 1.6;
  for (const d of drops) {
    ctx.strokeStyle = d.c;
    ctx.beginPath();
    ctx.moveTo(d.x - 3.5, d.y - 3.5);
    ctx.lineTo(d.x + 3.5, d.y + 3.5);
    ctx.moveTo(d.x + 3.5, d.y - 3.5);
    ctx.lineTo(d.x - 3.5, d.y + 3.5);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}
