import type { NodeId } from '../../sim/types';
import { crownsBelow, serverLabelFit, type ServerLabels } from './nodeLabels';
import { COLUMN_EDGE, GLYPH_GAP, PROGRESS_RING_OUT, R_FLOOR, columnRadius, nearest, nodeIndex, squareGap, type LabelRoom, type Pt, type TopologyLayout } from './layoutBasics';

/** Brokers first (the log everyone writes to), then servers / PS replicas, each by number. */
export function innerOrder(a: NodeId, b: NodeId): number {
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
 * drew s0↔s4 through s1…s3). Every label sits beside its glyph, on the outside. Where a partition
 * crowds three or more servers onto one side's arc, they may stand in a zigzag of rows instead
 * (see the end).
 */
export function clusterLayout(
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
  // A label ends a little short of the workers' progress rings, not of their glyphs.
  const RING_GAP = PROGRESS_RING_OUT + 2;
  // The worker glyphs' inner edge, at the column's ends, which lean in by the bow.
  const workerEdge = xCol - (stagger - 1) * subDx - nodeR - (stagger > 1 ? 0 : Math.min(nodeR, width * 0.02));
  const rxFor = (w: number): number => Math.max(nodeR * 2, hasWorkers ? workerEdge - RING_GAP - beside(w) : width / 2 - (beside(w) + 6));
  const clear = (w: number): boolean => !hasWorkers || rxFor(w) + beside(w) + RING_GAP <= workerEdge;
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
  const placeServers = (rx: number, zigzag: boolean): void => {
    // Room above for the leader's crown and ring; below for nothing but the glyph.
    const ry = Math.max(nodeR * 1.5, Math.min(h / 2 - nodeR - 22, Math.max(rx, h * 0.3)));
    const place = (ids: readonly NodeId[], sgn: -1 | 1): void => {
      const n = ids.length;
      if (zigzag && n >= 3) {
        // Rows over the whole height, alternately out at rx and in near the centre line, so that
        // neighbours stand apart on the diagonal and a crown clears the glyph above it.
        const yTop = top + nodeR + 22;
        const yBot = top + h - nodeR - 4;
        // The inner rows' glyphs end just short of the centre line, and their labels point
        // inwards, clear of the outer rows' crowns.
        const xIn = Math.min(rx, nodeR + 2);
        ids.forEach((id, i) => {
          const row = sgn === 1 ? i : n - 1 - i;
          const out = i % 2 === 0;
          pos.set(id, { x: cx + sgn * (out ? rx : xIn), y: yTop + (row * (yBot - yTop)) / (n - 1) });
          side.set(id, out ? sgn : sgn === 1 ? -1 : 1);
        });
        return;
      }
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
  type Fit = { fit: Map<NodeId, ServerLabels>; score: () => number; r: number; pos: Map<NodeId, Pt>; side: Map<NodeId, -1 | 1> };
  // What a placement labels (full 2, version 1): `fit` as the arc has always drawn it; `score`
  // counting every server's leader ring and crown as in the way (any of them may lead), so that
  // two placements compare on what they leave clear once a leader is drawn.
  const fitAt = (labels: ServerLabels, zigzag = false): Fit => {
    nodeR = workerR;
    placeServers(labels === 'none' ? bare : rxFor(labels === 'full' ? labelW.server : labelW.version), zigzag);
    // Whatever is still too close (a cluster in a very small panel) gets smaller glyphs, not overlap.
    nodeR = Math.max(4, Math.min(nodeR, (nearest(pos) - GLYPH_GAP) / 2));
    // Servers are squares: diagonal neighbours (the zigzag's) need their corners apart too.
    if (zigzag) nodeR = Math.max(4, Math.min(nodeR, (squareGap(inner, pos) - GLYPH_GAP) / 2));
    // The placement as it stands: the next one moves `pos`, `side` and `nodeR`.
    const at = { pos: new Map(pos), side: new Map(side), r: nodeR };
    const fitWith = (marks: boolean): Map<NodeId, ServerLabels> =>
      serverLabelFit(inner, at.pos, at.side, at.r, textScale, { full: labelW.server, version: labelW.version }, [...workers, ...inner], labels, new Set(workers), marks);
    const fit = fitWith(zigzag);
    const count = (f: Map<NodeId, ServerLabels>): number => [...f.values()].reduce((a, m) => a + (m === 'full' ? 2 : m === 'version' ? 1 : 0), 0);
    // The strict count is wanted only where placements are compared (a crowded arc).
    return { fit, score: () => count(zigzag ? fit : fitWith(true)), ...at };
  };
  // Without labels the servers may spread to the workers' glyphs, less the leader's ring.
  const bare = Math.max(nodeR * 2, hasWorkers ? workerEdge - 4 - nodeR * 1.5 : width / 2 - nodeR * 1.5 - 6);
  let best = fitAt(wanted);
  // Kept close to the centre for labels that then found no room anyway (five servers between
  // two columns in a lesson's panel): the servers take the whole middle instead, unlabelled.
  if (wanted !== 'none' && inner.every((id) => best.fit.get(id) === 'none')) best = fitAt('none');
  // Three or more servers on one side of a short panel (a partition puts four of five on the
  // left) crowd an arc: glyphs shrink, labels go, a crown lands on a neighbour's label. Where
  // the arc is crowded so, rows in a zigzag over the whole height are kept if they leave more
  // labels clear of every glyph, ring and crown, or as many with larger glyphs.
  const arcCrowded = best.r < workerR - 0.5 || inner.some((id) => best.fit.get(id) === 'none');
  if (inner.length >= 4 && wanted !== 'none' && arcCrowded) {
    const zig = fitAt(wanted, true);
    const gain = zig.score() - best.score();
    if (gain > 0 || (gain === 0 && zig.r > best.r + 0.5)) best = zig;
  }
  for (const [id, p] of best.pos) pos.set(id, p);
  for (const [id, sd] of best.side) side.set(id, sd);
  nodeR = best.r;
  const fit = best.fit;
  for (const id of inner) {
    if (fit.get(id) === 'none') unlabelled.add(id);
    else if (fit.get(id) === 'version') termless.add(id);
  }
  // Two label lines need ~30 px; closer than that, workers keep only their version. A staggered
  // column labels every k-th worker, k rows apart.
  const spacing = rowGapOf(perColumn);
  // Any server may lead: where its crown above would sit on a neighbour, it goes under the glyph.
  const crownBelow = crownsBelow(inner, pos, nodeR, textScale, new Set(workers), top + h);
  return { pos, cx, cy, rx: xCol, ry: Math.max(h / 2 - yPad, 1), nodeR, side, kind: 'cluster', dense: spacing * stagger < 2 * nodeR + 8 || stagger > 1, rowGap: spacing, unlabelled, termless, crownBelow, labelOut: new Map(), textScale };
}
