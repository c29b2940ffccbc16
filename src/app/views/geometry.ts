import type { NodeId, NodeRole } from '../../sim/types';

/**
 * Pure geometry for the topology view: where nodes sit, how a directed link is drawn, where a
 * message is at time t, and which groups a drag-and-drop describes. No DOM; unit-tested.
 */

export interface Pt {
  x: number;
  y: number;
}

export interface TopologyLayout {
  pos: Map<NodeId, Pt>;
  cx: number;
  cy: number;
  /** Radii of the worker ellipse (a circle when the box is square). */
  rx: number;
  ry: number;
  /** Radius of a node glyph. */
  nodeR: number;
}

/** Numeric part of a node id (w12 → 12), for ring order; ids without one sort last. */
export function nodeIndex(id: NodeId): number {
  const n = Number(id.slice(1));
  return Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
}

export function byNodeOrder(a: NodeId, b: NodeId): number {
  const ra = a[0] === 'w' ? 0 : a[0] === 's' ? 1 : 2;
  const rb = b[0] === 'w' ? 0 : b[0] === 's' ? 1 : 2;
  return ra - rb || nodeIndex(a) - nodeIndex(b);
}

/**
 * Workers on an ellipse in ring order (w0 → w1 → … clockwise, so ring links read as a ring);
 * servers and brokers in the centre. An ellipse rather than a circle because the topology panel
 * is usually wider than tall, and a circle would leave the nodes small and bunched. The ring is
 * rotated by half a step so that, for an even number of workers, no worker sits on the vertical
 * centre line: the left/right halves are then an obvious two-group partition for
 * drag-to-partition (w0, w1 right; w2, w3 left for four).
 */
export function topologyLayout(
  nodes: readonly { id: NodeId; role: NodeRole }[],
  width: number,
  height: number,
  /** Space reserved above the drawing (a hint line). */
  top = 0,
  margin?: { x: number; y: number },
): TopologyLayout {
  const cx = width / 2;
  const cy = top + (height - top) / 2;
  const workers = nodes.filter((n) => n.role === 'worker').map((n) => n.id).sort(byNodeOrder);
  const inner = nodes.filter((n) => n.role !== 'worker').map((n) => n.id).sort(byNodeOrder);
  const count = Math.max(workers.length, 1);
  const angle = (i: number): number => -Math.PI / 2 + ((i + 0.5) * 2 * Math.PI) / count;
  // Labels sit beside side nodes (see labelPlacement): top and bottom need room only when a
  // worker is near the vertical axis and carries its labels above or below.
  const topBottom = workers.some((_, i) => Math.abs(Math.cos(angle(i))) < 0.35);
  const m = margin ?? { x: 84, y: topBottom ? 58 : 38 };
  let ry = Math.max(36, (height - top) / 2 - m.y);
  let rx = Math.max(36, width / 2 - m.x);
  // Keep it recognisably a ring: at most 1.9 : 1 wide, 1.3 : 1 tall.
  rx = Math.min(rx, ry * 1.9);
  ry = Math.min(ry, rx * 1.3);
  const small = Math.min(rx, ry);
  // Glyph size shrinks with crowding on the ring but stays clickable and readable.
  const perimeter = Math.PI * (rx + ry);
  const nodeR = Math.max(14, Math.min(28, small * 0.2, perimeter / count / 4.8));
  const pos = new Map<NodeId, Pt>();
  workers.forEach((id, i) => {
    const a = angle(i);
    pos.set(id, { x: cx + rx * Math.cos(a), y: cy + ry * Math.sin(a) });
  });
  if (inner.length === 1) pos.set(inner[0], { x: cx, y: cy });
  else if (inner.length > 1) {
    // Several servers/brokers sit in a row across the middle (brokers above, PS replicas below
    // when both exist): the ring is wider than tall, and a row leaves each one room for its
    // version and term labels, which a small inner circle of 3–5 servers did not.
    const brokers = inner.filter((id) => id.startsWith('b'));
    const others = inner.filter((id) => !id.startsWith('b'));
    const rows = brokers.length > 0 && others.length > 0 ? [brokers, others] : [inner];
    const dy = Math.min(ry * 0.42, nodeR * 2.6);
    rows.forEach((row, ri) => {
      const y = rows.length === 1 ? cy : cy + (ri === 0 ? -dy : dy * 0.9);
      const span = Math.min(rx * 1.15, (row.length - 1) * nodeR * 5);
      row.forEach((id, i) => {
        const x = row.length === 1 ? cx : cx - span / 2 + (i * span) / (row.length - 1);
        // Five in a row get tight: alternate up and down a little so neighbours' labels clear.
        const zig = row.length >= 5 && rows.length === 1 ? (i % 2 === 0 ? -1 : 1) * nodeR * 0.9 : 0;
        pos.set(id, { x, y: y + zig });
      });
    });
  }
  return { pos, cx, cy, rx, ry, nodeR };
}

/** Baselines are for a 15 px version label and a 12 px backend label under/over it. */
export interface LabelPlacement {
  x: number;
  yVersion: number;
  yBackend: number;
  anchor: 'start' | 'middle' | 'end';
}

/**
 * Where a node's version and backend labels go, relative to the node centre. Side nodes get them
 * beside the glyph (the topology panel is wider than tall, so horizontal room is cheap); nodes at
 * the top get them above, at the bottom and in the centre below.
 */
export function labelPlacement(out: Pt, isWorker: boolean, r: number, withBackend: boolean): LabelPlacement {
  if (isWorker && Math.abs(out.x) >= 0.35) {
    return { x: Math.sign(out.x) * (r + 8), yVersion: withBackend ? -1 : 5, yBackend: 14, anchor: out.x > 0 ? 'start' : 'end' };
  }
  if (isWorker && out.y < 0) return { x: 0, yVersion: -(r + 8), yBackend: -(r + 24), anchor: 'middle' };
  return { x: 0, yVersion: r + 20, yBackend: r + 34, anchor: 'middle' };
}

/**
 * A box around a node's glyph and its labels (text widths estimated: 15 px monospace ≈ 9.3 px a
 * character, 12 px sans ≈ 7 px), symmetric about the glyph's centre so that the box centre — where
 * a click on the node lands — is the glyph itself.
 */
export function nodeHitBox(lp: LabelPlacement, r: number, versionChars: number, backendChars: number): { x: number; y: number; width: number; height: number } {
  const textW = Math.max(versionChars * 9.3, backendChars * 7);
  const pad = r + 8;
  const middle = lp.anchor === 'middle';
  const halfW = middle ? Math.max(pad, textW / 2) : Math.abs(lp.x) + textW;
  const halfH = middle ? Math.max(pad, Math.abs(lp.yVersion) + 4, Math.abs(lp.yBackend) + 4) : Math.max(pad, lp.yBackend + 4);
  return { x: -halfW, y: -halfH, width: 2 * halfW, height: 2 * halfH };
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
