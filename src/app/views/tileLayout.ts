/**
 * How the replicas panel arranges its tiles: how many to a row, how large, and how their captions
 * fit. Pure arithmetic on the panel's size and the caption's measured widths (measured once per
 * size and family by the view), so it is tested without a browser.
 */

/** The smallest tile: a boundary still reads at 40 px (a presenter's short panel needs it). */
const MIN_SIDE = 40;
/** Between tiles (css/charts.css .cv-replicas gap). */
const GAP = 8;
/** The smallest label the design allows (css/base.css: 0.8 rem at the default 15-px root). */
export const MIN_LABEL_PX = 12;
/** The caption's second line (.cv-sub: 0.8 rem) in the view's type (.cv-view: 0.933 rem). */
export const SUB_EM = 0.8 / 0.933;
/** A stacked caption's lines: id, version, loss, accuracy (line-height 1.2). */
const STACK_LINES = 4;
/** Between stacked tiles (css/charts.css .cv-replicas.stacked): their numbers are narrower than a phrase. */
const STACK_GAP = 4;

/** The caption's widths as the browser draws them, in px. */
export interface CaptionWidths {
  /** The second line ("loss 0.000 accuracy 100%") on one line, at the view's sub size. */
  line: number;
  /** The wider of its two phrases ("accuracy 100%"), at the view's sub size. */
  phrase: number;
  /** A stacked caption's widest cell ("v1234", "0.000", "100%", the id) at 12 px. */
  cell: number;
  /** The key column's widest word ("accuracy") at 12 px. */
  key: number;
}

export interface TileLayout {
  side: number;
  /** The width a tile may take: its caption wraps to it rather than widening the tile. */
  maxWidth: number;
  /** The second line's type, as a share of its 0.8 rem (never below 12 px). */
  subScale: number;
  /** Even 12-px type does not hold a phrase in its column: its words wrap. */
  subWraps: boolean;
  /**
   * The captions are numbers alone, one to a line, in `stackPx` type, and the words ("loss",
   * "accuracy") stand once in a key column before the first tile: many replicas in a short panel
   * (16 workers left "w0 v62w1 v62…" and "accuracyaccuracy" running through each other).
   */
  stacked: boolean;
  stackPx: number;
  /** The key column's width (0 unless stacked). */
  keyWidth: number;
  /** Tiles to a row (stacked: each row starts with its own key, in a grid of these columns). */
  cols: number;
}

/**
 * Side of each square panel so that n of them fit the box (wrapping to rows when needed), and the
 * width a tile may take in that arrangement. `fontPx` is the view's type size; `w` the caption's
 * widths (CaptionWidths). In order of preference:
 *  1. the largest tiles whose columns hold a phrase, the second line taking one or two lines (on a
 *     phone, four in a row left "accuracy 95%accuracy 91%" running together, over a panel a third
 *     empty);
 *  2. stacked captions, if their cells fit the columns with a usable tile;
 *  3. the fewest rows whose columns hold a phrase: the panel scrolls;
 *  4. the largest tiles, the phrases' words wrapping.
 */
export function tileLayout(n: number, width: number, height: number, fontPx: number, w: CaptionWidths): TileLayout {
  // Caption lines: the id and version (0.933 rem), then loss and accuracy (0.8 rem), at ~1.2 em.
  const capLine = 1.2 * fontPx;
  const subLine = 1.2 * SUB_EM * fontPx;
  // A phrase wider than its column shrinks to it, down to the smallest label; narrower still, its
  // words wrap (a third line). Either way it stays inside its tile, not in the next tile's.
  const floor = Math.min(1, MIN_LABEL_PX / (SUB_EM * fontPx));
  const subLines = (perTile: number): number => (w.line <= perTile ? 1 : perTile >= floor * w.phrase ? 2 : 3);
  const stackPx = Math.min(SUB_EM * fontPx, MIN_LABEL_PX);
  const k = stackPx / MIN_LABEL_PX;
  const keyWidth = Math.ceil(w.key * k);
  const sideFor = (rows: number, perTile: number, caption: number, gap = GAP): number => Math.min(perTile, (height - rows * (caption + gap)) / rows - 6);
  // The key column and the tiles, STACK_GAP apart, inside the panel's 4-px padding.
  const stackTileOf = (cols: number): number => (width - keyWidth - STACK_GAP * cols - 8) / cols;
  const best = { side: -Infinity, cols: n };
  const fitting = { side: -Infinity, cols: n };
  const stacked = { side: -Infinity, cols: n };
  let scrolling = 0;
  for (let rows = 1; rows <= n; rows++) {
    const cols = Math.ceil(n / rows);
    const perTile = (width - GAP * (cols + 1)) / cols;
    const side = sideFor(rows, perTile, capLine + subLines(perTile) * subLine + 4);
    if (side > best.side) Object.assign(best, { side, cols });
    const holds = perTile >= floor * w.phrase;
    if (holds && side >= MIN_SIDE && side > fitting.side) Object.assign(fitting, { side, cols });
    if (holds && scrolling === 0) scrolling = cols;
    const stackTile = stackTileOf(cols);
    const stackSide = sideFor(rows, stackTile, STACK_LINES * 1.2 * stackPx + 4, STACK_GAP);
    if (stackTile >= w.cell * k && stackSide >= MIN_SIDE && stackSide > stacked.side) Object.assign(stacked, { side: stackSide, cols });
  }
  const plain = (cols: number, s: number): TileLayout => {
    const side = Math.floor(Math.max(MIN_SIDE, Math.min(260, s)));
    const maxWidth = Math.max(side, Math.floor((width - GAP * (cols + 1)) / cols));
    const subScale = Math.min(1, Math.max(floor, maxWidth / w.phrase));
    return { side, maxWidth, subScale, subWraps: maxWidth < floor * w.phrase, stacked: false, stackPx, keyWidth: 0, cols };
  };
  if (fitting.side > -Infinity) return plain(fitting.cols, fitting.side);
  if (stacked.side > -Infinity) {
    const side = Math.floor(Math.min(260, stacked.side));
    const maxWidth = Math.max(side, Math.floor(stackTileOf(stacked.cols)));
    return { side, maxWidth, subScale: floor, subWraps: false, stacked: true, stackPx, keyWidth, cols: stacked.cols };
  }
  if (scrolling > 0) return plain(scrolling, MIN_SIDE);
  return plain(best.cols, best.side);
}

/**
 * An image dataset's tiles (FashionTile): as wide as the panel allows, down to ~11 rem, at most
 * `n` to a row; a row takes the panel's height (FashionTile's `fit`), and the panel scrolls where
 * even the tiles' smallest type does not fit.
 */
export function imageTileWidth(n: number, width: number, fontPx: number): number {
  const cols = Math.max(1, Math.min(n, Math.floor((width - GAP) / (11 * fontPx + GAP))));
  return Math.max(MIN_SIDE, Math.floor((width - GAP * (cols + 1)) / cols));
}
