import * as d3 from 'd3';

/**
 * Pure helpers of the replica panels: the colour of a class-1 probability, and the throttle that
 * decides when a node's decision boundary is recomputed.
 */

/**
 * ColorBrewer's PuOr, 11 classes, interpolated as d3.interpolatePuOr does (a B-spline through
 * them): the same colours, without d3-scale-chromatic's every other scheme on the first load.
 */
const puOr = d3.interpolateRgbBasis(['#2d004b', '#542788', '#8073ac', '#b2abd2', '#d8daeb', '#f7f7f7', '#fee0b6', '#fdb863', '#e08214', '#b35806', '#7f3b08']);

/** Diverging, colour-blind-safe (PuOr), washed towards white so data points stay visible on it. */
export function probColour(p: number): [number, number, number] {
  const c = d3.rgb(puOr(1 - Math.min(1, Math.max(0, p))));
  const wash = 0.5;
  return [c.r + (255 - c.r) * wash, c.g + (255 - c.g) * wash, c.b + (255 - c.b) * wash];
}

/** probColour at 256 levels, as RGB bytes: a tile's 1 600 cells read a table, not d3's parser. */
let lut: Uint8ClampedArray | null = null;
export function probColourTable(): Uint8ClampedArray {
  if (lut) return lut;
  lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) lut.set(probColour(i / 255), 3 * i);
  return lut;
}

/** Colours of the data points per class (the saturated ends of the same palette). */
export const classColours = ['#b35806', '#542788'] as const;

export interface GridSlot {
  /** What the displayed grid was computed for (a version or a snapshot time). */
  have: string | null;
  /** What is being computed now. */
  pending: string | null;
  /** Wall-clock ms of the last request. */
  lastRequest: number;
}

export const MIN_INTERVAL_MS = 250;

/**
 * Whether to start a predictGrid for `want` now: the node shows something else, nothing is in
 * flight for it (at most one per node), and the last request is at least MIN_INTERVAL_MS old.
 * Returns the wait in ms when only the interval stops it (so the caller can come back), else
 * 'now' or 'no'.
 */
export function gridDecision(slot: GridSlot, want: string, wallNow: number): 'now' | 'no' | number {
  if (slot.have === want || slot.pending !== null) return 'no';
  const wait = slot.lastRequest + MIN_INTERVAL_MS - wallNow;
  return wait <= 0 ? 'now' : wait;
}
