import { describe, expect, it } from 'vitest';
import { imageTileWidth, tileLayout, type CaptionWidths } from './tileLayout';

/** Widths as the view measures them: the line and phrase at the view's sub size, cell and key at 12 px. */
const cw = (line: number, phrase: number): CaptionWidths => ({ line, phrase, cell: 37, key: 50 });

describe('replica tile layout', () => {
  it("a presenter's short panel: four tiles in one row, each caption wrapped to its share", () => {
    // 1280×720 in presenter mode: the panel is ~780×121 px at 18.7 px type; the caption's second
    // line, on one line, is ~230 px.
    const { side, maxWidth } = tileLayout(4, 780, 121, 18.7, cw(230, 125));
    expect(4 * maxWidth + 5 * 8).toBeLessThanOrEqual(780);
    expect(maxWidth).toBeLessThan(230); // so the caption wraps rather than widening the tile
    expect(side).toBeGreaterThanOrEqual(40);
    expect(side).toBeLessThanOrEqual(maxWidth);
  });

  it('a roomy panel: one-line captions, tiles as large as the height allows', () => {
    const { side, maxWidth } = tileLayout(4, 790, 160, 14, cw(170, 90));
    expect(maxWidth).toBeGreaterThanOrEqual(170);
    // Height bound: the side plus a two-line caption fits the panel.
    expect(side + 1.2 * 14 + 1.2 * 0.857 * 14 + 4 + 8 + 6).toBeLessThanOrEqual(160 + 1);
    expect(side).toBeGreaterThan(80);
  });

  it('many workers wrap to rows rather than shrinking below the smallest tile', () => {
    const { side, maxWidth } = tileLayout(16, 790, 400, 14, cw(170, 90));
    expect(side).toBeGreaterThanOrEqual(40);
    expect(Math.floor((790 - 8) / (maxWidth + 8))).toBeLessThan(16);
  });

  it("a phone: two columns rather than four where a column cannot hold 'accuracy 100%'", () => {
    // 390 px wide: the panel is ~366×246 px at 14 px type; the phrase is ~90 px, a quarter ~82.
    // Four in a row would give larger squares (81 px against 73) with the phrases run together.
    const { side, maxWidth } = tileLayout(4, 366, 246, 14, cw(170, 90));
    expect(maxWidth).toBeGreaterThanOrEqual(90);
    expect(Math.floor((366 - 8) / (maxWidth + 8))).toBe(2);
    expect(side).toBeGreaterThan(70);
  });

  it("eight workers in a presenter's row: the phrase's type shrinks to its column, never below 12 px", () => {
    // Free play at 1280×720 presenter: ~785×150 px at 18.7 px type, 89 px a column; 'accuracy 100%'
    // at 15 px is ~100 px.
    const { maxWidth, subScale, subWraps } = tileLayout(8, 785, 150, 18.7, cw(190, 100));
    expect(maxWidth).toBeLessThan(100);
    expect(subScale).toBeLessThan(1);
    expect(subScale * 100).toBeLessThanOrEqual(maxWidth);
    expect((0.8 / 0.933) * 18.7 * subScale).toBeGreaterThanOrEqual(12);
    expect(subWraps).toBe(false);
    // Narrower than 12-px type allows: the captions stack, numbers alone in 12-px type.
    const tight = tileLayout(8, 460, 120, 18.7, cw(190, 100));
    expect(tight).toMatchObject({ stacked: true, stackPx: 12, subWraps: false });
    // Where the phrase fits, nothing changes.
    expect(tileLayout(4, 790, 160, 14, cw(170, 90))).toMatchObject({ subScale: 1, subWraps: false });
  });

  it('where no arrangement holds the phrase with a usable tile, the captions stack beside a key', () => {
    const { side, maxWidth, stacked, keyWidth } = tileLayout(4, 366, 120, 14, cw(170, 90));
    expect(stacked).toBe(true);
    expect(keyWidth).toBe(50);
    expect(side).toBeGreaterThanOrEqual(40);
    // Four in a row after the key, each column holding a cell.
    expect(50 + 4 * maxWidth + 4 * 4 + 8).toBeLessThanOrEqual(366);
    expect(maxWidth).toBeGreaterThanOrEqual(37);
    // Four lines of 12-px type under the tile fit the panel.
    expect(side + 4 * 1.2 * 12 + 4 + 4 + 6).toBeLessThanOrEqual(120 + 1);
  });

  it('sixteen workers at 1280×720: one row of stacked captions, none running into the next', () => {
    // Free play: the panel is ~786×140 px at 14 px type. In one row a tile has 41 px: "w0 v629"
    // (~60 px) and "accuracy 84%" (~90 px) ran through their neighbours.
    const l = tileLayout(16, 786, 140, 14, cw(170, 90));
    expect(l.stacked).toBe(true);
    expect(l.side).toBeGreaterThanOrEqual(40);
    expect(l.keyWidth + 16 * l.maxWidth + 16 * 4 + 8).toBeLessThanOrEqual(786);
    expect(l.maxWidth).toBeGreaterThanOrEqual(37);
  });

  it('stacked captions in two rows: eight columns after each row\'s key', () => {
    // 1024 wide, a taller panel (~628×240): plain captions need six columns and three rows.
    const l = tileLayout(16, 628, 240, 14, cw(170, 90));
    expect(l).toMatchObject({ stacked: true, cols: 8 });
    expect(l.side).toBeGreaterThanOrEqual(40);
    expect(l.keyWidth + 8 * l.maxWidth + 8 * 4 + 8).toBeLessThanOrEqual(628);
    expect(2 * (l.side + 4 * 1.2 * 12 + 4 + 4) + 12).toBeLessThanOrEqual(240 + 1);
  });

  it('where neither fits, the fewest rows that hold the phrase, and the panel scrolls', () => {
    // 1024×768: the panel is ~628×120 px. Stacked cells need 16 × 45 px beside the key; two rows
    // of stacked captions need 2 × 110 px.
    const l = tileLayout(16, 628, 120, 14, cw(170, 90));
    expect(l.stacked).toBe(false);
    expect(l.subWraps).toBe(false);
    expect(l.maxWidth).toBeGreaterThanOrEqual(90);
    expect(l.side).toBe(40);
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
