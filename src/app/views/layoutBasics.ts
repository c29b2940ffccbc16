import type { NodeId } from '../../sim/types';

/**
 * What the topology's layouts share (geometry.ts: ring and star; clusterLayout.ts: clients around
 * a cluster): the layout's shape, node order, the label room and the spacing rules. Pure; no DOM.
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
  /** Servers whose crown, when they lead, goes under the glyph: above, it would sit on another node (crownsBelow). */
  crownBelow?: ReadonlySet<NodeId>;
  /**
   * On a crowded ring, each worker whose version label could run into earlier workers' labels
   * (its rivals): drawn only while its actual version stands apart from every rival's that is
   * drawn (hiddenByRivals).
   */
  rivals?: ReadonlyMap<NodeId, readonly NodeId[]>;
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
export function estimatedRoom(k: number): LabelRoom {
  return { worker: LABEL_W * k, server: LABEL_W * k, version: 36 * k };
}
/**
 * How far a worker's progress ring reaches beyond its glyph (radius r + 2, 3 px wide: TopologyView,
 * topologyMoving): labels beside other nodes keep clear of the ring, not only the glyph.
 */
export const PROGRESS_RING_OUT = 5;
/** How far a leader's (or candidate's) ring reaches beyond its server's glyph (topologyNodes). */
export const LEADER_RING_OUT = 6;
/** The leader's crown: its baseline this far above the glyph's top edge (topologyNodes). */
export const CROWN_BASE = 10;
/** Clear space between two worker glyphs in a column. */
export const GLYPH_GAP = 4;
/** Space between the panel's top or bottom edge and a crowded column's end glyphs. */
export const COLUMN_EDGE = 3;
/**
 * The smallest worker glyph a crowded column shrinks to before it staggers into sub-columns: the
 * id inside ("w15", bold) still reads at about 11 px.
 */
export const R_FLOOR = 11;

/**
 * The glyph radius that lets `n` workers stand in a column of height `h` staggered into `k`
 * sub-columns (worker i in sub-column i mod k) without touching: workers k rows apart share a
 * sub-column, so k row gaps must hold a glyph's diameter and the gap; nearer ones are side by side.
 */
export function columnRadius(n: number, h: number, k: number): number {
  return (k * (h - 2 * COLUMN_EDGE) - GLYPH_GAP * (n - 1)) / (2 * (n - 1 + k));
}

/** The smallest distance between two of the points (Infinity for fewer than two). */
export function nearest(pos: ReadonlyMap<NodeId, Pt>): number {
  const ps = [...pos.values()];
  let d = Infinity;
  for (let i = 0; i < ps.length; i++) for (let j = i + 1; j < ps.length; j++) d = Math.min(d, Math.hypot(ps[i].x - ps[j].x, ps[i].y - ps[j].y));
  return d;
}

/** The smallest Chebyshev distance between two of `ids`' points: how far apart square glyphs' centres are along x or y. */
export function squareGap(ids: readonly NodeId[], pos: ReadonlyMap<NodeId, Pt>): number {
  let d = Infinity;
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) {
      const a = pos.get(ids[i])!;
      const b = pos.get(ids[j])!;
      d = Math.min(d, Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y)));
    }
  return d;
}
