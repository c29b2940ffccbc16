import type { NodeId, NodeRole } from '../../sim/types';
import { outOf, overlap, placedLabelBox, ringLabelFit, type Box as LabelBox } from './nodeLabels';
import { clusterLayout, innerOrder } from './clusterLayout';
import { GLYPH_GAP, byNodeOrder, estimatedRoom, nearest, type LabelRoom, type Pt, type TopologyLayout } from './layoutBasics';

/**
 * Where the topology's nodes sit: a ring or star of workers (here), clients around a cluster
 * (clusterLayout.ts), with what the labels beside them need. Pure; no DOM; unit-tested. The
 * drawing math beside it is topologyMath.ts.
 */

export type { LabelRoom, Pt, TopologyLayout } from './layoutBasics';

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
  // widest label could run into earlier ones' has those as its rivals, and the drawing leaves it
  // out while its actual version would touch a drawn rival's (hiddenByRivals).
  const rivals = new Map<NodeId, NodeId[]>();
  const kept: { id: NodeId; box: LabelBox }[] = [];
  for (const id of workers) {
    const p = pos.get(id)!;
    const b = placedLabelBox(p, labelOut.get(id) ?? outOf(p, { x: cx, y: cy }), nodeR, !dense, dense ? labelW.version : labelW.worker, textScale);
    if (b.x0 < 0 || b.y0 < top || b.x1 > width || b.y1 > height) {
      unlabelled.add(id);
      continue;
    }
    const near = dense ? kept.filter((q) => overlap(spaced(b, textScale), q.box)).map((q) => q.id) : [];
    if (near.length > 0) rivals.set(id, near);
    kept.push({ id, box: spaced(b, textScale) });
  }
  return { pos, cx, cy, rx, ry, nodeR, side: new Map(), kind: 'ring', dense, rowGap: Infinity, unlabelled, termless: new Set(), labelOut, textScale, rivals };
}

/** Two labels closer than this (a space of the type, each side) read as one word. */
function spaced(b: LabelBox, k: number): LabelBox {
  return { ...b, x0: b.x0 - 3 * k, x1: b.x1 + 3 * k };
}

/**
 * Whether `id`'s version label, `chars` long, stands apart from `rival`'s, `rivalChars` long, where
 * both are drawn: the versions are in tabular monospace, so a label's width is its length times
 * `charW`.
 */
export function labelsApart(lay: TopologyLayout, id: NodeId, rival: NodeId, chars: number, rivalChars: number, charW: number): boolean {
  const box = (n: NodeId, c: number): LabelBox => {
    const p = lay.pos.get(n)!;
    return placedLabelBox(p, lay.labelOut.get(n) ?? outOf(p, { x: lay.cx, y: lay.cy }), lay.nodeR, false, c * charW, lay.textScale);
  };
  return !overlap(spaced(box(id, chars), lay.textScale), spaced(box(rival, rivalChars), lay.textScale));
}

/**
 * The workers whose version labels are left out now (TopologyLayout.rivals): those whose label
 * would touch a rival's that is itself drawn. Rivals come in worker order, each after those it
 * rivals, so a label left out never hides the next one in a chain (w9 → w8 → w7: with w8 out, w9
 * stands beside nothing).
 */
export function hiddenByRivals(lay: TopologyLayout, versionOf: (id: NodeId) => number | undefined, charW: number): ReadonlySet<NodeId> {
  const hidden = new Set<NodeId>();
  const chars = (id: NodeId): number | undefined => {
    const v = versionOf(id);
    return v === undefined ? undefined : `v${v}`.length;
  };
  for (const [id, rivals] of lay.rivals ?? []) {
    const c = chars(id);
    if (c === undefined) continue;
    const touches = rivals.some((r) => {
      const rc = chars(r);
      return !hidden.has(r) && rc !== undefined && !labelsApart(lay, id, r, c, rc, charW);
    });
    if (touches) hidden.add(id);
  }
  return hidden;
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
