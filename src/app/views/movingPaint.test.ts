import { describe, expect, it } from 'vitest';
import { symbolsFill } from 'd3';
import { movingFrameSvg, paintMovingFrame, type PaintContext } from './movingPaint';
import { dotsByKind, dropsByStep, movingFrame, type DropGlyph, type FlightDot, type MovingFrame, type MovingParts } from './topologyMoving';

/** A 2D context that records what each fill and stroke would paint, with the state it had then. */
function recorder(): { ops: string[]; ctx: PaintContext<string> } {
  const ops: string[] = [];
  const ctx = {
    globalAlpha: 1,
    fillStyle: '' as unknown,
    strokeStyle: '' as unknown,
    lineWidth: 1,
    lineJoin: 'miter' as CanvasLineJoin,
    setTransform: (...m: number[]) => void ops.push(`transform ${m.join(',')}`),
    clearRect: (...r: number[]) => void ops.push(`clear ${r.join(',')}`),
    fill(d: string) {
      ops.push(`fill ${d} ${String(this.fillStyle)} α${this.globalAlpha}`);
    },
    stroke(d: string) {
      ops.push(`stroke ${d} ${String(this.strokeStyle)} w${this.lineWidth} ${this.lineJoin} α${this.globalAlpha}`);
    },
  };
  return { ops, ctx };
}

const frame: MovingFrame = {
  width: 200,
  height: 100,
  ring: 'M1,2A3,3,0,0,1,4,5',
  dots: [
    { kind: 'append', colour: '#a0a', d: 'M10,10Z' },
    { kind: 'ack', colour: '', d: '' },
    { kind: 'vote', colour: '#0a0', d: 'M20,20Z' },
  ],
  drops: [
    { key: 'append|10', colour: '#a0a', opacity: '1.0', d: 'M30,30Z' },
    { key: 'append|5', colour: '#a0a', opacity: '0.5', d: '' },
    { key: 'vote|3', colour: '#0a0', opacity: '0.3', d: 'M40,40Z' },
  ],
};
const colours = { fg: 'rgb(31, 35, 40)', bg: '#fff' };

describe('the moving parts on a canvas', () => {
  it('paints rings, then dots (fill under a 1.5-px outline), then each ✕ (outline under fill) at its opacity, as the SVG layer', () => {
    const { ops, ctx } = recorder();
    paintMovingFrame(ctx, frame, 2, colours, (d) => d);
    expect(ops).toEqual([
      'transform 1,0,0,1,0,0',
      'clear 0,0,400,200',
      'transform 2,0,0,2,0,0',
      'stroke M1,2A3,3,0,0,1,4,5 rgb(31, 35, 40) w3 miter α0.55',
      'fill M10,10Z #a0a α1',
      'stroke M10,10Z #fff w1.5 miter α1',
      'fill M20,20Z #0a0 α1',
      'stroke M20,20Z #fff w1.5 miter α1',
      'stroke M30,30Z #fff w3 round α1',
      'fill M30,30Z #a0a α1',
      'stroke M40,40Z #fff w3 round α0.3',
      'fill M40,40Z #0a0 α0.3',
    ]);
    // The next frame starts from an opaque context.
    expect(ctx.globalAlpha).toBe(1);
  });

  it('clears and paints nothing else for a frame with nothing moving', () => {
    const { ops, ctx } = recorder();
    paintMovingFrame(ctx, { width: 10, height: 10, ring: '', dots: [{ kind: 'ack', colour: '', d: '' }], drops: [] }, 1, colours, (d) => d);
    expect(ops.filter((o) => !o.startsWith('transform'))).toEqual(['clear 0,0,10,10']);
  });

  it('writes the same frame as SVG for the export: every path drawn, with the styles the canvas paints', () => {
    const svg = movingFrameSvg(frame, { fg: 'rgb(31, 35, 40)', bg: 'a"b' });
    const paths = [...svg.matchAll(/<path d="([^"]*)"/g)].map((m) => m[1]);
    expect(paths).toEqual(['M1,2A3,3,0,0,1,4,5', 'M10,10Z', 'M20,20Z', 'M30,30Z', 'M40,40Z']);
    expect(svg).toContain('stroke="rgb(31, 35, 40)" stroke-width="3" opacity="0.55"');
    expect(svg).toContain('fill="#0a0" stroke="a&quot;b" stroke-width="1.5"');
    expect(svg).toContain('paint-order="stroke" fill-opacity="0.3" stroke-opacity="0.3"');
    expect(movingFrameSvg({ width: 1, height: 1, ring: '', dots: [], drops: [] }, colours)).toBe('');
  });
});

describe('a frame of moving parts', () => {
  const dot = (kind: string, x: number): FlightDot => ({ x, y: 10, kind, colour: `c-${kind}`, symbol: symbolsFill[0], area: 40 });
  const drop = (kind: string, x: number, opacity: number): DropGlyph => ({ kind, x, y: 5, colour: `c-${kind}`, opacity });
  const parts = (kinds: readonly string[], drops: DropGlyph[]): MovingParts => ({ dots: [dot('vote', 5)], kinds, drops, dropR: 4, arcs: [] });

  it('holds the dots by kind and the ✕ by step, each layer keeping its own order of ✕ groups until the run changes', () => {
    const kinds = ['vote', 'append'];
    const a = {} as Element;
    const b = {} as Element;
    const f1 = movingFrame(a, 30, 20, parts(kinds, [drop('append', 1, 1)]));
    expect(f1.dots).toEqual(dotsByKind([dot('vote', 5)], kinds));
    expect(f1.ring).toBe('');
    expect(f1.drops.map((d) => d.key)).toEqual(['append|10']);
    // The same layer keeps 'append|10' (now empty) first; another layer starts from nothing.
    expect(movingFrame(a, 30, 20, parts(kinds, [drop('vote', 2, 0.5)])).drops.map((d) => [d.key, d.d === ''])).toEqual([
      ['append|10', true],
      ['vote|5', false],
    ]);
    expect(movingFrame(b, 30, 20, parts(kinds, [drop('vote', 2, 0.5)])).drops).toEqual(dropsByStep([drop('vote', 2, 0.5)], 4, []));
    // A new run (another kinds array) starts the layer's order afresh.
    expect(movingFrame(a, 30, 20, parts([...kinds], [drop('vote', 2, 0.5)])).drops.map((d) => d.key)).toEqual(['vote|5']);
  });

  it('draws each computing worker\'s ring clockwise from 12 o\'clock, 1.5 px outside its radius', () => {
    const f = movingFrame({} as Element, 100, 100, { dots: [], kinds: [], drops: [], dropR: 4, arcs: [{ x: 50, y: 50, r: 10, frac: 0.25 }] });
    // From the top (50, 38.5) a quarter turn to the right (61.5, 50).
    expect(f.ring).toBe('M50,38.5A11.5,11.5,0,0,1,61.5,50');
  });
});
