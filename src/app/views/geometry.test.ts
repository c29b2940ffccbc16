import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hiddenByRivals, labelsApart, topologyLayout } from './geometry';
import { convexHull, directedSegment, flightFraction, groupsFromDrop, idFontPx, lerpSeg, nodeHitRect, pairLinks, textOn } from './topologyMath';
import { crownBox, labelPlacement, nodeHitBox, overlap, placedLabelBox } from './nodeLabels';
import { LEADER_RING_OUT, PROGRESS_RING_OUT, estimatedRoom } from './layoutBasics';

const four = ['w0', 'w1', 'w2', 'w3'].map((id) => ({ id, role: 'worker' as const }));

describe('topologyLayout', () => {
  it('puts workers on a circle in ring order, none on the centre line, servers in the centre', () => {
    const lay = topologyLayout([...four, { id: 's0', role: 'server' }], 400, 300);
    const p = (id: string) => lay.pos.get(id)!;
    expect(p('s0')).toEqual({ x: 200, y: 150 });
    for (const w of ['w0', 'w1', 'w2', 'w3']) expect(((p(w).x - 200) / lay.rx) ** 2 + ((p(w).y - 150) / lay.ry) ** 2).toBeCloseTo(1);
    // clockwise from the top right: w0, w1 on the right; w2, w3 on the left
    expect(p('w0').x).toBeGreaterThan(200);
    expect(p('w1').x).toBeGreaterThan(200);
    expect(p('w2').x).toBeLessThan(200);
    expect(p('w3').x).toBeLessThan(200);
    expect(p('w0').y).toBeLessThan(p('w1').y);
  });
  it('sorts w10 after w9 and spreads several servers in a row across the centre', () => {
    const nodes = Array.from({ length: 11 }, (_, i) => ({ id: `w${i}`, role: 'worker' as const }));
    const lay = topologyLayout([...nodes, { id: 's0', role: 'server' }, { id: 's1', role: 'server' }, { id: 's2', role: 'server' }], 800, 600);
    const ang = (id: string) => Math.atan2(lay.pos.get(id)!.y - 300, lay.pos.get(id)!.x - 400);
    const norm = (a: number) => (a + 2 * Math.PI + Math.PI / 2) % (2 * Math.PI);
    expect(norm(ang('w10'))).toBeGreaterThan(norm(ang('w9')));
    const servers = ['s0', 's1', 's2'].map((s) => lay.pos.get(s)!);
    expect(new Set(servers.map((s) => `${s.x},${s.y}`)).size).toBe(3);
    // Inside the ring, in a row with room for each one's labels.
    for (const s of servers) expect(((s.x - 400) / lay.rx) ** 2 + ((s.y - 300) / lay.ry) ** 2).toBeLessThan(0.5);
    expect(Math.abs(servers[1].x - servers[0].x)).toBeGreaterThanOrEqual(lay.nodeR * 3.5);
  });
});

describe('cluster layout (several servers or brokers)', () => {
  const ws = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `w${i}`, role: 'worker' as const }));
  const ss = (n: number, p = 's') => Array.from({ length: n }, (_, i) => ({ id: `${p}${i}`, role: (p === 'b' ? 'broker' : 'server') as 'server' | 'broker' }));
  type Box = { x0: number; x1: number; y0: number; y1: number; id: string };
  /** Glyph and label boxes (labels: "v1234" at 15 px mono, "term 12" / "wasm" at 12 px). */
  const boxes = (lay: ReturnType<typeof topologyLayout>): Box[] => {
    const R = lay.nodeR;
    const out: Box[] = [];
    for (const [id, p] of lay.pos) {
      out.push({ id, x0: p.x - R, x1: p.x + R, y0: p.y - R, y1: p.y + R });
      const sd = lay.side.get(id)!;
      const a = p.x + sd * (R + 8);
      const b = a + sd * 48;
      out.push({ id: `${id}:label`, x0: Math.min(a, b), x1: Math.max(a, b), y0: p.y - 13, y1: p.y + (lay.dense && id[0] === 'w' ? 5 : 18) });
    }
    return out;
  };
  const overlaps = (bs: Box[]): string[] => {
    const hits: string[] = [];
    for (let i = 0; i < bs.length; i++)
      for (let j = i + 1; j < bs.length; j++) {
        const [a, b] = [bs[i], bs[j]];
        if (a.id.split(':')[0] === b.id.split(':')[0]) continue;
        if (a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) hits.push(`${a.id} × ${b.id}`);
      }
    return hits;
  };
  const cases: [string, { id: string; role: 'worker' | 'server' | 'broker' }[]][] = [
    ['raft 4 + 5', [...ws(4), ...ss(5)]],
    ['raft 8 + 5', [...ws(8), ...ss(5)]],
    ['kafka 4 + 3 brokers + 2 PS', [...ws(4), ...ss(3, 'b'), ...ss(2)]],
    ['raft 4 + 3', [...ws(4), ...ss(3)]],
  ];
  for (const [name, nodes] of cases)
    for (const [w, h] of [
      [460, 250],
      [700, 380],
    ])
      it(`${name} at ${w}×${h}: no glyph or label overlaps another node's, all inside the panel`, () => {
        const lay = topologyLayout(nodes, w, h);
        expect(lay.kind).toBe('cluster');
        const bs = boxes(lay);
        expect(overlaps(bs)).toEqual([]);
        for (const b of bs) {
          expect(b.x0).toBeGreaterThanOrEqual(0);
          expect(b.x1).toBeLessThanOrEqual(w);
          expect(b.y0).toBeGreaterThanOrEqual(0);
          expect(b.y1).toBeLessThanOrEqual(h);
        }
      });
  it("a server's labels clear the workers' progress rings, not only their glyphs (16 workers at 1280 presenter: s3's \"term 1\" ran into w11's ring)", () => {
    const nodes = [...ws(16), ...ss(5)];
    // Panels about 1280 presenter's (k = 17/15) and a desk's, short enough that the columns stagger.
    for (const [w, h, k] of [[466, 175, 17 / 15], [466, 190, 17 / 15], [440, 180, 1], [520, 200, 1.2]] as const) {
      const lay = topologyLayout(nodes, w, h, 0, undefined, undefined, k);
      const room = estimatedRoom(k);
      const ring = lay.nodeR + PROGRESS_RING_OUT;
      for (const s of ['s0', 's1', 's2', 's3', 's4']) {
        if (lay.unlabelled.has(s)) continue;
        const full = !lay.termless.has(s);
        const b = placedLabelBox(lay.pos.get(s)!, { x: lay.side.get(s)!, y: 0 }, lay.nodeR, full, full ? room.server : room.version, k);
        for (let i = 0; i < 16; i++) {
          const p = lay.pos.get(`w${i}`)!;
          const hit = b.x0 < p.x + ring && p.x - ring < b.x1 && b.y0 < p.y + ring && p.y - ring < b.y1;
          expect(hit, `${w}×${h}: ${s}'s label over w${i}'s ring`).toBe(false);
        }
      }
    }
  });
  it('splits workers and servers left/right, none on the centre line; a partition moves servers to their group', () => {
    const nodes = [...ws(4), ...ss(5)];
    const lay = topologyLayout(nodes, 460, 250);
    const x = (id: string) => lay.pos.get(id)!.x - lay.cx;
    expect(['w0', 'w1', 's0', 's1'].every((id) => x(id) > 0)).toBe(true);
    expect(['w2', 'w3', 's2', 's3', 's4'].every((id) => x(id) < 0)).toBe(true);
    const part = topologyLayout(nodes, 460, 250, 0, undefined, [['w2', 'w3', 's1', 's2', 's3', 's4'], ['s0', 'w0', 'w1']]);
    expect(part.pos.get('s0')!.x).toBeGreaterThan(part.cx);
    expect(['s1', 's2', 's3', 's4'].every((id) => part.pos.get(id)!.x < part.cx)).toBe(true);
    // Drag-to-partition still splits by the centre line.
    expect(groupsFromDrop(lay.pos, 'w0', { x: 20, y: 20 }, lay.cx)).toEqual([['w0', 'w2', 'w3', 's2', 's3', 's4'], ['w1', 's0', 's1']]);
  });
  it('leaves the servers room for labels that grow with the type, and drops them where none is left', () => {
    const nodes = [...ws(4), ...ss(5)];
    // Presenter type at 1920 (24 px root): the servers' ellipse narrows, so that a server's label
    // (glyph edge + gap + label room) ends before the worker column's glyphs.
    const big = topologyLayout(nodes, 700, 300, 0, undefined, undefined, 1.6);
    const small = topologyLayout(nodes, 700, 300);
    const maxServerX = (l: typeof big) => Math.max(...['s0', 's1', 's2', 's3', 's4'].map((id) => l.pos.get(id)!.x - l.cx));
    expect(maxServerX(big)).toBeLessThan(maxServerX(small));
    expect(maxServerX(big) + big.nodeR + 8 * 1.6 + 50 * 1.6).toBeLessThanOrEqual(big.pos.get('w0')!.x - big.cx - big.nodeR);
    expect(big.unlabelled.size).toBe(0);
    // A 1024-wide projector's topology panel (~370 px) has no room between servers and workers.
    const narrow = topologyLayout(nodes, 370, 230, 0, undefined, undefined, 1.13);
    expect([...narrow.unlabelled].sort()).toEqual(['s0', 's1', 's2', 's3', 's4']);
    // Unlabelled, they take the middle rather than huddle where their labels would have gone
    // (paxos-vs-2pc's 393×150 panels drew five squares touching in a 50-px band), and still stop
    // short of the workers by the leader's ring.
    for (const [w, h, k] of [[370, 230, 1.13], [393, 150, 17 / 15]] as const) {
      const lay = topologyLayout(nodes, w, h, 0, undefined, undefined, k);
      const sx = ['s0', 's1', 's2', 's3', 's4'].map((id) => lay.pos.get(id)!.x);
      const workerInner = lay.pos.get('w0')!.x - lay.pos.get('w3')!.x - 2 * lay.nodeR;
      expect(Math.max(...sx) - Math.min(...sx)).toBeGreaterThan(0.5 * workerInner);
      for (const s of ['s0', 's1', 's2', 's3', 's4'])
        for (const wk of ['w0', 'w1', 'w2', 'w3'])
          expect(Math.hypot(lay.pos.get(s)!.x - lay.pos.get(wk)!.x, lay.pos.get(s)!.y - lay.pos.get(wk)!.y)).toBeGreaterThanOrEqual(2.5 * lay.nodeR + 4);
    }
    // A lesson's side-by-side panel (~440 px): room for a server's version, not for its term line.
    const side = topologyLayout(nodes, 440, 190, 0, undefined, undefined, 1.13);
    expect(side.unlabelled.size).toBe(0);
    expect([...side.termless].sort()).toEqual(['s0', 's1', 's2', 's3', 's4']);
    const versionEnd = Math.max(...['s0', 's1'].map((id) => side.pos.get(id)!.x - side.cx)) + side.nodeR + 8 * 1.13 + 36 * 1.13;
    expect(versionEnd + 4).toBeLessThanOrEqual(side.pos.get('w0')!.x - side.cx - side.nodeR);
    // Where the term line fits, it is drawn.
    expect(topologyLayout(nodes, 700, 300, 0, undefined, undefined, 1.6).termless.size).toBe(0);
    // The offsets scale too: a label beside a glyph starts 8 px of type away from it.
    expect(labelPlacement({ x: 1, y: 0 }, 20, true, 1.6)).toMatchObject({ x: 20 + 8 * 1.6, yBackend: 14 * 1.6 });
  });
  it("a leader's crown goes under its glyph where above it would sit on another node, never onto one (ZooKeeper: c0's crown sat on s0's square)", () => {
    const role = (id: string) => (id[0] === 'w' ? 'worker' : id[0] === 'c' ? 'coord' : id[0] === 'b' ? 'broker' : 'server') as 'worker' | 'server';
    const rosters = [
      ['w0', 'w1', 'w2', 'w3', 's0', 'c0', 'c1', 'c2'],
      ['w0', 'w1', 'w2', 'w3', 's0', 's1', 's2', 's3', 's4'],
      ['w0', 'w1', 'w2', 'w3', 's0', 'b0', 'b1', 'b2'],
      ['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'c0', 'c1', 'c2'],
    ];
    let below = 0;
    for (const ids of rosters)
      for (const [w, h, k] of [
        [466, 150, 14 / 15],
        [392, 145, 15.861 / 15],
        [392, 110, 1],
        [640, 260, 1.2],
      ] as const) {
        const lay = topologyLayout(ids.map((id) => ({ id, role: role(id) })), w, h, 0, undefined, undefined, k);
        const R = lay.nodeR;
        const box = (id: string, e: number) => ({ x0: lay.pos.get(id)!.x - e, x1: lay.pos.get(id)!.x + e, y0: lay.pos.get(id)!.y - e, y1: lay.pos.get(id)!.y + e });
        for (const id of ids.filter((x) => x[0] !== 'w')) {
          const p = lay.pos.get(id)!;
          const under = lay.crownBelow?.has(id) ?? false;
          const c = crownBox(R, k, under);
          const crown = { x0: p.x + c.x0, x1: p.x + c.x1, y0: p.y + c.y0, y1: p.y + c.y1 };
          const hitsAt = (b: typeof crown) => ids.filter((o) => o !== id && overlap(b, box(o, R + (o[0] === 'w' ? PROGRESS_RING_OUT : LEADER_RING_OUT))));
          const where = `${ids.join(',')} at ${w}×${h}: ${id}'s crown`;
          if (under) {
            // Under the glyph only where it is clear there and inside the panel…
            below++;
            expect(hitsAt(crown), where).toEqual([]);
            expect(crown.y1).toBeLessThanOrEqual(h);
          } else if (hitsAt(crown).length > 0) {
            // …and wherever above is not clear but under would be.
            const u = crownBox(R, k, true);
            const alt = { x0: p.x + u.x0, x1: p.x + u.x1, y0: p.y + u.y0, y1: p.y + u.y1 };
            expect(hitsAt(alt).length > 0 || alt.y1 > h, where).toBe(true);
          }
        }
        if (ids.includes('c0') && ids.includes('s0') && w === 466) {
          // The lock's picture at 1280: s0 above c0, the leader's crown under c0, clear of s0.
          expect(lay.crownBelow?.has('c0')).toBe(true);
        }
      }
    expect(below).toBeGreaterThan(0);
  });
  it("four of five servers on one side of a short panel stand in a zigzag, as large as the workers, their labels clear of every glyph, leader ring and crown (raft-ps-majority's partition at 1280)", () => {
    const nodes = [...ws(4), ...ss(5)];
    const groups = [['w0', 'w1', 's0'], ['w2', 'w3', 's1', 's2', 's3', 's4']];
    // The topology panel at 1280 (desk and presenter), with the label room the page measured there.
    for (const [w, h, k, room] of [
      [466, 150, 14 / 15, { worker: 48, server: 44, version: 37 }],
      [465, 169, 15.861 / 15, { worker: 54, server: 49, version: 41 }],
    ] as const) {
      const lay = topologyLayout(nodes, w, h, 0, undefined, groups, k, room);
      const R = lay.nodeR;
      const left = ['s1', 's2', 's3', 's4'];
      // Each server on its group's side of the centre line (drag-to-partition reads it), the
      // glyphs as large as the workers' (an arc shrank them to 12.8 px), squares apart.
      expect(left.every((id) => lay.pos.get(id)!.x + R < lay.cx)).toBe(true);
      expect(lay.pos.get('s0')!.x).toBeGreaterThan(lay.cx);
      expect(R).toBeGreaterThan(15);
      for (const a of ['s0', ...left])
        for (const b of ['s0', ...left]) {
          if (a >= b) continue;
          const [p, q] = [lay.pos.get(a)!, lay.pos.get(b)!];
          expect(Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y)), `${a}, ${b}`).toBeGreaterThanOrEqual(2 * R + 4);
        }
      // The rows use the height: top to bottom more than the arc's 70 px.
      const ys = left.map((id) => lay.pos.get(id)!.y);
      expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(0.5 * h);
      // Labels drawn for at least three of the five servers (four at the desk's size), none over a
      // glyph, a leader's ring or a crown.
      const drawn = ['s0', ...left].filter((id) => !lay.unlabelled.has(id));
      expect(drawn.length).toBeGreaterThanOrEqual(3);
      const room2 = (id: string) => (lay.termless.has(id) ? room.version : room.server);
      for (const id of drawn) {
        const b = placedLabelBox(lay.pos.get(id)!, { x: lay.side.get(id)!, y: 0 }, R, !lay.termless.has(id), room2(id), k);
        for (const [other, p] of lay.pos) {
          if (other === id) continue;
          const isServer = other[0] === 's';
          const e = isServer ? R + 6 : R + PROGRESS_RING_OUT;
          const hitGlyph = b.x0 < p.x + e && p.x - e < b.x1 && b.y0 < p.y + e && p.y - e < b.y1;
          expect(hitGlyph, `${w}×${h}: ${id}'s label over ${other}`).toBe(false);
          if (!isServer) continue;
          const crown = { x0: p.x - 7 * k, x1: p.x + 7 * k, y0: p.y - R - 10 - 12 * k, y1: p.y - R - 8 };
          expect(b.x0 < crown.x1 && crown.x0 < b.x1 && b.y0 < crown.y1 && crown.y0 < b.y1, `${w}×${h}: ${id}'s label over ${other}'s crown`).toBe(false);
        }
      }
      // Without the partition, the same panel keeps its arc: three left, two right, labels outwards.
      const plain = topologyLayout(nodes, w, h, 0, undefined, undefined, k, room);
      expect(['s2', 's3', 's4'].every((id) => plain.side.get(id) === -1 && plain.pos.get(id)!.x < plain.cx)).toBe(true);
    }
  });
  it('keeps 16 workers apart (version labels only when packed) and the star and ring layouts unchanged', () => {
    const lay = topologyLayout([...ws(16), ...ss(5)], 460, 260);
    expect(overlaps(boxes(lay))).toEqual([]);
    expect(topologyLayout([...ws(4), ...ss(1)], 460, 260).kind).toBe('ring');
    expect(topologyLayout(ws(4), 460, 260).kind).toBe('ring');
  });
});

describe('version labels on a crowded ring', () => {
  it("a worker's version is left out only while it would touch its neighbour's (\"v171v149\" at 1024 presenter)", () => {
    const nodes = [...Array.from({ length: 8 }, (_, i) => ({ id: `w${i}`, role: 'worker' as const })), { id: 's0', role: 'server' as const }];
    // A four-run lesson's panel at 1024 presenter: the top pair's labels sit side by side.
    const lay = topologyLayout(nodes, 308, 136, 0, undefined, undefined, 1.152, { worker: 53, server: 42, version: 42 });
    expect(lay.rivals?.get('w7')).toEqual(['w0']);
    expect(lay.unlabelled.has('w7')).toBe(false);
    // 10.5 px a character (42 px for "v888"): "v12" beside "v12" stand apart, "v171" beside "v149" do not.
    expect(labelsApart(lay, 'w7', 'w0', 3, 3, 10.5)).toBe(true);
    expect(labelsApart(lay, 'w7', 'w0', 4, 4, 10.5)).toBe(false);
    expect(hiddenByRivals(lay, (id) => (id === 'w7' ? 171 : id === 'w0' ? 149 : 12), 10.5)).toEqual(new Set(['w7']));
    expect(hiddenByRivals(lay, () => 12, 10.5).size).toBe(0);
    // Workers without a rival are always drawn.
    expect(lay.rivals?.has('w1')).toBe(false);
  });
  it('a label left out for its rival does not hide the next one in a chain (16 workers: w10 → w9 → w8 → w7)', () => {
    const nodes = [...Array.from({ length: 16 }, (_, i) => ({ id: `w${i}`, role: 'worker' as const })), { id: 's0', role: 'server' as const }];
    const lay = topologyLayout(nodes, 380, 200, 0, undefined, undefined, 1, { worker: 53, server: 42, version: 42 });
    expect([lay.rivals?.get('w8'), lay.rivals?.get('w9'), lay.rivals?.get('w10')]).toEqual([['w7'], ['w8'], ['w9']]);
    const charW = 42 / 4;
    // Three-digit versions everywhere: each rival's label would touch its neighbour's.
    const all = hiddenByRivals(lay, () => 171, charW);
    // w7 is drawn, so w8 is out; with w8 out, w9 stands beside nothing and is drawn; then w10 is out.
    expect(all.has('w8')).toBe(true);
    expect(all.has('w9')).toBe(false);
    expect(all.has('w10')).toBe(true);
    // One-digit versions stand apart: nothing is left out.
    expect(hiddenByRivals(lay, () => 1, charW).size).toBe(0);
    // w15 could touch both w0 and w14: each is its rival.
    expect(lay.rivals?.get('w15')).toEqual(['w0', 'w14']);
  });
  it('whatever the versions, no two drawn labels touch and each label left out touches a drawn one', () => {
    const nodes = [...Array.from({ length: 16 }, (_, i) => ({ id: `w${i}`, role: 'worker' as const })), { id: 's0', role: 'server' as const }];
    const lay = topologyLayout(nodes, 380, 200, 0, undefined, undefined, 1, { worker: 53, server: 42, version: 42 });
    const charW = 42 / 4;
    const len = (v: number): number => `v${v}`.length;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1200 }), { minLength: 16, maxLength: 16 }), (vs) => {
        const v = (id: string): number => vs[Number(id.slice(1))];
        const hidden = hiddenByRivals(lay, v, charW);
        for (const [id, rivals] of lay.rivals ?? []) {
          const drawnRivals = rivals.filter((r) => !hidden.has(r));
          const apart = drawnRivals.map((r) => labelsApart(lay, id, r, len(v(id)), len(v(r)), charW));
          if (hidden.has(id)) expect(apart).toContain(false);
          else expect(apart.every(Boolean)).toBe(true);
        }
      }),
    );
  });
});

describe('crowded topologies', () => {
  const ws = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `w${i}`, role: 'worker' as const }));
  const ss = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, role: 'server' as const }));
  /** Pairs of glyph circles (radius nodeR) that intersect or touch. */
  const touching = (lay: ReturnType<typeof topologyLayout>): string[] => {
    const ps = [...lay.pos];
    const out: string[] = [];
    for (let i = 0; i < ps.length; i++)
      for (let j = i + 1; j < ps.length; j++) {
        const d = Math.hypot(ps[i][1].x - ps[j][1].x, ps[i][1].y - ps[j][1].y);
        if (d < 2 * lay.nodeR) out.push(`${ps[i][0]}×${ps[j][0]} ${d.toFixed(1)} < ${(2 * lay.nodeR).toFixed(1)}`);
      }
    return out;
  };
  // The topology panel's drawing at 1280×720 with a node selected (468×128), a roomier one, a
  // projector's, and a narrow tall one.
  const sizes = [
    [468, 128],
    [460, 250],
    [700, 380],
    [1000, 560],
    [360, 300],
  ];
  for (const w of [2, 4, 8, 16])
    for (const sv of [1, 2, 3, 4, 5])
      it(`${w} workers + ${sv} server(s): no two glyphs overlap, every glyph inside the panel, no hit box over another node's centre`, () => {
        for (const [width, height] of sizes) {
          const lay = topologyLayout([...ws(w), ...ss(sv)], width, height);
          expect(touching(lay), `${width}×${height}`).toEqual([]);
          for (const [id, p] of lay.pos) {
            expect(p.x - lay.nodeR, `${id} at ${width}×${height}`).toBeGreaterThanOrEqual(0);
            expect(p.x + lay.nodeR, `${id} at ${width}×${height}`).toBeLessThanOrEqual(width);
            expect(p.y - lay.nodeR, `${id} at ${width}×${height}`).toBeGreaterThanOrEqual(0);
            expect(p.y + lay.nodeR, `${id} at ${width}×${height}`).toBeLessThanOrEqual(height);
            const isWorker = id[0] === 'w';
            const lp = labelPlacement(lay.side.has(id) ? { x: lay.side.get(id)!, y: 0 } : { x: 1, y: 0 }, lay.nodeR, isWorker && !lay.dense);
            const hit = nodeHitRect(lay, id, isWorker, nodeHitBox(lp, lay.nodeR, 5, isWorker ? 4 : 7));
            for (const [other, q] of lay.pos) {
              if (other === id) continue;
              const inside = Math.abs(q.x - p.x) < hit.width / 2 && Math.abs(q.y - p.y) < hit.height / 2;
              expect(inside, `${id}'s hit box over ${other} at ${width}×${height}`).toBe(false);
            }
          }
          // The glyphs stay big enough for their ids at every size but the smallest.
          if (height >= 250) expect(lay.nodeR, `${width}×${height}`).toBeGreaterThanOrEqual(11);
        }
      });
  it("a large ring keeps the side workers' labels inside the panel (w1 and w4 of six were left out at 1920 px)", () => {
    // The interview scenario's ring all-reduce at 1920×1080: a 703×495 panel, 28-px glyphs.
    const lay = topologyLayout(ws(6), 703, 495, 0, undefined, undefined, 1, { worker: 40, server: 40, version: 32 });
    expect(lay.nodeR).toBe(28);
    expect(lay.unlabelled.size).toBe(0);
  });
  it("a short ring leaves room above its top row for a slow worker's clock badge (cut at the panel's top edge)", () => {
    // The interview lesson's ring at 1280 presenter: a 396×104 panel, six workers in two rows.
    const lay = topologyLayout(ws(6), 396, 104, 0, undefined, undefined, 1.13);
    expect(lay.kind).toBe('ring');
    for (const [id, p] of lay.pos) {
      // topologyNodes: the badge's box starts 0.95 R + 9 px above the glyph's centre.
      expect(p.y - 0.95 * lay.nodeR - 9, id).toBeGreaterThanOrEqual(-1e-9);
      expect(p.y + lay.nodeR, id).toBeLessThanOrEqual(104);
    }
  });
  it('staggers 16 workers in a short panel into two sub-columns, labelling only the outer one', () => {
    const lay = topologyLayout([...ws(16), ...ss(5)], 468, 128);
    expect(lay.nodeR).toBeGreaterThanOrEqual(11);
    const xs = new Set(['w0', 'w1', 'w2', 'w3'].map((id) => Math.round(lay.pos.get(id)!.x)));
    expect(xs.size).toBe(2);
    // Outer sub-column (w0, w2 …) further out than the inner one, and labelled.
    expect(lay.pos.get('w0')!.x).toBeGreaterThan(lay.pos.get('w1')!.x);
    expect(lay.unlabelled.has('w0')).toBe(false);
    expect(lay.unlabelled.has('w1')).toBe(true);
    // Every labelled worker's version label (15 px) clears the next labelled one's.
    const labelled = [...lay.pos].filter(([id]) => id[0] === 'w' && !lay.unlabelled.has(id) && lay.side.get(id) === 1).map(([, p]) => p.y).sort((a, b) => a - b);
    for (let i = 1; i < labelled.length; i++) expect(labelled[i] - labelled[i - 1]).toBeGreaterThanOrEqual(16);
    // Servers keep clear of the inner sub-column.
    const innerX = lay.pos.get('w1')!.x;
    for (const s of ['s0', 's1']) expect(innerX - lay.pos.get(s)!.x).toBeGreaterThan(2 * lay.nodeR);
  });
  it('leaves four workers as they were: one column each side, all labelled', () => {
    const lay = topologyLayout([...ws(4), ...ss(5)], 468, 128);
    expect(lay.unlabelled.size).toBe(0);
    expect(lay.nodeR).toBeGreaterThanOrEqual(13);
    expect(lay.pos.get('w0')!.x).toBeCloseTo(lay.pos.get('w1')!.x, 0);
  });
  it('sizes the id to the glyph: 12 px usually, smaller only when it would not fit', () => {
    expect(idFontPx(20, 2)).toBe(12);
    expect(idFontPx(13, 2)).toBe(12);
    expect(idFontPx(26, 3)).toBeCloseTo(15.6);
    expect(idFontPx(11, 3)).toBeLessThan(12);
    expect(idFontPx(11, 3) * 0.7 * 3).toBeCloseTo(2 * 11 - 2);
  });
});

describe('pairLinks', () => {
  it('groups both directions of an edge', () => {
    const pairs = pairLinks([
      { from: 'w1', to: 'w0' },
      { from: 'w0', to: 'w1' },
      { from: 'w2', to: 's0' },
    ]);
    expect(pairs.map((p) => p.key)).toEqual(['w0|w1', 'w2|s0']);
    expect(pairs[0].ab).toEqual({ from: 'w0', to: 'w1' });
    expect(pairs[0].ba).toEqual({ from: 'w1', to: 'w0' });
    expect(pairs[1].ba).toBeUndefined();
  });
});

describe('segments and flight', () => {
  it('offsets to the right of travel and trims at the glyphs', () => {
    const s = directedSegment({ x: 0, y: 0 }, { x: 100, y: 0 }, 4, 10);
    expect(s).toEqual({ x1: 10, y1: 4, x2: 90, y2: 4 });
    const r = directedSegment({ x: 100, y: 0 }, { x: 0, y: 0 }, 4, 10);
    expect(r.y1).toBeCloseTo(-4);
  });
  it('interpolates by (t - sentAt) / (due - sentAt), clamped, so a pause freezes the dot', () => {
    expect(flightFraction(15, 10, 20)).toBe(0.5);
    expect(flightFraction(5, 10, 20)).toBe(0);
    expect(flightFraction(25, 10, 20)).toBe(1);
    expect(flightFraction(10, 10, 10)).toBe(1);
    expect(lerpSeg({ x1: 0, y1: 0, x2: 10, y2: 20 }, 0.5)).toEqual({ x: 5, y: 10 });
  });
});

describe('groupsFromDrop', () => {
  const lay = topologyLayout([...four, { id: 's0', role: 'server' }], 400, 300);
  it('splits by the centre line; the server goes with the side of the drop', () => {
    // w0 (right) dragged to the left: w1 is alone on the right.
    expect(groupsFromDrop(lay.pos, 'w0', { x: 50, y: 50 }, lay.cx)).toEqual([['w0', 'w2', 'w3', 's0'], ['w1']]);
    // w2 (left) dropped far out on the left: the natural halves, server with the left.
    expect(groupsFromDrop(lay.pos, 'w2', { x: 20, y: 280 }, lay.cx)).toEqual([['w0', 'w1'], ['w2', 'w3', 's0']]);
  });
  it('refuses a drop that leaves one side empty', () => {
    const two = topologyLayout([{ id: 'w0', role: 'worker' }], 400, 300);
    expect(groupsFromDrop(two.pos, 'w0', { x: 10, y: 10 }, two.cx)).toBeNull();
  });
});

describe('misc', () => {
  it('textOn picks readable text on the Okabe–Ito fills', () => {
    expect(textOn('#F0E442')).toBe('#111');
    expect(textOn('#E69F00')).toBe('#111');
    expect(textOn('#0072B2')).toBe('#fff');
  });
  it('convexHull drops interior points', () => {
    const h = convexHull([
      { x: 0, y: 0 },
      { x: 2, y: 0 },
      { x: 1, y: 1 },
      { x: 2, y: 2 },
      { x: 0, y: 2 },
    ]);
    expect(h).toHaveLength(4);
  });
});

describe('labelPlacement', () => {
  it('puts labels beside side nodes, above top nodes, below bottom and centre nodes', () => {
    expect(labelPlacement({ x: 0.7, y: -0.7 }, 20, true)).toMatchObject({ x: 28, anchor: 'start' });
    expect(labelPlacement({ x: -0.7, y: 0.7 }, 20, true)).toMatchObject({ x: -28, anchor: 'end' });
    const top = labelPlacement({ x: 0, y: -1 }, 20, true);
    expect(top.anchor).toBe('middle');
    expect(top.yVersion).toBeLessThan(-20);
    expect(top.yBackend).toBeLessThan(top.yVersion);
    expect(labelPlacement({ x: 0, y: 1 }, 20, false).yVersion).toBeGreaterThan(20);
  });
});

describe('nodeHitBox', () => {
  it('is centred on the glyph and covers side labels', () => {
    const lp = labelPlacement({ x: 0.7, y: -0.7 }, 15, true);
    const b = nodeHitBox(lp, 15, 4, 5);
    expect(b.x + b.width / 2).toBeCloseTo(0);
    expect(b.y + b.height / 2).toBeCloseTo(0);
    expect(b.x + b.width).toBeGreaterThan(lp.x + 4 * 9);
  });
});
