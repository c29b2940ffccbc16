import { textWidth } from './hooks';

/** Fitting a line of facts into the room a panel has, by estimated width (no layout reads). */

/**
 * `text` cut so that it and an ellipsis fit `maxPx` at `fontPx` (estimated, times `scale` where the
 * caller measured the whole and knows the estimate's error): for a line whose whole is in a
 * tooltip. Unchanged where it fits.
 */
export function clipText(text: string, maxPx: number, fontPx: number, scale = 1): string {
  if (textWidth(text, fontPx) * scale <= maxPx) return text;
  const room = maxPx - textWidth('…', fontPx) * scale;
  let cut = '';
  let w = 0;
  for (const ch of text) {
    w += textWidth(ch, fontPx) * scale;
    if (w > room) break;
    cut += ch;
  }
  // Never half a number or word ("0x10000003…" reads as another value): from inside one, back to
  // the last whole item (" · " parts a facts line), or else the last whole word.
  if (cut.length < text.length && !/\s/.test(text[cut.length]) && !/\s$/.test(cut)) {
    const item = cut.lastIndexOf(' · ');
    const word = cut.search(/\s\S*$/);
    cut = item > 0 ? cut.slice(0, item) : word > 0 ? cut.slice(0, word) : cut;
  }
  cut = cut.replace(/[\s·,:;|，、；：]+$/u, '');
  return cut ? `${cut}…` : '';
}

/**
 * A facts line over two lines: as many whole items (" · " parts it) as fit the first, the rest on
 * the second, clipped there if it must be. The first is whole items or, where not even one fits,
 * that item clipped.
 */
export function wrapItems(text: string, firstPx: number, secondPx: number, fontPx: number, scale = 1): [string, string] {
  if (textWidth(text, fontPx) * scale <= firstPx) return [text, ''];
  const items = text.split(' · ');
  let n = 0;
  while (n < items.length && textWidth(items.slice(0, n + 1).join(' · '), fontPx) * scale <= firstPx) n++;
  if (n === 0) return [clipText(items[0], firstPx, fontPx, scale), clipText(items.slice(1).join(' · '), secondPx, fontPx, scale)];
  return [items.slice(0, n).join(' · '), clipText(items.slice(n).join(' · '), secondPx, fontPx, scale)];
}
