import type { NodeId } from '../../sim/types';
import { byNodeOrder, type Pt, type TopologyLayout } from './layoutBasics';

/**
 * The topology's drawing math beside its layout: click targets, the id's type size, directed link
 * segments, where a message in flight is, the groups a drag-and-drop describes, text colour on a
 * fill, and a partition's hull. Pure; no DOM; unit-tested (geometry.test.ts).
 */

type Rect = { x: number; y: number; width: number; height: number };

/**
 * A node's click target, centred on its glyph, from its extent (glyph and labels, nodeHitBox).
 * Servers in a cluster sit close together: theirs is the glyph alone. Workers stacked in a column
 * are closer than their boxes are tall: a box never reaches past half the gap to the next row, so
 * neighbouring boxes never overlap. And no box ever covers another node's centre, where a click
 * on that node lands: it shrinks on the axis along which that node is farther off.
 */
export function nodeHitRect(lay: TopologyLayout, id: NodeId, isWorker: boolean, extent: Rect): Rect {
  const R = lay.nodeR;
  const inColumn = lay.side.has(id);
  let halfW = !isWorker && inColumn ? R + 8 : extent.width / 2;
  let halfH = !isWorker && inColumn ? R + 8 : extent.height / 2;
  if (isWorker && inColumn) halfH = Math.min(halfH, lay.rowGap / 2 - 0.5);
  const p = lay.pos.get(id);
  // forEach, not for…of with [key, value]: that made an entry array per pair, for every node
  // redrawn on every frame (4 MB in 8 s at 16 workers).
  if (p) {
    lay.pos.forEach((q, other) => {
      if (other === id) return;
      const ex = Math.abs(q.x - p.x);
      const ey = Math.abs(q.y - p.y);
      if (ex >= halfW || ey >= halfH) return;
      if (ey >= ex) halfH = Math.min(halfH, ey / 2);
      else halfW = Math.min(halfW, ex / 2);
    });
  }
  return { x: -halfW, y: -halfH, width: 2 * halfW, height: 2 * halfH };
}

/**
 * Type size of the id inside a glyph of radius r: 12 px (up to 16 on big glyphs), smaller only
 * where the longest id would not fit the glyph (bold, about 0.7 em a character).
 */
export function idFontPx(r: number, chars: number): number {
  return Math.min(16, Math.max(r * 0.6, Math.min(12, (2 * r - 2) / (0.7 * Math.max(1, chars)))));
}

export interface LinkPair<L> {
  key: string;
  a: NodeId;
  b: NodeId;
  ab?: L;
  ba?: L;
}

/** Directed links grouped by undirected pair (a < b in node order), in a stable order. */
export function pairLinks<L extends { from: NodeId; to: NodeId }>(links: readonly L[]): LinkPair<L>[] {
  const m = new Map<string, LinkPair<L>>();
  for (const l of links) {
    const [a, b] = byNodeOrder(l.from, l.to) <= 0 ? [l.from, l.to] : [l.to, l.from];
    const key = `${a}|${b}`;
    let p = m.get(key);
    if (!p) {
      p = { key, a, b };
      m.set(key, p);
    }
    if (l.from === a) p.ab = l;
    else p.ba = l;
  }
  return [...m.values()].sort((x, y) => byNodeOrder(x.a, y.a) || byNodeOrder(x.b, y.b));
}

/**
 * The drawn segment of a directed link: shifted sideways by `offset` (to the right of travel,
 * so the two directions of one edge sit side by side) and trimmed by `trim` at both ends so it
 * starts and ends at the node glyphs' edges.
 */
export function directedSegment(p: Pt, q: Pt, offset: number, trim: number): { x1: number; y1: number; x2: number; y2: number } {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  // Right-hand normal in screen coordinates (y down).
  const nx = -uy;
  const ny = ux;
  const t = Math.min(trim, len / 2 - 1);
  return {
    x1: p.x + ux * t + nx * offset,
    y1: p.y + uy * t + ny * offset,
    x2: q.x - ux * t + nx * offset,
    y2: q.y - uy * t + ny * offset,
  };
}

/** Fraction of the way from sender to receiver at time t, clamped to [0, 1]. */
export function flightFraction(t: number, sentAt: number, due: number): number {
  if (!(due > sentAt)) return t >= due ? 1 : 0;
  return Math.min(1, Math.max(0, (t - sentAt) / (due - sentAt)));
}

export function lerpSeg(s: { x1: number; y1: number; x2: number; y2: number }, f: number): Pt {
  return { x: s.x1 + (s.x2 - s.x1) * f, y: s.y1 + (s.y2 - s.y1) * f };
}

/**
 * Drag-to-partition: after dropping `dragged` at `drop`, split the nodes by the vertical centre
 * line (every other node at its home position). Nodes on the line (servers in the centre) go with
 * the side the node was dropped on: the dragged worker joins the servers' group and the side it
 * left is cut off from them. Returns null when one side is empty (nothing to partition).
 */
export function groupsFromDrop(home: ReadonlyMap<NodeId, Pt>, dragged: NodeId, drop: Pt, cx: number, eps = 1): NodeId[][] | null {
  const dropSide = drop.x < cx ? 'L' : 'R';
  const left: NodeId[] = [];
  const right: NodeId[] = [];
  const ids = [...home.keys()].sort(byNodeOrder);
  for (const id of ids) {
    const p = id === dragged ? drop : home.get(id)!;
    const side = Math.abs(p.x - cx) <= eps ? dropSide : p.x < cx ? 'L' : 'R';
    (side === 'L' ? left : right).push(id);
  }
  if (left.length === 0 || right.length === 0) return null;
  // The group holding w0 first, so the same drag gives the same action text every time.
  return left.includes(ids[0]) ? [left, right] : [right, left];
}

/** Relative luminance test: dark text on light fills, light text on dark fills. */
export function textOn(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return '#111';
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const L = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return L > 0.22 ? '#111' : '#fff';
}

/** Points of a padded-hull outline for a group (1, 2 or more points), for partition shading. */
export function hullPath(points: readonly Pt[]): string {
  if (points.length === 0) return '';
  if (points.length === 1) {
    const p = points[0];
    return `M${p.x},${p.y}Z`;
  }
  const hull = convexHull(points);
  return `M${hull.map((p) => `${p.x},${p.y}`).join('L')}Z`;
}

/** Andrew's monotone chain; collinear points collapse to the two extremes. */
export function convexHull(points: readonly Pt[]): Pt[] {
  const pts = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (pts.length < 3) return pts;
  const cross = (o: Pt, a: Pt, b: Pt): number => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Pt[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Pt[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}
