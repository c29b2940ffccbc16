import type { NodeId } from '../../sim/types';
import { CROWN_BASE, LEADER_RING_OUT, PROGRESS_RING_OUT, type Pt } from './layoutBasics';

/**
 * Where a topology node's labels go (version, backend or term) and whether a ring's labels fit
 * without running into each other or into a glyph: pure, no DOM; unit-tested.
 */

/** Baselines are for a 15 px version label and a 12 px backend label under/over it. */
export interface LabelPlacement {
  x: number;
  yVersion: number;
  yBackend: number;
  anchor: 'start' | 'middle' | 'end';
}

/**
 * Where a node's version and backend (or term) labels go, relative to the node centre, given the
 * direction they point (`out`, away from the ring's centre; a centre server's is down unless its
 * layout chose another). Side nodes get them beside the glyph (the topology panel is wider than
 * tall, so horizontal room is cheap); nodes at the top get them above, the others below.
 * `k`: the layout's textScale.
 */
export function labelPlacement(out: Pt, r: number, withBackend: boolean, k = 1): LabelPlacement {
  if (Math.abs(out.x) >= 0.35) {
    return { x: Math.sign(out.x) * (r + 8 * k), yVersion: (withBackend ? -1 : 5) * k, yBackend: 14 * k, anchor: out.x > 0 ? 'start' : 'end' };
  }
  if (out.y < 0) return { x: 0, yVersion: -(r + 8 * k), yBackend: -(r + 24 * k), anchor: 'middle' };
  return { x: 0, yVersion: r + 20 * k, yBackend: r + 34 * k, anchor: 'middle' };
}

/**
 * A box around a node's glyph and its labels (text widths estimated: 15 px monospace ≈ 9.3 px a
 * character, 12 px sans ≈ 7 px), symmetric about the glyph's centre so that the box centre — where
 * a click on the node lands — is the glyph itself.
 */
export function nodeHitBox(lp: LabelPlacement, r: number, versionChars: number, backendChars: number, k = 1): { x: number; y: number; width: number; height: number } {
  const textW = Math.max(versionChars * 9.3, backendChars * 7) * k;
  const pad = r + 8 * k;
  const middle = lp.anchor === 'middle';
  const halfW = middle ? Math.max(pad, textW / 2) : Math.abs(lp.x) + textW;
  const halfH = middle ? Math.max(pad, Math.abs(lp.yVersion) + 4, Math.abs(lp.yBackend) + 4) : Math.max(pad, lp.yBackend + 4);
  return { x: -halfW, y: -halfH, width: 2 * halfW, height: 2 * halfH };
}

/** A box relative to a node's centre (or, placed, in the panel). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The box a node's label lines take, relative to its centre: `width` the widest line, the version
 * line 15 px type (11 above its baseline, 4 below), the backend or term line 12 px (9 and 3).
 */
export function labelBox(lp: LabelPlacement, withSecond: boolean, width: number, k: number): Box {
  const x0 = lp.anchor === 'start' ? lp.x : lp.anchor === 'end' ? lp.x - width : lp.x - width / 2;
  let y0 = lp.yVersion - 11 * k;
  let y1 = lp.yVersion + 4 * k;
  if (withSecond) {
    y0 = Math.min(y0, lp.yBackend - 9 * k);
    y1 = Math.max(y1, lp.yBackend + 3 * k);
  }
  return { x0, y0, x1: x0 + width, y1 };
}

/**
 * The box a node's label lines take in the panel: the node at `p`, its labels pointing `out`
 * (`withSecond`: the backend or term line under the version, `width` the widest line).
 */
export function placedLabelBox(p: Pt, out: Pt, r: number, withSecond: boolean, width: number, k: number): Box {
  return at(labelBox(labelPlacement(out, r, withSecond, k), withSecond, width, k), p);
}

export const overlap = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
const overlapArea = (a: Box, b: Box): number => Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
const at = (b: Box, p: Pt): Box => ({ x0: b.x0 + p.x, y0: b.y0 + p.y, x1: b.x1 + p.x, y1: b.y1 + p.y });
/** A glyph of radius `r` at `p`, as its bounding box. */
const glyphAt = (p: Pt, r: number): Box => ({ x0: p.x - r, y0: p.y - r, x1: p.x + r, y1: p.y + r });

/** The direction a ring node's labels point: away from the centre (straight down from it). */
export function outOf(p: Pt, centre: Pt): Pt {
  const dx = p.x - centre.x;
  const dy = p.y - centre.y;
  const len = Math.hypot(dx, dy);
  return len > 1 ? { x: dx / len, y: dy / len } : { x: 0, y: 1 };
}

export interface RingLabelFit {
  /** Every worker's labels clear of the other labels and glyphs. */
  clear: boolean;
  /** Where the centre server's version points: below it where that is clear, else above or beside. */
  serverOut: Pt;
  /** Whether the server's version there is clear of every worker and label (else it covers the least). */
  serverClear: boolean;
}

/** A centre server's label directions, in order of preference. */
const SERVER_OUTS: readonly Pt[] = [
  { x: 0, y: 1 },
  { x: 0, y: -1 },
  { x: 1, y: 0 },
  { x: -1, y: 0 },
];

/**
 * Whether the workers' labels on a ring (two lines with `withBackend`, else the version alone)
 * stay clear of each other and of every other glyph, and where the centre server's version fits:
 * below it, else above or beside it (where none is clear, where it covers least). In a lesson's
 * small panel, seven workers around a server ran their "v0 / wasm" into each other and the
 * server's "v0" onto the worker below it.
 */
export function ringLabelFit(
  workers: readonly NodeId[],
  server: NodeId | undefined,
  pos: ReadonlyMap<NodeId, Pt>,
  centre: Pt,
  r: number,
  k: number,
  widths: { worker: number; server: number },
  withBackend: boolean,
  /** Where the layout points a worker's labels, where not away from the centre (TopologyLayout.labelOut). */
  outs?: ReadonlyMap<NodeId, Pt>,
): RingLabelFit {
  const glyph = (id: NodeId): Box => glyphAt(pos.get(id)!, r);
  const all = server ? [...workers, server] : workers;
  const labels = workers.map((id) => {
    const p = pos.get(id)!;
    return placedLabelBox(p, outs?.get(id) ?? outOf(p, centre), r, withBackend, widths.worker, k);
  });
  let clear = true;
  for (let i = 0; i < workers.length && clear; i++) {
    for (let j = i + 1; j < workers.length && clear; j++) if (overlap(labels[i], labels[j])) clear = false;
    for (const id of all) if (id !== workers[i] && overlap(labels[i], glyph(id))) clear = false;
  }
  let serverOut = SERVER_OUTS[0];
  let least = 0;
  if (server) {
    const p = pos.get(server)!;
    // The first direction clear of every worker and label; where none is, the one that covers least.
    const covered = (out: Pt): number => {
      const box = at(labelBox(labelPlacement(out, r, false, k), false, widths.server, k), p);
      let area = 0;
      workers.forEach((id, i) => (area += overlapArea(box, glyph(id)) + overlapArea(box, labels[i])));
      return area;
    };
    least = Infinity;
    for (const out of SERVER_OUTS) {
      const area = covered(out);
      if (area < least) [least, serverOut] = [area, out];
      if (area === 0) break;
    }
  }
  return { clear, serverOut, serverClear: least === 0 };
}

/** What a server beside its glyph shows: version and term, the version alone, or nothing. */
export type ServerLabels = 'full' | 'version' | 'none';

/**
 * Each server's labels, beside its glyph on its `side`: the most of `cap` (full, then version)
 * whose box clears every glyph but its own (a worker's with its progress ring: `ringed`) and the
 * labels of the servers before it. What a server leaves out is in its tooltip, its aria-label and
 * the servers panel.
 */
export function serverLabelFit(
  ids: readonly NodeId[],
  pos: ReadonlyMap<NodeId, Pt>,
  side: ReadonlyMap<NodeId, -1 | 1>,
  r: number,
  k: number,
  widths: { full: number; version: number },
  glyphs: readonly NodeId[],
  cap: ServerLabels,
  ringed: ReadonlySet<NodeId> = new Set(),
  leaderMarks = false,
): Map<NodeId, ServerLabels> {
  const out = new Map<NodeId, ServerLabels>();
  const placed: Box[] = [];
  // s3's "term 1" cleared w11's glyph but ran into its progress ring.
  const glyphBoxes = glyphs.filter((g) => pos.has(g)).map((g) => ({ id: g, box: glyphAt(pos.get(g)!, ringed.has(g) ? r + PROGRESS_RING_OUT : r) }));
  // Any server may lead: where asked, its leader ring and the crown above it are in the way too
  // (clusterLayout compares its placements so, and draws its zigzag's rows a crown's height apart).
  if (leaderMarks)
    for (const id of ids) {
      const p = pos.get(id)!;
      glyphBoxes.push({ id, box: glyphAt(p, r + LEADER_RING_OUT) }, { id, box: at(crownBox(r, k), p) });
    }
  const modes: ServerLabels[] = cap === 'full' ? ['full', 'version'] : cap === 'version' ? ['version'] : [];
  for (const id of ids) {
    const p = pos.get(id)!;
    const boxOf = (m: ServerLabels): Box => at(labelBox(labelPlacement({ x: side.get(id) ?? 1, y: 0 }, r, m === 'full', k), m === 'full', m === 'full' ? widths.full : widths.version, k), p);
    const mode = modes.find((m) => {
      const b = boxOf(m);
      return placed.every((q) => !overlap(b, q)) && glyphBoxes.every((g) => g.id === id || !overlap(b, g.box));
    });
    out.set(id, mode ?? 'none');
    if (mode) placed.push(boxOf(mode));
  }
  return out;
}

/**
 * The leader's crown, relative to its server's centre: above the glyph, its baseline CROWN_BASE
 * over the top edge (the glyph's ink about 12 px at 15 px type, 2 below the baseline), or the
 * same box mirrored under the glyph.
 */
export function crownBox(r: number, k: number, below = false): Box {
  const y0 = -r - CROWN_BASE - 12 * k;
  const y1 = -r - CROWN_BASE + 2;
  return below ? { x0: -7 * k, x1: 7 * k, y0: -y1, y1: -y0 } : { x0: -7 * k, x1: 7 * k, y0, y1 };
}

/** Where a crown drawn under its glyph has its baseline (topologyNodes), to match crownBox(r, k, true). */
export const crownBaselineBelow = (r: number, k: number): number => r + CROWN_BASE + 12 * k - 2;

/**
 * The servers whose crown, were they to lead, would sit on another node's glyph or ring above
 * them while under the glyph it is clear and inside the panel (`bottom`): drawn there instead.
 * Two servers one above the other in a short panel (a ZooKeeper lock: s0 over c0, 52 px apart)
 * put the lower one's crown on the upper one's square.
 */
export function crownsBelow(ids: readonly NodeId[], pos: ReadonlyMap<NodeId, Pt>, r: number, k: number, ringed: ReadonlySet<NodeId>, bottom: number): Set<NodeId> {
  const out = new Set<NodeId>();
  const glyphs = [...pos].map(([id, p]) => ({ id, box: glyphAt(p, r + (ringed.has(id) ? PROGRESS_RING_OUT : LEADER_RING_OUT)) }));
  const blocked = (id: NodeId, b: Box): boolean => glyphs.some((g) => g.id !== id && overlap(b, g.box));
  for (const id of ids) {
    const p = pos.get(id);
    if (!p || !blocked(id, at(crownBox(r, k), p))) continue;
    const under = at(crownBox(r, k, true), p);
    if (under.y1 <= bottom && !blocked(id, under)) out.add(id);
  }
  return out;
}
