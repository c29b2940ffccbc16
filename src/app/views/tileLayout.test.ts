import { describe, expect, it } from 'vitest';
import { imageTileWidth, tileLayout } from './ReplicaBoundaries';

describe('replica tile layout', () => {
  it("a presenter's short panel: four tiles in one row, each caption wrapped to its share", () => {
    // 1280×720 in presenter mode: the panel is ~780×121 px at 18.7 px type; the caption's second
    // line, on one line, is ~230 px.
    const { side, maxWidth } = tileLayout(4, 780, 121, 18.7, 230, 125);
    expect(4 * maxWidth + 5 * 8).toBeLessThanOrEqual(780);
    expect(maxWidth).toBeLessThan(230); // so the caption wraps rather than widening the tile
    expect(side).toBeGreaterThanOrEqual(40);
    expect(side).toBeLessThanOrEqual(maxWidth);
  });

  it('a roomy panel: one-line captions, tiles as large as the height allows', () => {
    const { side, maxWidth } = tileLayout(4, 790, 160, 14, 170, 90);
    expect(maxWidth).toBeGreaterThanOrEqual(170);
    // Height bound: the side plus a two-line caption fits the panel.
    expect(side + 1.2 * 14 + 1.2 * 0.857 * 14 + 4 + 8 + 6).toBeLessThanOrEqual(160 + 1);
    expect(side).toBeGreaterThan(80);
  });

  it('many workers wrap to rows rather than shrinking below the smallest tile', () => {
    const { side, maxWidth } = tileLayout(16, 790, 400, 14, 170, 90);
    expect(side).toBeGreaterThanOrEqual(40);
    expect(Math.floor((790 - 8) / (maxWidth + 8))).toBeLessThan(16);
  });

  it("a phone: two columns rather than four where a column cannot hold 'accuracy 100%'", () => {
    // 390 px wide: the panel is ~366×246 px at 14 px type; the phrase is ~90 px, a quarter ~82.
    // Four in a row would give larger squares (81 px against 73) with the phrases run together.
    const { side, maxWidth } = tileLayout(4, 366, 246, 14, 170, 90);
    expect(maxWidth).toBeGreaterThanOrEqual(90);
    expect(Math.floor((366 - 8) / (maxWidth + 8))).toBe(2);
    expect(side).toBeGreaterThan(70);
  });

  it("eight workers in a presenter's row: the phrase's type shrinks to its column, never below 12 px", () => {
    // Free play at 1280×720 presenter: ~785×150 px at 18.7 px type, 89 px a column; 'accuracy 100%'
    // at 15 px is ~100 px.
    const { maxWidth, subScale, subWraps } = tileLayout(8, 785, 150, 18.7, 190, 100);
    expect(maxWidth).toBeLessThan(100);
    expect(subScale).toBeLessThan(1);
    expect(subScale * 100).toBeLessThanOrEqual(maxWidth);
    expect((0.8 / 0.933) * 18.7 * subScale).toBeGreaterThanOrEqual(12);
    expect(subWraps).toBe(false);
    // Narrower than 12-px type allows: the phrase's words wrap instead.
    const tight = tileLayout(8, 460, 120, 18.7, 190, 100);
    expect((0.8 / 0.933) * 18.7 * tight.subScale).toBeCloseTo(12, 5);
    expect(tight.subWraps).toBe(true);
    // Where the phrase fits, nothing changes.
    expect(tileLayout(4, 790, 160, 14, 170, 90)).toMatchObject({ subScale: 1, subWraps: false });
  });

  it('where no arrangement holds the phrase with a usable tile, the largest tiles win', () => {
    const { side, maxWidth } = tileLayout(4, 366, 120, 14, 170, 90);
    expect(side).toBeGreaterThanOrEqual(40);
    expect(Math.floor((366 - 8) / (maxWidth + 8))).toBe(4);
  });
});

describe('image tiles (Fashion-MNIST)', () => {
  it('four replicas share a 1280-wide panel in one row; eight wrap rather than shrink below ~11 rem', () => {
    const w4 = imageTileWidth(4, 780, 15);
    expect(4 * w4 + 5 * 8).toBeLessThanOrEqual(780);
    expect(w4).toBeGreaterThan(160);
    const w8 = imageTileWidth(8, 780, 15);
    expect(w8).toBeGreaterThanOrEqual(11 * 15);
    expect(w8).toBe(w4);
  });

  it('one replica takes the panel; a panel narrower than a tile still gets one', () => {
    expect(imageTileWidth(1, 600, 15)).toBe(600 - 16);
    expect(imageTileWidth(3, 120, 15)).toBe(120 - 16);
  });
});
