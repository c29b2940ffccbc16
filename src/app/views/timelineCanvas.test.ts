import { describe, expect, it } from 'vitest';
import { RunIndex } from '../../engine/index/runIndex';
import type { HistoryEvent } from '../../sim/types';
import { SettledLayer, type TimelineGeometry } from './timelineCanvas';

/** A 2-D context that records the segments and marks drawn (x of each moveTo, arc centres) and clears. */
function recorder() {
  const log: string[] = [];
  const ctx = {
    save() {},
    restore() {},
    beginPath() {},
    rect() {},
    clip() {},
    stroke() {},
    fill() {},
    lineTo() {},
    setLineDash() {},
    clearRect: () => log.push('clear'),
    moveTo: (x: number, y: number) => log.push(`move ${x},${y}`),
    arc: (x: number, y: number) => log.push(`mark ${x},${y}`),
  } as unknown as CanvasRenderingContext2D;
  return { ctx, log };
}

const geo: TimelineGeometry = { x: (t) => t, yOf: new Map([['w0', 10], ['w1', 20]]), width: 100, height: 50, left: 0, right: 100, t0: 0, t1: 1000, bg: '#fff', neutral: '#888' };
const send = (t: number, id: number, kind = 'gradient'): HistoryEvent => ({ t, type: 'send', id, from: 'w0', to: 'w1', kind, bytes: 4, due: t + 5 });
const deliver = (t: number, id: number, kind = 'gradient'): HistoryEvent => ({ t, type: 'deliver', id, from: 'w0', to: 'w1', kind, sentAt: t - 5 });

describe('timeline settled layer', () => {
  it('draws each finished message and version mark once, keeps those in flight for the view to draw, and starts over when the geometry changes', () => {
    const ix = new RunIndex(['w0', 'w1']);
    const events: HistoryEvent[] = [send(100, 1), send(110, 2, 'ack'), deliver(105, 1)];
    ix.sync(events);
    const layer = new SettledLayer();
    const { ctx, log } = recorder();
    layer.update(ctx, 'k1', geo, ix, new Set());
    // A full redraw: cleared, message 1 (from x = 100) drawn; message 2 still on the wire.
    expect(log.filter((l) => l === 'clear')).toHaveLength(1);
    expect(log.filter((l) => l === 'move 100,10')).toHaveLength(1);
    expect(layer.unflushed(geo, ix, new Set()).flying.map((m) => m.id)).toEqual([2]);

    events.push(deliver(115, 2, 'ack'), { t: 116, type: 'version', node: 'w1', version: 1, synced: 1, v: { hash: 'h' } });
    ix.sync(events);
    log.length = 0;
    layer.update(ctx, 'k1', geo, ix, new Set());
    // Appended: message 2 and the mark, nothing cleared, message 1 not drawn again.
    expect(log).not.toContain('clear');
    expect(log.filter((l) => l.startsWith('move 100,'))).toHaveLength(0);
    expect(log.filter((l) => l === 'move 110,10')).toHaveLength(1);
    expect(log).toContain('mark 116,20');
    expect(layer.unflushed(geo, ix, new Set()).flying).toEqual([]);

    // Another geometry (or hidden kinds): everything again, the hidden kind left out.
    log.length = 0;
    layer.update(ctx, 'k2', geo, ix, new Set(['ack']));
    expect(log[0]).toBe('clear');
    expect(log.filter((l) => l === 'move 100,10')).toHaveLength(1);
    expect(log.filter((l) => l === 'move 110,10')).toHaveLength(0);
    expect(log).toContain('mark 116,20');
  });

  it('between appends, what the canvas lacks is unflushed (on the wire, landed since, marks since), and nothing else', () => {
    const ix = new RunIndex(['w0', 'w1']);
    const events: HistoryEvent[] = [send(100, 1), send(110, 2, 'ack'), deliver(105, 1)];
    ix.sync(events);
    const layer = new SettledLayer();
    const { ctx } = recorder();
    layer.update(ctx, 'k1', geo, ix, new Set(), 1000);
    expect(layer.due('k1', ix, 1050)).toBe(false);
    expect(layer.due('k1', ix, 1100)).toBe(true);
    expect(layer.due('k2', ix, 1001)).toBe(true); // a new geometry cannot wait
    // Message 2 lands, message 3 leaves, a version is made, a hidden kind is sent: not appended yet.
    events.push(deliver(115, 2, 'ack'), send(117, 3), { t: 118, type: 'version', node: 'w1', version: 1, synced: 1, v: { hash: 'h' } }, send(119, 4, 'ack'));
    ix.sync(events);
    const u = layer.unflushed(geo, ix, new Set(['x']));
    expect(u.landed.map((m) => m.id)).toEqual([2]);
    expect(u.flying.map((m) => m.id)).toEqual([3, 4]);
    expect(u.marks.map((m) => `${m.node}@${m.t}`)).toEqual(['w1@118']);
    expect(layer.unflushed(geo, ix, new Set(['ack'])).flying.map((m) => m.id)).toEqual([3]);
    // Appended: the canvas has them; only what is still on the wire stays unflushed.
    layer.update(ctx, 'k1', geo, ix, new Set(), 1100);
    const after = layer.unflushed(geo, ix, new Set());
    expect(after.landed).toEqual([]);
    expect(after.marks).toEqual([]);
    expect(after.flying.map((m) => m.id)).toEqual([3, 4]);
  });
});
