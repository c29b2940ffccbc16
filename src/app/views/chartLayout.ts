import { measuredWidth } from './hooks';
import type { Series } from './chartSpecs';

/**
 * Where things go in the loss charts, and how large: the small multiples' grid in their panel, the
 * titles' and labels' type fitted to a chart's width, and the end labels' places beside their
 * lines. Pure arithmetic on sizes (text measured on a canvas, never in the page's layout), so it is
 * tested without a browser (lossCharts.test.ts).
 */

/** Gap between the small multiples; equals `.cv-charts { gap }` in css/charts.css. */
const GAP = 6;

/**
 * Where each line's label goes: beside its last point, pushed apart vertically (in order) so that
 * labels of lines that end close together stay readable. More labels than the plot's height holds
 * (sixteen workers in a short chart): one per band of neighbouring lines, from the top line's band
 * to the bottom's, never outside the plot. `shown` (the keys labelled at the last redraw) keeps
 * each band's label on the same line while it stays in the band: picking every k-th line by height
 * afresh, names jumped from line to line whenever two lines crossed.
 */
export function endLabels(
  series: readonly Series[],
  x: (v: number) => number,
  y: (v: number) => number,
  gap: number,
  top: number,
  bottom: number,
  shown: ReadonlySet<string> = new Set(),
): Array<{ key: string; x: number; y: number }> {
  const all: Array<{ key: string; x: number; y: number }> = [];
  for (const s of series) {
    let i = s.points.length - 1;
    while (i >= 0 && !Number.isFinite(s.points[i][1])) i--;
    if (i >= 0) all.push({ key: s.key, x: x(s.points[i][0]), y: y(s.points[i][1]) });
  }
  all.sort((a, b) => a.y - b.y);
  const room = Math.max(1, Math.floor((bottom - top) / gap) + 1);
  const ends = all.length <= room ? all : bandLabels(all, room, shown);
  for (let i = 1; i < ends.length; i++) ends[i].y = Math.max(ends[i].y, ends[i - 1].y + gap);
  // Lines that end on the x axis (staleness 0) would push labels below it: stack them upwards instead.
  const n = ends.length;
  if (n > 0 && ends[n - 1].y > bottom) {
    ends[n - 1].y = bottom;
    for (let i = n - 2; i >= 0; i--) ends[i].y = Math.min(ends[i].y, ends[i + 1].y - gap);
  }
  return ends;
}

/**
 * `room` of the `all` ends (sorted top to bottom): `all` cut into `room` bands of neighbouring
 * ranks (each holds one at least: there are more ends than room); each band keeps the line it
 * labelled last time, else takes the rank nearest its evenly spaced one (the first band its top
 * line, the last its bottom line). Bands do not overlap, so no line is labelled twice.
 */
function bandLabels<T extends { key: string }>(all: readonly T[], room: number, shown: ReadonlySet<string>): T[] {
  const n = all.length;
  return Array.from({ length: room }, (_, j) => {
    const from = Math.floor((j * n) / room);
    const to = Math.floor(((j + 1) * n) / room);
    for (let i = from; i < to; i++) if (shown.has(all[i].key)) return all[i];
    const even = room === 1 ? 0 : Math.round((j * (n - 1)) / (room - 1));
    return all[Math.min(to - 1, Math.max(from, even))];
  });
}

/**
 * Four charts in a row, or two by two where a row would make each narrower than ~130 px (phones),
 * unless two rows would be too short for a title, a plot and an axis (a lesson's presenter mode
 * at 1280×720 gave each chart 55 px of height) while a row still leaves each ~6 em wide.
 */
export function columnsFor(width: number, height: number, fs: number): number {
  if (width <= 0 || width >= 540) return 4;
  const rowOfTwo = (height - GAP) / 2;
  return rowOfTwo < 6.5 * fs && width / 4 >= 6 * fs ? 4 : 2;
}

/** A scrollbar's width, kept out of the charts' width where the panel scrolls. */
const SCROLLBAR = 16;

/**
 * The charts' grid in a panel: columns and each chart's size. Two by two where even that leaves a
 * chart under 6.5 em tall (a one-run lesson at 1024×768 presenter gave each 57 px: titles over the
 * axes, no plot), the charts keep 6.5 em and the panel scrolls to the second row.
 */
export function chartGrid(width: number, height: number, fs: number, n: number): { cols: number; w: number; h: number; scroll: boolean } {
  const cols = Math.min(columnsFor(width, height, fs), n);
  const rows = Math.ceil(n / cols);
  const h = Math.floor((height - GAP * (rows - 1)) / rows);
  const minH = Math.round(6.5 * fs);
  const scroll = rows > 1 && h < minH;
  const w = Math.floor((width - (scroll ? SCROLLBAR : 0) - GAP * (cols - 1)) / cols);
  return { cols, w, h: scroll ? minH : h, scroll };
}

/** The charts' type (CSS .cv-view, 0.933 rem): `fs`, what the sizes below are in em of. */
const VIEW_REM = 0.933;
/**
 * A chart title's and note's sizes (CSS .cv-chart-title 0.867 rem, .cv-chart-note 0.75 rem) in em
 * of the chart's type. Taken as em of it, the note was measured 7 % short of what it is drawn at,
 * and "forked replicas, not lagging" lost its last letter at 1024 px.
 */
const TITLE_EM = 0.867 / VIEW_REM;
export const NOTE_EM = 0.75 / VIEW_REM;
/** The x axis's label (CSS .cv-axis-label, 0.8 rem). */
export const AXIS_EM = 0.8 / VIEW_REM;
/** Below this a title or note is not shrunk further (a note then goes: its chart is too narrow). */
const MIN_PX = 9;

/**
 * A text's font size in px where, at `em` of the chart's type, it would overrun the chart's width
 * ("Replica divergence" on a 1024-wide projector), down to 9 px; null where the stylesheet's
 * size fits. Measured once on a canvas (measuredWidth), never in the page's layout.
 */
export function fittedPx(text: string, em: number, fs: number, width: number, family: string, weight = ''): number | null {
  const px = em * fs;
  const w = measuredWidth(text, px, family, weight);
  const room = width - 8;
  return w <= room ? null : Math.max(MIN_PX, Math.floor((px * room) / w * 10) / 10);
}

export const fittedTitlePx = (title: string, fs: number, width: number, family: string): number | null => fittedPx(title, TITLE_EM, fs, width, family, 'bold');

/**
 * The title a chart shows and its size: the whole title, shrunk to fit, unless even 9 px of it
 * would overrun the chart and a short one exists ("Replica divergence" was cut to "Replica
 * divergenc" in a one-run lesson's 96-px charts at 1024 px).
 */
export function chartTitle(full: string, short: string | null, fs: number, width: number, family: string): { text: string; px: number | null } {
  const px = fittedTitlePx(full, fs, width, family);
  if (short === null || measuredWidth(full, px ?? TITLE_EM * fs, family, 'bold') <= width - 8) return { text: full, px };
  return { text: short, px: fittedTitlePx(short, fs, width, family) };
}
