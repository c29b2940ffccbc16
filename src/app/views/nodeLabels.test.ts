import { describe, expect, it } from 'vitest';
import { topologyLayout } from './geometry';
import { labelBox, labelPlacement, outOf, ringLabelFit } from './nodeLabels';

const star = (n: number) => [...Array.from({ length: n }, (_, i) => ({ id: `w${i}`, role: 'worker' as const })), { id: 's0', role: 'server' as const }];
const workers = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
// A lesson's panel in presenter mode at 1280×720 (17 px root): "webgpu" for a worker, "v888" alone.
const room = { worker: 48, server: 42, version: 42 };

describe('a ring keeps its labels apart', () => {
  it("seven workers around a server in a lesson's small panel: versions only, clear of each other and every glyph", () => {
    const k = 17 / 15;
    const lay = topologyLayout(star(7), 392, 188, 0, undefined, undefined, k, room);
    expect(lay.dense).toBe(true); // the backend line went
    const fit = ringLabelFit(workers(7), 's0', lay.pos, { x: lay.cx, y: lay.cy }, lay.nodeR, k, { worker: room.version, server: room.version }, false);
    expect(fit.clear).toBe(true);
    // The server's version is not drawn over w3, the worker below it.
    const s0 = lay.pos.get('s0')!;
    const w3 = lay.pos.get('w3')!;
    const lp = labelPlacement(lay.labelOut.get('s0') ?? { x: 0, y: 1 }, lay.nodeR, false, k);
    const b = labelBox(lp, false, room.version, k);
    const clearOfW3 = b.x1 + s0.x <= w3.x - lay.nodeR || b.x0 + s0.x >= w3.x + lay.nodeR || b.y1 + s0.y <= w3.y - lay.nodeR || b.y0 + s0.y >= w3.y + lay.nodeR;
    expect(clearOfW3).toBe(true);
  });

  it('four workers in the 1280-px panel keep both lines (version and backend)', () => {
    const lay = topologyLayout(star(4), 466, 236, 0, undefined, undefined, 1, { worker: 46, server: 36, version: 36 });
    expect(lay.dense).toBe(false);
    expect(lay.labelOut.has('s0')).toBe(false); // its version below it, as always
    expect(ringLabelFit(workers(4), 's0', lay.pos, { x: lay.cx, y: lay.cy }, lay.nodeR, 1, { worker: 46, server: 36 }, true).clear).toBe(true);
  });

  it("where no side of the server is clear, its version goes where it covers least (not onto the worker below)", () => {
    const k = 17 / 15;
    const lay = topologyLayout(star(7), 392, 180, 0, undefined, undefined, k, room);
    expect(lay.labelOut.get('s0')).toBeDefined();
  });

  it("eight workers around a server in a lesson's short panel (PACELC at 1280 and 1024 px, 88 and 91 px tall): every version drawn inside the panel, clear of the others and of every glyph", () => {
    const k = 14 / 15;
    const small = { worker: 45, server: 34, version: 34 };
    // The stage once the run's legend is under it.
    for (const [w, h] of [
      [396, 88],
      [311, 91],
    ]) {
      const lay = topologyLayout(star(8), w, h, 0, undefined, undefined, k, small);
      const centre = { x: lay.cx, y: lay.cy };
      const ids = [...workers(8), 's0'];
      // At 1280 px every worker keeps its version beside it; at 1024 there is no room for that,
      // and the labels the panel would cut are left out (the versions are in the tooltips).
      if (w === 396) expect(lay.unlabelled.size).toBe(0);
      const boxes = ids.filter((id) => !lay.unlabelled.has(id)).map((id) => {
        const p = lay.pos.get(id)!;
        const lp = labelPlacement(lay.labelOut.get(id) ?? (id === 's0' ? { x: 0, y: 1 } : outOf(p, centre)), lay.nodeR, false, k);
        const b = labelBox(lp, false, small.version, k);
        return { id, x0: b.x0 + p.x, y0: b.y0 + p.y, x1: b.x1 + p.x, y1: b.y1 + p.y };
      });
      const hit = (a: { x0: number; y0: number; x1: number; y1: number }, b: { x0: number; y0: number; x1: number; y1: number }) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
      for (const b of boxes) {
        expect([b.x0, b.y0].every((v) => v >= 0) && b.x1 <= w && b.y1 <= h, `${w}×${h}: ${b.id}'s label inside the panel: ${JSON.stringify(b)}`).toBe(true);
        for (const o of boxes) if (o !== b) expect(hit(b, o), `${w}×${h}: ${b.id} and ${o.id}'s labels`).toBe(false);
        for (const id of ids) {
          if (id === b.id) continue;
          const q = lay.pos.get(id)!;
          const r = lay.nodeR;
          expect(hit(b, { x0: q.x - r, y0: q.y - r, x1: q.x + r, y1: q.y + r }), `${w}×${h}: ${b.id}'s label over ${id}`).toBe(false);
        }
      }
    }
  });

  it('two label boxes that overlap are found; a label pointing away from the centre goes beside a side node', () => {
    expect(outOf({ x: 10, y: 0 }, { x: 0, y: 0 })).toEqual({ x: 1, y: 0 });
    const pos = new Map([
      ['w0', { x: 0, y: 0 }],
      ['w1', { x: 30, y: 0 }],
    ]);
    expect(ringLabelFit(['w0', 'w1'], undefined, pos, { x: -100, y: 0 }, 10, 1, { worker: 40, server: 30 }, true).clear).toBe(false);
  });
});

describe("a cluster's servers keep their labels apart", () => {
  it('under a partition that puts four servers on one side, each keeps what fits and none overlaps; the lone one keeps both lines', () => {
    const nodes = [...['w0', 'w1', 'w2', 'w3'].map((id) => ({ id, role: 'worker' as const })), ...['s0', 's1', 's2', 's3', 's4'].map((id) => ({ id, role: 'server' as const }))];
    const groups = [
      ['w0', 'w1', 's0'],
      ['w2', 'w3', 's1', 's2', 's3', 's4'],
    ];
    const room = { worker: 46, server: 52, version: 36 };
    const lay = topologyLayout(nodes, 466, 150, 0, undefined, groups, 1, room);
    const servers = ['s0', 's1', 's2', 's3', 's4'];
    expect(lay.termless.has('s0') || lay.unlabelled.has('s0')).toBe(false);
    const boxes = servers
      .filter((id) => !lay.unlabelled.has(id))
      .map((id) => {
        const two = !lay.termless.has(id);
        const b = labelBox(labelPlacement({ x: lay.side.get(id)!, y: 0 }, lay.nodeR, two, 1), two, two ? room.server : room.version, 1);
        const p = lay.pos.get(id)!;
        return { id, x0: b.x0 + p.x, x1: b.x1 + p.x, y0: b.y0 + p.y, y1: b.y1 + p.y };
      });
    expect(boxes.length).toBeGreaterThanOrEqual(3);
    for (const a of boxes)
      for (const b of boxes) if (a.id < b.id) expect(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1, `${a.id} and ${b.id}`).toBe(false);
  });
});
