import { describe, expect, it } from 'vitest';
import { symbolsFill } from 'd3';
import { frameSvg, paintFrame, samePaint, type PaintContext, type PaintFrame } from './pathPaint';
import { dotsByKind, dropsByStep, movingFrame, movingPaintFrame, type DropGlyph, type FlightDot, type MovingFrame, type MovingParts } from './topologyMoving';
import { livePaintFrame, veilPaintFrame, type KindPath, type Veil } from './timelineLive';
import type { TimelineGeometry } from './timelineCanvas';

/** A 2D context that records what each fill and stroke would paint, with the state it had then. */
function recorder(): { ops: string[]; ctx: PaintContext<string> } {
  const ops: string[] = [];
  let dash: number[] = [];
  const ctx = {
    globalAlpha: 1,
    fillStyle: '' as unknown,
    strokeStyle: '' as unknown,
    lineWidth: 1,
    lineJoin: 'miter' as CanvasLineJoin,
    setTransform: (...m: number[]) => void ops.push(`transform ${m.join(',')}`),
    setLineDash: (d: number[]) => void (dash = d),
    clearRect: (...r: number[]) => void ops.push(`clear ${r.join(',')}`),
    save: () => void ops.push('save'),
    restore: () => void ops.push('restore'),
    beginPath: () => undefined,
    rect: (...r: number[]) => void ops.push(`rect ${r.join(',')}`),
    clip: () => void ops.push('clip'),
    fill(d: string) {
      ops.push(`fill ${d} ${String(this.fillStyle)} α${this.globalAlpha}`);
    },
    stroke(d: string) {
      ops.push(`stroke ${d} ${String(this.strokeStyle)} w${this.lineWidth} ${this.lineJoin} α${this.globalAlpha}${dash.length ? ` dash ${dash.join(',')}` : ''}`);
    },
  };
  return { ops, ctx };
}

const moving: MovingFrame = {
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

describe('styled paths on a canvas', () => {
  it('paints the topology\'s moving parts as its SVG layer draws them: rings, dots (fill under outline), each ✕ (outline under fill) at its opacity', () => {
    const { ops, ctx } = recorder();
    paintFrame(ctx, movingPaintFrame(moving, colours), 2, (d) => d);
    expect(ops).toEqual([
      'transform 1,0,0,1,0,0',
      'clear 0,0,400,200',
      'transform 2,0,0,2,0,0',
      'save',
      'stroke M1,2A3,3,0,0,1,4,5 rgb(31, 35, 40) w3 miter α0.55',
      'fill M10,10Z #a0a α1',
      'stroke M10,10Z #fff w1.5 miter α1',
      'fill M20,20Z #0a0 α1',
      'stroke M20,20Z #fff w1.5 miter α1',
      'stroke M30,30Z #fff w3 round α1',
      'fill M30,30Z #a0a α1',
      'stroke M40,40Z #fff w3 round α0.3',
      'fill M40,40Z #0a0 α0.3',
      'restore',
    ]);
    // The next frame starts from an opaque context.
    expect(ctx.globalAlpha).toBe(1);
  });

  it('paints the timeline\'s live paths clipped to the plot: arrows at 0.6 with their kind\'s dash, crosses at 0.9, marks filled', () => {
    const g = { width: 300, height: 120, left: 40, right: 286 } as TimelineGeometry;
    const paths: KindPath[] = [
      { key: 'f:append', d: 'M50,10L60,20', cls: 'cv-live-flying', stroke: '#7d3c98', fill: null, dash: '4 2' },
      { key: 'l:vote', d: '', cls: 'cv-live-landed', stroke: '#c90', fill: null, dash: null },
      { key: 'x:append', d: 'M70,10L74,14', cls: 'cv-live-drop', stroke: '#7d3c98', fill: null, dash: null },
      { key: 'm:w0', d: 'M80,30Z', cls: 'cv-live-mark', stroke: '#fff', fill: '#e69f00', dash: null },
    ];
    const { ops, ctx } = recorder();
    paintFrame(ctx, livePaintFrame(paths, g), 1, (d) => d);
    expect(ops).toEqual([
      'transform 1,0,0,1,0,0',
      'clear 0,0,300,120',
      'transform 1,0,0,1,0,0',
      'save',
      'rect 40,0,246,120',
      'clip',
      'stroke M50,10L60,20 #7d3c98 w1 miter α0.6 dash 4,2',
      'stroke M70,10L74,14 #7d3c98 w1.6 miter α0.9',
      'fill M80,30Z #e69f00 α1',
      'stroke M80,30Z #fff w1 miter α1',
      'restore',
    ]);
  });

  it('paints the future veil as the element looked: the panel colour over the band, each lane faintly on, the live edge 2 px wide, clipped to the band', () => {
    const g = { width: 300, height: 120, left: 40, right: 286, bg: '#fff', neutral: '#8a9099' } as TimelineGeometry;
    const veil: Veil = { x: 99, y0: 20, y1: 100, lanes: [{ y: 30, colour: '#E69F00' }, { y: 60, colour: 'var(--neutral-node)' }], edge: true, fg: 'rgb(27, 31, 36)' };
    const { ops, ctx } = recorder();
    paintFrame(ctx, veilPaintFrame(veil, g), 1, (d) => d);
    expect(ops.filter((o) => !o.startsWith('transform'))).toEqual([
      'clear 0,0,300,120',
      'save',
      // One pixel past the plot (the edge shows at the window's end); the bottom leaves the axis line whole.
      'rect 0,20,287,80',
      'clip',
      'fill M99,20H287V99.5H99Z #fff α1',
      'stroke M99,30H287 #E69F00 w1 miter α0.18',
      'stroke M99,60H287 #8a9099 w1 miter α0.18',
      'fill M99,20h2V99.5h-2Z rgb(27, 31, 36) α1',
      'restore',
    ]);
    // Scrubbed back: no edge; at the window's end past the plot: nothing.
    expect(veilPaintFrame({ ...veil, edge: false }, g).items.map((i) => i.name)).toEqual(['cv-future', 'cv-lane-future', 'cv-lane-future']);
    expect(veilPaintFrame({ ...veil, x: 287 }, g).items).toEqual([]);
  });

  it('clears and paints nothing else for a frame with nothing moving', () => {
    const { ops, ctx } = recorder();
    paintFrame(ctx, movingPaintFrame({ width: 10, height: 10, ring: '', dots: [{ kind: 'ack', colour: '', d: '' }], drops: [] }, colours), 1, (d) => d);
    expect(ops.filter((o) => !o.startsWith('transform'))).toEqual(['clear 0,0,10,10', 'save', 'restore']);
  });

  it('tells a frame that paints the same from one that differs in any field', () => {
    const base: PaintFrame = { width: 9, height: 9, clip: { x: 1, y: 2, width: 3, height: 4 }, items: [{ name: 'a', d: 'M0,0L1,1', stroke: '#000', dash: [4, 2], width: 1.5 }] };
    const copy = (): PaintFrame => structuredClone(base);
    expect(samePaint(base, copy())).toBe(true);
    // The name is for tests: it paints nothing.
    expect(samePaint(base, { ...copy(), items: [{ ...base.items[0], name: 'b' }] })).toBe(true);
    const changed: Array<(f: PaintFrame) => void> = [
      (f) => (f.width = 10),
      (f) => (f.clip!.y = 3),
      (f) => (f.clip = undefined),
      (f) => (f.items[0].d = 'M0,0L1,2'),
      (f) => (f.items[0].stroke = '#111'),
      (f) => (f.items[0].fill = '#111'),
      (f) => (f.items[0].width = 1),
      (f) => (f.items[0].strokeOpacity = 0.5),
      (f) => (f.items[0].fillOpacity = 0.5),
      (f) => (f.items[0].dash = [4]),
      (f) => (f.items[0].join = 'round'),
      (f) => (f.items[0].strokeFirst = true),
      (f) => f.items.push({ name: 'c', d: '' }),
    ];
    for (const change of changed) {
      const f = copy();
      change(f);
      expect(samePaint(base, f), String(change)).toBe(false);
    }
  });

  it('writes the same frame as SVG for the export: every path painted, with the styles the canvas paints', () => {
    const svg = frameSvg(movingPaintFrame(moving, { fg: 'rgb(31, 35, 40)', bg: 'a"b' }), 'c1');
    const paths = [...svg.matchAll(/<path d="([^"]*)"/g)].map((m) => m[1]);
    expect(paths).toEqual(['M1,2A3,3,0,0,1,4,5', 'M10,10Z', 'M20,20Z', 'M30,30Z', 'M40,40Z']);
    expect(svg).toContain('fill="none" stroke="rgb(31, 35, 40)" stroke-width="3" stroke-opacity="0.55"');
    expect(svg).toContain('fill="#0a0" stroke="a&quot;b" stroke-width="1.5"');
    expect(svg).toContain('fill="#0a0" fill-opacity="0.3" stroke="a&quot;b" stroke-width="3" stroke-opacity="0.3" stroke-linejoin="round" paint-order="stroke"');
    expect(svg).not.toContain('clip');
    const clipped: PaintFrame = { width: 9, height: 9, clip: { x: 1, y: 2, width: 3, height: 4 }, items: [{ name: 'a', d: 'M0,0L1,1', stroke: '#000', dash: [4, 2] }] };
    expect(frameSvg(clipped, 'k')).toBe('<clipPath id="k"><rect x="1" y="2" width="3" height="4"/></clipPath><g clip-path="url(#k)"><path d="M0,0L1,1" fill="none" stroke="#000" stroke-width="1" stroke-dasharray="4 2"/></g>');
    expect(frameSvg({ width: 1, height: 1, items: [] }, 'k')).toBe('');
  });
});

describe('a frame of the topology\'s moving parts', () => {
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
