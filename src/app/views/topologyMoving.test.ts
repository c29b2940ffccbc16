import { describe, expect, it } from 'vitest';
import { pathRound, symbolsFill, type Path, type SymbolType } from 'd3';
import { drawSymbolAt } from '../palette';
import { dotsByKind, drawCross, dropsByStep, type DropGlyph, type FlightDot } from './topologyMoving';

type Call = [string, ...number[]];

/** Records a context's calls; the points' coordinates are what a translation must move. */
function recorder(): { calls: Call[]; ctx: Path & Parameters<SymbolType['draw']>[0] } {
  const calls: Call[] = [];
  const rec = (name: string) => (...a: unknown[]) => void calls.push([name, ...(a.filter((v) => typeof v === 'number') as number[])]);
  const ctx = { moveTo: rec('moveTo'), lineTo: rec('lineTo'), arc: rec('arc'), rect: rec('rect'), closePath: rec('closePath') };
  return { calls, ctx: ctx as unknown as Path & Parameters<SymbolType['draw']>[0] };
}

/** Which arguments of each call are an x and a y (the rest, radii, angles and sizes, stay put). */
const points: Record<string, [number, number][]> = { moveTo: [[1, 2]], lineTo: [[1, 2]], arc: [[1, 2]], rect: [[1, 2]], closePath: [] };

describe('moving parts', () => {
  it('draws each of the seven symbols at a point as the symbol at 0,0 moved there', () => {
    for (const type of symbolsFill) {
      const at0 = recorder();
      type.draw(at0.ctx, 64);
      const moved = recorder();
      drawSymbolAt(moved.ctx, type, 64, 30.5, -12);
      expect(moved.calls.map((c) => c[0])).toEqual(at0.calls.map((c) => c[0]));
      expect(at0.calls.length).toBeGreaterThan(0);
      moved.calls.forEach((c, i) => {
        const want = [...at0.calls[i]];
        for (const [xi, yi] of points[c[0]]) {
          want[xi] = (want[xi] as number) + 30.5;
          want[yi] = (want[yi] as number) - 12;
        }
        want.forEach((v, k) => (k === 0 ? expect(c[k]).toBe(v) : expect(c[k]).toBeCloseTo(v as number, 9)));
      });
    }
  });

  it('makes one path per kind, its dots as subpaths, in the kinds\' own order, empty where none flies', () => {
    const dot = (kind: string, x: number, si: number): FlightDot => ({ x, y: 10, kind, colour: `c-${kind}`, symbol: symbolsFill[si], area: 40 });
    const one = (si: number, x: number): string => {
      const p = pathRound(1);
      drawSymbolAt(p, symbolsFill[si], 40, x, 10);
      return p.toString();
    };
    const kinds = ['append', 'ack', 'vote'];
    const got = dotsByKind([dot('vote', 5, 0), dot('append', 50, 2), dot('vote', 100.04, 0)], kinds);
    // The order is the run's, not the order the dots came in, and a kind with none in flight stays (empty).
    expect(got.map((k) => k.kind)).toEqual(kinds);
    expect(got[2].colour).toBe('c-vote');
    // Positions to a tenth of a pixel, as the dots' transforms were: 100.04 draws at 100.
    expect(got[2].d).toBe(one(0, 5) + one(0, 100));
    expect(got[0].d).toBe(one(2, 50));
    expect(got[1].d).toBe('');
    // A kind the order does not know yet comes last.
    expect(dotsByKind([dot('new', 1, 1)], kinds).map((k) => [k.kind, k.d === ''])).toEqual([...kinds.map((k) => [k, true]), ['new', false]]);
    expect(dotsByKind([], [])).toEqual([]);
  });

  it('draws a ✕ as twelve corners reaching r along both diagonals, symmetric about its centre', () => {
    const { calls, ctx } = recorder();
    drawCross(ctx, 20, 30, 6.4);
    expect(calls.map((c) => c[0])).toEqual(['moveTo', ...Array<string>(11).fill('lineTo'), 'closePath']);
    const pts = calls.slice(0, 12).map((c) => [(c[1] as number) - 20, (c[2] as number) - 30]);
    const reach = Math.max(...pts.map(([x, y]) => Math.hypot(x, y)));
    // The tips' corners lie a little beyond r (half the arm's width to the side).
    expect(reach).toBeGreaterThan(6.4);
    expect(reach).toBeLessThan(6.4 * 1.02);
    // Turned by 45°: the tips lie on the diagonals; every corner has its mirror through the centre.
    for (const [x, y] of pts) expect(pts.some(([u, v]) => Math.abs(u + x) < 0.11 && Math.abs(v + y) < 0.11)).toBe(true);
    const tip = pts.reduce((a, b) => (Math.hypot(...b) > Math.hypot(...a) ? b : a));
    expect(Math.abs(Math.abs(tip[0]) - Math.abs(tip[1]))).toBeLessThan(6.4 / 3);
  });

  it('groups the ✕ by kind and fading step, keeps each group once drawn, and adds new ones after', () => {
    const g = (kind: string, x: number, opacity: number): DropGlyph => ({ kind, x, y: 5, colour: `c-${kind}`, opacity });
    const cross = (...xs: number[]): string => {
      const p = pathRound(1);
      for (const x of xs) drawCross(p, x, 5, 4);
      return p.toString();
    };
    const order: string[] = [];
    const first = dropsByStep([g('append', 1, 1), g('vote', 2, 0.96), g('append', 3, 0.52)], 4, order);
    expect(first.map((p) => [p.key, p.colour, p.opacity])).toEqual([
      ['append|10', 'c-append', '1.0'],
      ['vote|10', 'c-vote', '1.0'],
      ['append|5', 'c-append', '0.5'],
    ]);
    expect(first[0].d).toBe(cross(1));
    expect(order).toEqual(['append|10', 'vote|10', 'append|5']);
    // Later: the first group is empty but stays where it was; a new step comes last.
    const next = dropsByStep([g('append', 3, 0.44), g('vote', 2, 0.9), g('vote', 7, 0.94)], 4, order);
    expect(next.map((p) => [p.key, p.d === ''])).toEqual([
      ['append|10', true],
      ['vote|10', true],
      ['append|5', true],
      ['append|4', false],
      ['vote|9', false],
    ]);
    expect(next[4].d).toBe(cross(2, 7));
    expect(dropsByStep([], 4, [])).toEqual([]);
  });
});
