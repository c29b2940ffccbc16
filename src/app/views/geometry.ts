import type { NodeId, NodeRole } from '../../sim/types';
import { outOf, overlap, placedLabelBox, ringLabelFit, serverLabelFit, type Box as LabelBox, type ServerLabels } from './nodeLabels';

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
  /**
   * Nodes whose labels go beside the glyph on a given side (-1 left, +1 right), whatever their
   * role: set by the cluster layout, where servers carry their labels outwards.
   */
  side: Map<NodeId, -1 | 1>;
  /** Which arrangement was used: a ring of workers (star/ring), or clients around a cluster. */
  kind: 'ring' | 'cluster';
  /**
   * Workers keep only their version label: packed tightly (16 workers), or where their two lines
   * would run into each other or a glyph (ringLabelFit).
   */
  dense: boolean;
  /** Vertical distance between neighbouring workers in a column (cluster layout; Infinity on a ring). */
  rowGap: number;
  /**
   * Nodes drawn without their labels: in a column staggered into sub-columns, only the outer
   * worker has room beside it (the timeline thins its lane names the same way); in a panel too
   * narrow for them, the servers. Their version is still in the tooltip, the aria-label and the
   * node panel.
   */
  unlabelled: ReadonlySet<NodeId>;
  /** Servers that show their version without the term line under it (a narrow panel). */
  termless: ReadonlySet<NodeId>;
  /**
   * On a crowded ring, a worker whose version label could run into an earlier worker's (its
   * rival): drawn only while the two actual versions stand apart (labelsApart).
   */
  rivals?: ReadonlyMap<NodeId, NodeId>;
  /**
   * Where a node's labels point (a unit vector), where it is not simply away from the centre: on
   * a crowded, flattened ring, along the ellipse's normal, so the long top and bottom rows carry
   * their labels above and below rather than into their neighbours.
   */
  labelOut: ReadonlyMap<NodeId, Pt>;
  /**
   * The labels' type relative to the 15 px the label offsets are written for (the root font:
   * 18 px on a wide screen, up to 24 px in presenter mode): label room and offsets grow with it.
   */
  textScale: number;
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

/** Width kept beside a glyph for its two label lines ("v108", "term 12" / "wasm") at 15 px type, unless measured. */
const LABEL_W = 50;

/**
 * Room beside a glyph for its labels, in px: a worker's (version, backend), a server's (version
 * and term line) and a version alone (a server's where the term line does not fit, a worker's
 * where the backend line does not).
 */
export interface LabelRoom {
  worker: number;
  server: number;
  version: number;
}

/** The 15 px estimate, scaled, where the caller measured nothing. */
function estimatedRoom(k: number): LabelRoom {
  return { worker: LABEL_W * k, server: LABEL_W * k, version: 36 * k };
}
/** Clear space between two worker glyphs in a column. */
const GLYPH_GAP = 4;
/** Space between the panel's top or bottom edge and a crowded column's end glyphs. */
const COLUMN_EDGE = 3;
/**
 * The smallest worker glyph a crowded column shrinks to before it staggers into sub-columns: the
 * id inside ("w15", bold) still reads at about 11 px.
 */
const R_FLOOR = 11;

/**
 * The glyph radius that lets `n` workers stand in a column of height `h` staggered into `k`
 * sub-columns (worker i in sub-column i mod k) without touching: workers k rows apart share a
 * sub-column, so k row gaps must hold a glyph's diameter and the gap; nearer ones are side by side.
 */
function columnRadius(n: number, h: number, k: number): number {
  return (k * (h - 2 * COLUMN_EDGE) - GLYPH_GAP * (n - 1)) / (2 * (n - 1 + k));
}

/**
 * Workers on an ellipse in ring order (w0 → w1 → … clockwise, so ring links read as a ring);
 * one server in the centre (a star). An ellipse rather than a circle because the topology panel
 * is usually wider than tall, and a circle would leave the nodes small and bunched. The ring is
 * rotated by half a step so that, for an even number of workers, no worker sits on the vertical
 * centre line: the left/right halves are then an obvious two-group partition for
 * drag-to-partition (w0, w1 right; w2, w3 left for four).
 *
 * Several servers or brokers (Raft, Kafka) get the cluster layout instead (see clusterLayout).
 */
export function topologyLayout(
  nodes: readonly { id: NodeId; role: NodeRole }[],
  width: number,
  height: number,
  /** Space reserved above the drawing (a hint line). */
  top = 0,
  margin?: { x: number; y: number },
  /** The partition in force, if any: in the cluster layout each server joins its group's side. */
  groups?: readonly (readonly NodeId[])[],
  /** The root font over 15 px (TopologyLayout.textScale). */
  textScale = 1,
  /** Room beside a glyph for a worker's and a server's widest label, in px (measured by the caller); else a 15 px estimate, scaled. */
  labelW: LabelRoom = estimatedRoom(textScale),
): TopologyLayout {
  const workers = nodes.filter((n) => n.role === 'worker').map((n) => n.id).sort(byNodeOrder);
  const inner = nodes.filter((n) => n.role !== 'worker').map((n) => n.id).sort(innerOrder);
  if (inner.length > 1) return clusterLayout(workers, inner, width, height, top, groups, textScale, labelW);
  const two = ringLayout(workers, inner, width, height, top, margin, textScale, labelW, 2);
  // A margin given by the caller is kept as it is.
  if (margin) return two;
  const server = inner[0];
  const centre = { x: two.cx, y: two.cy };
  // A crowded or short ring has its own rule for the workers; the centre server's version goes
  // where it covers no worker.
  if (two.dense) {
    const fit = ringLabelFit(workers, server, two.pos, centre, two.nodeR, textScale, { worker: labelW.version, server: labelW.version }, false, two.labelOut);
    // Packed this tightly, a version with no clear room would sit on a worker: it is left out.
    return server && !fit.serverClear ? { ...two, unlabelled: new Set([...two.unlabelled, server]) } : withServerOut(two, server, fit);
  }
  const fitTwo = ringLabelFit(workers, server, two.pos, centre, two.nodeR, textScale, { worker: labelW.worker, server: labelW.version }, true);
  // Where the two label lines run into each other or a glyph, or leave a short panel, the workers
  // keep their version alone (the backend is in the tooltip, the aria-label and the node panel),
  // and the ring grows into the room the second line had kept.
  const keepTwo = fitTwo.clear && !ringTooShort(workers.length, height - top, textScale, 2);
  const lay = keepTwo ? two : ringLayout(workers, inner, width, height, top, margin, textScale, labelW, 1);
  const fit = keepTwo ? fitTwo : ringLabelFit(workers, server, lay.pos, centre, lay.nodeR, textScale, { worker: labelW.version, server: labelW.version }, false, lay.labelOut);
  return withServerOut(lay, server, fit);
}

/** The layout with its centre server's version pointing where `fit` found room (below: the default, unrecorded). */
function withServerOut(lay: TopologyLayout, server: NodeId | undefined, fit: { serverOut: Pt }): TopologyLayout {
  return server && fit.serverOut.y !== 1 ? { ...lay, labelOut: new Map([...lay.labelOut, [server, fit.serverOut]]) } : lay;
}

/**
 * The star or ring: `lines` of label kept beside or above/below each worker (1: the version
 * alone, which the layout then marks `dense`).
 */
function ringLayout(
  workers: readonly NodeId[],
  inner: readonly NodeId[],
  width: number,
  height: number,
  top: number,
  margin: { x: number; y: number } | undefined,
  textScale: number,
  labelW: LabelRoom,
  lines: 1 | 2,
): TopologyLayout {
  const cx = width / 2;
  const cy = top + (height - top) / 2;
  const count = Math.max(workers.length, 1);
  const angle = (i: number): number => ringAngle(i, count);
  const m = margin ?? { x: 34 + (lines === 2 ? labelW.worker : labelW.version), y: ringMarginY(count, lines, textScale) };
  // Too short for even one line above and below: the version goes beside each worker, where the
  // row leaves room for it (else the crowded rule below).
  const short = !margin && ringTooShort(count, height - top, textScale, 1) ? shortRing(workers, inner, width, height, top, textScale, labelW.version) : null;
  if (short) return short;
  let ry = Math.max(RY_FLOOR, (height - top) / 2 - m.y);
  let rx = Math.max(36, width / 2 - m.x);
  // Keep it recognisably a ring: at most 1.9 : 1 wide, 1.3 : 1 tall.
  rx = Math.min(rx, ry * 1.9);
  ry = Math.min(ry, rx * 1.3);
  // The two workers either side of the top (and the bottom) carry their labels above (below)
  // them, side by side, 2 rx sin(π/n) apart: wider than 1.9 : 1 where that keeps them from running
  // together (eight workers at 1024 presenter read "v178v179"). The panel's edge still caps it, below.
  const labelWidth = lines === 2 ? labelW.worker : labelW.version;
  if (!margin && count >= 6) rx = Math.max(rx, Math.min(width / 2 - 36, (labelWidth + 8 * textScale) / (2 * Math.sin(Math.PI / count))));
  const small = Math.min(rx, ry);
  // Glyph size shrinks with crowding on the ring but stays clickable and readable.
  const perimeter = Math.PI * (rx + ry);
  let nodeR = Math.max(14, Math.min(28, small * 0.2, perimeter / count / 4.8));
  // A side worker's label begins nodeR + 8k from its centre; the margin's 34 px held that only for
  // glyphs under 26 px: in a tall panel (six workers at 1920×1080, 28-px glyphs) the versions of
  // the two workers at the ring's ends fell off the panel and were left out. The ring gives way.
  if (!margin) rx = Math.max(36, Math.min(rx, width / 2 - (nodeR + 8 * textScale + labelWidth + 2)));
  const pos = new Map<NodeId, Pt>();
  workers.forEach((id, i) => {
    const a = angle(i);
    pos.set(id, { x: cx + rx * Math.cos(a), y: cy + ry * Math.sin(a) });
  });
  if (inner.length === 1) pos.set(inner[0], { x: cx, y: cy });
  const labelOut = new Map<NodeId, Pt>();
  let dense = lines === 1;
  if (nearest(pos) < 2 * nodeR + GLYPH_GAP) {
    // Too many workers for the ring at that size (16 in a short panel): equal angles bunch them
    // at the ends of a wide ellipse, so stretch it to the panel's width and space them by arc
    // length, then shrink the glyphs to what is left rather than let them overlap. Labels: the
    // version only, along the normal, with room above and below for one line.
    dense = true;
    rx = Math.max(rx, width / 2 - m.x);
    ry = Math.max(20, Math.min(ry, (height - top) / 2 - 36));
    ellipseByArc(rx, ry, workers.length).forEach((q, i) => {
      pos.set(workers[i], { x: cx + q.x, y: cy + q.y });
      const n = { x: q.x / rx ** 2, y: q.y / ry ** 2 };
      const len = Math.hypot(n.x, n.y) || 1;
      labelOut.set(workers[i], { x: n.x / len, y: n.y / len });
    });
    nodeR = Math.max(4, Math.min(nodeR, (nearest(pos) - GLYPH_GAP) / 2));
  }
  // A label the panel would cut ("v1" of "v126" under the hint line) is left out: the version is in
  // the tooltip, the aria-label and the node panel.
  const unlabelled = new Set<NodeId>();
  // On a crowded ring two versions along neighbouring normals can end up side by side, and once
  // they have three digits, with no space between ("v171v149" read as one): each worker whose
  // widest label could run into an earlier one's is that one's rival, and the drawing leaves it
  // out while the two actual versions would touch (labelsApart).
  const rivals = new Map<NodeId, NodeId>();
  const kept: { id: NodeId; box: LabelBox }[] = [];
  for (const id of workers) {
    const p = pos.get(id)!;
    const b = placedLabelBox(p, labelOut.get(id) ?? outOf(p, { x: cx, y: cy }), nodeR, !dense, dense ? labelW.version : labelW.worker, textScale);
    if (b.x0 < 0 || b.y0 < top || b.x1 > width || b.y1 > height) {
      unlabelled.add(id);
      continue;
    }
    const rival = dense ? kept.find((q) => overlap(spaced(b, textScale), q.box)) : undefined;
    if (rival) rivals.set(id, rival.id);
    kept.push({ id, box: spaced(b, textScale) });
  }
  return { pos, cx, cy, rx, ry, nodeR, side: new Map(), kind: 'ring', dense, rowGap: Infinity, unlabelled, termless: new Set(), labelOut, textScale, rivals };
}

/** Two labels closer than this (a space of the type, each side) read as one word. */
function spaced(b: LabelBox, k: number): LabelBox {
  return { ...b, x0: b.x0 - 3 * k, x1: b.x1 + 3 * k };
}

/**
 * Whether `id`'s version label, `chars` long, stands apart from its rival's (TopologyLayout.rivals),
 * `rivalChars` long, where both are drawn: the versions are in tabular monospace, so a label's width
 * is its length times `charW`.
 */
export function labelsApart(lay: TopologyLayout, id: NodeId, chars: number, rivalChars: number, charW: number): boolean {
  const rival = lay.rivals?.get(id);
  if (!rival) return true;
  const box = (n: NodeId, c: number): LabelBox => {
    const p = lay.pos.get(n)!;
    return placedLabelBox(p, lay.labelOut.get(n) ?? outOf(p, { x: lay.cx, y: lay.cy }), lay.nodeR, false, c * charW, lay.textScale);
  };
  return !overlap(spaced(box(id, chars), lay.textScale), spaced(box(rival, rivalChars), lay.textScale));
}

/** Worker i's angle on a ring of `count`: clockwise from half a step past the top (none on the vertical centre line). */
function ringAngle(i: number, count: number): number {
  return -Math.PI / 2 + ((i + 0.5) * 2 * Math.PI) / count;
}

/** The smallest vertical radius a ring keeps, whatever the panel's height. */
const RY_FLOOR = 36;

/**
 * The room a ring keeps above and below it for its workers' labels: labels sit beside side
 * workers (see labelPlacement), so top and bottom need it only where a worker is near the
 * vertical axis; one line takes 14 px less than two.
 */
function ringMarginY(count: number, lines: 1 | 2, k: number): number {
  const topBottom = Array.from({ length: count }, (_, i) => ringAngle(i, count)).some((a) => Math.abs(Math.cos(a)) < 0.35);
  return (lines === 2 ? (topBottom ? 58 : 38) : topBottom ? 44 : 34) * k;
}

/** Whether a ring in a panel `h` px tall would be squeezed under its floor, its labels then leaving the panel. */
function ringTooShort(count: number, h: number, k: number, lines: 1 | 2): boolean {
  return h / 2 - ringMarginY(count, lines, k) < RY_FLOOR;
}

/**
 * A star or ring in a panel too short for labels above and below its workers (a lesson's panel
 * once the run's legend is under it: 396×88 px for eight workers): the workers stand in two rows,
 * in ring order (clockwise from the top's middle, as on the ellipse), their glyphs reaching the
 * panel's top and bottom, and each carries its version beside it, outwards — the panel is wide,
 * and evenly spaced rows leave that room where an ellipse bunched its ends. Null where a row is
 * too crowded for a label beside each worker.
 */
function shortRing(workers: readonly NodeId[], inner: readonly NodeId[], width: number, height: number, top: number, k: number, versionW: number): TopologyLayout | null {
  // The room is the version as drawn (labelRoom); 2 px for its halo at the panel's edge.
  const vw = versionW + 2;
  // The widest glyph that leaves each worker of the longer row its label beside it: m glyphs and
  // m labels, each 8k from its own glyph and at least twice that from the next (else "v126"
  // between w6 and w7 reads as either's), the outer ones reaching the panel's edges.
  const m = Math.ceil(workers.length / 2);
  const fits = (width - 2 * (8 * k + vw) - (m - 1) * (24 * k + vw)) / (2 * m);
  const r = Math.min(14 * k, (height - top) / 6, fits);
  return r >= SHORT_R_FLOOR ? shortRingAt(r, workers, inner, width, height, top, k, vw) : null;
}

/** A slow worker's clock badge (topologyNodes draws it): its centre's offset in glyph radii, and its half-height in px. */
export const CLOCK_BADGE = { dx: 0.7, dy: 0.95, halfHeight: 9 } as const;

/** How far above its glyph's centre a slow worker's clock badge reaches. */
export function badgeReach(r: number): number {
  return CLOCK_BADGE.dy * r + CLOCK_BADGE.halfHeight;
}

/** The smallest glyph a short ring draws: "w7" inside still reads (at 9 px). */
const SHORT_R_FLOOR = 9;

function shortRingAt(nodeR: number, workers: readonly NodeId[], inner: readonly NodeId[], width: number, height: number, top: number, k: number, versionW: number): TopologyLayout | null {
  const n = workers.length;
  const cx = width / 2;
  const cy = top + (height - top) / 2;
  // The outermost workers' labels end at the panel's edges.
  const edge = nodeR + 8 * k + versionW;
  // The top row's glyphs come as close to the top as a slow worker's clock badge allows.
  const ry = Math.max(nodeR + GLYPH_GAP, (height - top) / 2 - badgeReach(nodeR));
  const upper = Math.ceil(n / 2);
  // Clockwise from the top's middle: the top row's right half, down the right, the bottom row
  // right to left, up the left, the top row's left half.
  const topRow = [...workers.slice(n - Math.floor(upper / 2)), ...workers.slice(0, Math.ceil(upper / 2))];
  const bottomRow = workers.slice(Math.ceil(upper / 2), n - Math.floor(upper / 2)).reverse();
  const pos = new Map<NodeId, Pt>();
  const labelOut = new Map<NodeId, Pt>();
  const place = (row: readonly NodeId[], y: number): void =>
    row.forEach((id, i) => {
      const x = row.length === 1 ? cx : edge + ((width - 2 * edge) * i) / (row.length - 1);
      pos.set(id, { x, y });
      labelOut.set(id, { x: x < cx ? -1 : 1, y: 0 });
    });
  place(topRow, cy - ry);
  place(bottomRow, cy + ry);
  if (inner.length === 1) pos.set(inner[0], { x: cx, y: cy });
  const server = inner.length === 1 ? inner[0] : undefined;
  const fit = ringLabelFit(workers, server, pos, { x: cx, y: cy }, nodeR, k, { worker: versionW, server: versionW }, false, labelOut);
  // Sixteen workers leave a row no room for a label beside each: the crowded rule takes them.
  if (!fit.clear || nearest(pos) < 2 * nodeR + GLYPH_GAP) return null;
  // (The server's version: topologyLayout places it, as on any crowded ring.)
  return { pos, cx, cy, rx: width / 2 - edge, ry, nodeR, side: new Map(), kind: 'ring', dense: true, rowGap: Infinity, unlabelled: new Set(), termless: new Set(), labelOut, textScale: k };
}

/** The smallest distance between two of the points (Infinity for fewer than two). */
function nearest(pos: ReadonlyMap<NodeId, Pt>): number {
  const ps = [...pos.values()];
  let d = Infinity;
  for (let i = 0; i < ps.length; i++) for (let j = i + 1; j < ps.length; j++) d = Math.min(d, Math.hypot(ps[i].x - ps[j].x, ps[i].y - ps[j].y));
  return d;
}

/**
 * `n` points on an ellipse (relative to its centre) at equal arc length, clockwise from half a
 * step past the top, like the ring's equal angles (so none sits on the vertical centre line).
 */
function ellipseByArc(rx: number, ry: number, n: number): Pt[] {
  const steps = 720;
  const at = (k: number): Pt => {
    const t = -Math.PI / 2 + (k / steps) * 2 * Math.PI;
    return { x: rx * Math.cos(t), y: ry * Math.sin(t) };
  };
  const cum = [0];
  for (let k = 1; k <= steps; k++) cum.push(cum[k - 1] + Math.hypot(at(k).x - at(k - 1).x, at(k).y - at(k - 1).y));
  const total = cum[steps];
  const out: Pt[] = [];
  let k = 0;
  for (let i = 0; i < n; i++) {
    const s = ((i + 0.5) / n) * total;
    while (k < steps - 1 && cum[k + 1] < s) k++;
    const f = (s - cum[k]) / (cum[k + 1] - cum[k] || 1);
    const a = at(k);
    const b = at(k + 1);
    out.push({ x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f });
  }
  return out;
}

/** Brokers first (the log everyone writes to), then servers / PS replicas, each by number. */
function innerOrder(a: NodeId, b: NodeId): number {
  const ra = a.startsWith('b') ? 0 : 1;
  const rb = b.startsWith('b') ? 0 : 1;
  return ra - rb || nodeIndex(a) - nodeIndex(b);
}

/**
 * Clients around a cluster, for several servers or brokers: the workers stand in two columns at
 * the left and right edges (w0… down the right, the rest up the left, so the order still runs
 * clockwise and the left/right halves are the natural drag-to-partition groups), and the servers
 * sit on their own ellipse in the middle, using the panel's width. The first half of the servers
 * goes on the right and the rest on the left, none on the vertical centre line, so a drag across
 * the middle splits the servers too (Raft: {w0, w1, s0, s1} | {w2, w3, s2, s3, s4}). On an
 * ellipse, no three servers are in a line, so every server↔server edge is its own line (a row
 * drew s0↔s4 through s1…s3). Every label sits beside its glyph, on the outside.
 */
function clusterLayout(
  workers: readonly NodeId[],
  inner: readonly NodeId[],
  width: number,
  height: number,
  top: number,
  groups: readonly (readonly NodeId[])[] | undefined,
  textScale: number,
  labelW: LabelRoom,
): TopologyLayout {
  const cx = width / 2;
  const h = height - top;
  const cy = top + h / 2;
  const right = workers.slice(0, Math.ceil(workers.length / 2));
  const left = workers.slice(right.length);
  const perColumn = Math.max(1, right.length);
  // Glyph size: fits the column's vertical spacing and the panel's width.
  let nodeR = Math.max(13, Math.min(24, h / (perColumn * 2.6 + 1.2), width / 28, h / 9));
  let yPad = nodeR + 6;
  // A few workers spread over the middle of the height, many over all of it.
  const spanOf = (n: number): number => (n <= 1 ? 0 : Math.min(h - 2 * yPad, (n - 1) * Math.max(nodeR * 3.2, (h - 2 * yPad) / n)));
  // Too many workers for the column's height at that size (16 in a short panel): shrink the
  // glyphs down to R_FLOOR, then stagger the column into two or three sub-columns, so that no two
  // glyphs ever overlap. Below R_FLOOR even in three, they shrink further rather than overlap.
  let stagger = 1;
  let crowded = false;
  if (perColumn > 1 && spanOf(perColumn) / (perColumn - 1) < 2 * nodeR + GLYPH_GAP) {
    crowded = true;
    const ks = [1, 2, 3].filter((k) => k <= perColumn);
    stagger = ks.find((k) => columnRadius(perColumn, h, k) >= R_FLOOR) ?? ks[ks.length - 1];
    nodeR = Math.max(4, Math.min(nodeR, columnRadius(perColumn, h, stagger)));
    yPad = nodeR + COLUMN_EDGE;
  }
  const rowGapOf = (n: number): number => (n <= 1 ? h : (crowded ? h - 2 * yPad : spanOf(n)) / (n - 1));
  // Sub-columns side by side just far enough that neighbouring rows' glyphs keep GLYPH_GAP apart.
  const subDx = stagger > 1 ? Math.max(nodeR, Math.sqrt(Math.max(0, (2 * nodeR + GLYPH_GAP) ** 2 - rowGapOf(perColumn) ** 2))) : 0;
  const side = new Map<NodeId, -1 | 1>();
  const pos = new Map<NodeId, Pt>();
  const unlabelled = new Set<NodeId>();
  const termless = new Set<NodeId>();
  // Worker columns: the glyph edge plus its labels end a few pixels inside the panel.
  const xCol = Math.max(nodeR * 3 + (stagger - 1) * subDx, width / 2 - (nodeR + 8 * textScale + labelW.worker + 6));
  const column = (ids: readonly NodeId[], sgn: -1 | 1): void => {
    const n = ids.length;
    const span = crowded ? (n <= 1 ? 0 : h - 2 * yPad) : spanOf(n);
    ids.forEach((id, i) => {
      const k = n <= 1 ? 0 : i / (n - 1) - 0.5; // -0.5 … 0.5, top to bottom
      // A slight bow (the ends lean in) reads as a bracket around the cluster; a staggered column
      // has no room for it.
      const bow = stagger > 1 ? 0 : Math.min(nodeR, width * 0.02) * (4 * k * k);
      const sub = i % stagger; // 0: the outer sub-column
      const y = cy + k * span * (sgn === 1 ? 1 : -1);
      pos.set(id, { x: cx + sgn * (xCol - bow - sub * subDx), y });
      side.set(id, sgn);
      if (sub > 0) unlabelled.add(id);
    });
  };
  column(right, 1);
  column(left, -1);
  // The cluster's ellipse: inside the columns, leaving room for the servers' outward labels.
  const hasWorkers = workers.length > 0;
  // In a panel too narrow for a server's two label lines between it and the worker columns (a
  // 1024-wide projector, a lesson's side-by-side panels), the servers keep their version alone,
  // and where even that would reach the workers, no label: never text over a worker. What is left
  // out is in the tooltip, the aria-label and the servers panel.
  const beside = (w: number): number => nodeR + 8 * textScale + w;
  // The worker glyphs' inner edge, at the column's ends, which lean in by the bow.
  const workerEdge = xCol - (stagger - 1) * subDx - nodeR - (stagger > 1 ? 0 : Math.min(nodeR, width * 0.02));
  const rxFor = (w: number): number => Math.max(nodeR * 2, hasWorkers ? workerEdge - 4 - beside(w) : width / 2 - (beside(w) + 6));
  const clear = (w: number): boolean => !hasWorkers || rxFor(w) + beside(w) + 4 <= workerEdge;
  const wanted: ServerLabels = clear(labelW.server) ? 'full' : clear(labelW.version) ? 'version' : 'none';
  // Which side each server takes: by default the first half right, the rest left; under a
  // partition, the side where most of its group's workers stand, so each group's shading is one
  // side of the picture (Raft: {s0, w0, w1} | {w2, w3, s1…s4}).
  const nRight = Math.floor(inner.length / 2);
  const sideOfServer = new Map<NodeId, -1 | 1>(inner.map((id, i) => [id, i < nRight ? 1 : -1]));
  for (const g of groups ?? []) {
    let score = 0;
    for (const id of g) score += side.get(id) ?? 0;
    if (score !== 0) for (const id of g) if (sideOfServer.has(id)) sideOfServer.set(id, score > 0 ? 1 : -1);
  }
  const placeServers = (rx: number): void => {
    // Room above for the leader's crown and ring; below for nothing but the glyph.
    const ry = Math.max(nodeR * 1.5, Math.min(h / 2 - nodeR - 22, Math.max(rx, h * 0.3)));
    const place = (ids: readonly NodeId[], sgn: -1 | 1): void => {
      const n = ids.length;
      // Angles inside the right (or left) half, clockwise, evenly, clear of the vertical axis;
      // in a short panel (a flat ellipse) far enough apart that neighbouring glyphs do not touch.
      const step = Math.max(Math.PI / 3, Math.asin(Math.min(1, (2 * nodeR + GLYPH_GAP) / ry)));
      const spread = Math.min(Math.PI * 0.8, step * Math.max(1, n - 1) + 0.001);
      ids.forEach((id, i) => {
        const a = n === 1 ? 0 : -spread / 2 + (i * spread) / (n - 1);
        // Right half: top to bottom (clockwise); left half: bottom to top.
        pos.set(id, { x: cx + sgn * rx * Math.cos(a), y: cy + ry * Math.sin(a) * sgn });
        side.set(id, sgn);
      });
    };
    place(inner.filter((id) => sideOfServer.get(id) === 1), 1);
    place(inner.filter((id) => sideOfServer.get(id) === -1), -1);
  };
  const workerR = nodeR;
  // Servers crowded on one side (a partition puts four of five on the left) would write their
  // labels over each other and over their neighbours' glyphs: there a server's term line goes,
  // then both lines (serverLabelFit), each server as its own room allows.
  const fitAt = (labels: ServerLabels): Map<NodeId, ServerLabels> => {
    nodeR = workerR;
    placeServers(labels === 'none' ? bare : rxFor(labels === 'full' ? labelW.server : labelW.version));
    // Whatever is still too close (a cluster in a very small panel) gets smaller glyphs, not overlap.
    nodeR = Math.max(4, Math.min(nodeR, (nearest(pos) - GLYPH_GAP) / 2));
    return serverLabelFit(inner, pos, side, nodeR, textScale, { full: labelW.server, version: labelW.version }, [...workers, ...inner], labels);
  };
  // Without labels the servers may spread to the workers' glyphs, less the leader's ring.
  const bare = Math.max(nodeR * 2, hasWorkers ? workerEdge - 4 - nodeR * 1.5 : width / 2 - nodeR * 1.5 - 6);
  let fit = fitAt(wanted);
  // Kept close to the centre for labels that then found no room anyway (five servers between
  // two columns in a lesson's panel): the servers take the whole middle instead, unlabelled.
  if (wanted !== 'none' && inner.every((id) => fit.get(id) === 'none')) fit = fitAt('none');
  for (const id of inner) {
    if (fit.get(id) === 'none') unlabelled.add(id);
    else if (fit.get(id) === 'version') termless.add(id);
  }
  // Two label lines need ~30 px; closer than that, workers keep only their version. A staggered
  // column labels every k-th worker, k rows apart.
  const spacing = rowGapOf(perColumn);
  return { pos, cx, cy, rx: xCol, ry: Math.max(h / 2 - yPad, 1), nodeR, side, kind: 'cluster', dense: spacing * stagger < 2 * nodeR + 8 || stagger > 1, rowGap: spacing, unlabelled, termless, labelOut: new Map(), textScale };
}

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
