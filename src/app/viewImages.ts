/**
 * Every view as a standalone SVG file and a PNG (run export). A view is SVG layers, canvases and a
 * few HTML labels stacked in one panel; its export is one SVG of the panel's size holding each
 * SVG layer with its computed styles inlined (so the file looks the same without the app's CSS),
 * each canvas as an embedded PNG image, and the HTML labels and swatches as SVG text and rects.
 * No foreignObject, so the PNG can be drawn through a canvas without tainting it.
 */

import { offscreenFrame } from './views/offscreenLayer';
import { frameSvg } from './views/pathPaint';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Presentation properties copied into the exported SVG (where they differ from the parent's). */
const svgProps = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'paint-order',
  'visibility',
  'display',
  'color',
] as const;
/** Not inherited: always written when not the initial value. */
const ownProps = new Set(['opacity', 'display']);
const initial: Record<string, string> = { opacity: '1', display: 'inline' };

export interface ViewSvg {
  name: string;
  svg: string;
  width: number;
  height: number;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function visible(el: Element): boolean {
  const cs = getComputedStyle(el);
  if (cs.display === 'none' || cs.visibility === 'hidden') return false;
  // Text for screen readers only (.visually-hidden: clipped to nothing in a 1-px box) is not drawn:
  // the topology's export showed its keyboard help across the top.
  if (cs.clipPath.startsWith('inset(50%')) return false;
  const r = el.getBoundingClientRect();
  if (r.width <= 1 && r.height <= 1 && cs.overflow === 'hidden') return false;
  return r.width > 0 && r.height > 0;
}

/**
 * The attribute the inlined styles are written to on the clone, renamed `style` in the serialized
 * text (`serializeInlined`): a `style` attribute is parsed as CSS when set, and setting one on each
 * of the topology's ~760 elements took 45–85 ms of a long task; a plain attribute, ~1 ms.
 */
const INLINED = 'data-cv-inlined-style';

/** The clone as SVG text, its inlined styles in `style` attributes. */
function serializeInlined(serializer: XMLSerializer, clone: Element): string {
  return serializer.serializeToString(clone).replaceAll(` ${INLINED}="`, ' style="');
}

/**
 * Copies computed presentation styles from `src` onto `dst` and their children, pairwise (as the
 * INLINED attribute). Each element's values are read once and handed to its children to compare
 * with (reading the parent's again for every child doubled the reads).
 */
function inlineStyles(src: Element, dst: Element, parent: readonly string[] | null): void {
  const cs = getComputedStyle(src);
  const values = svgProps.map((p) => cs.getPropertyValue(p));
  const style: string[] = [];
  svgProps.forEach((p, i) => {
    const v = values[i];
    if (!v) return;
    if (ownProps.has(p) ? v !== initial[p] : !parent || parent[i] !== v) style.push(`${p}:${v}`);
  });
  dst.removeAttribute('style');
  if (style.length) dst.setAttribute(INLINED, style.join(';'));
  dst.removeAttribute('class');
  const a = src.children;
  const b = dst.children;
  for (let i = 0; i < a.length && i < b.length; i++) inlineStyles(a[i], b[i], values);
}

function backgroundOf(el: Element | null): string {
  for (let e = el; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    if (bg && bg !== 'transparent' && bg !== 'rgba(0, 0, 0, 0)') return bg;
  }
  return '#ffffff';
}

/** The panel `view` as one standalone SVG document. */
export function viewToSvg(view: HTMLElement, name: string): ViewSvg {
  const root = view.getBoundingClientRect();
  const width = Math.round(root.width);
  const height = Math.round(root.height);
  const parts: string[] = [`<rect width="${width}" height="${height}" fill="${backgroundOf(view)}"/>`];
  const rel = (r: DOMRect) => ({ x: r.left - root.left, y: r.top - root.top, w: r.width, h: r.height });
  const serializer = new XMLSerializer();

  const walk = (el: Element): void => {
    if (!visible(el)) return;
    if (el instanceof SVGSVGElement) {
      const r = rel(el.getBoundingClientRect());
      const clone = el.cloneNode(true) as SVGSVGElement;
      inlineStyles(el, clone, null);
      clone.setAttribute('x', String(r.x));
      clone.setAttribute('y', String(r.y));
      clone.setAttribute('width', String(r.w));
      clone.setAttribute('height', String(r.h));
      parts.push(serializeInlined(serializer, clone));
      return;
    }
    if (el instanceof HTMLCanvasElement) {
      const r = rel(el.getBoundingClientRect());
      // A layer the paint worker paints (the topology's moving parts, the timeline's messages on
      // the wire): its last frame, as SVG.
      const painted = offscreenFrame(el);
      if (painted !== null) {
        parts.push(`<svg x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" viewBox="0 0 ${r.w} ${r.h}">${frameSvg(painted.frame, `offscreen-clip-${painted.id}`)}</svg>`);
        return;
      }
      parts.push(`<image x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" href="${el.toDataURL('image/png')}"/>`);
      return;
    }
    if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) return;
    const cs = getComputedStyle(el);
    // Boxes: swatches, pills, pressed buttons, row backgrounds — a background and/or a border.
    const bg = cs.backgroundColor;
    const hasBg = bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent';
    const bw = parseFloat(cs.borderTopWidth) || 0;
    const hasBorder = bw > 0 && cs.borderTopStyle !== 'none' && cs.borderTopColor !== 'rgba(0, 0, 0, 0)';
    if (hasBg || hasBorder) {
      const r = rel(el.getBoundingClientRect());
      const rx = Math.min(parseFloat(cs.borderTopLeftRadius) || 0, r.w / 2, r.h / 2);
      const stroke = hasBorder ? ` stroke="${cs.borderTopColor}" stroke-width="${bw}"${cs.borderTopStyle === 'dashed' || cs.borderTopStyle === 'dotted' ? ' stroke-dasharray="3 2"' : ''}` : '';
      // Inset by half the border so the stroke stays inside the box, as CSS draws it.
      parts.push(`<rect x="${r.x + bw / 2}" y="${r.y + bw / 2}" width="${Math.max(0, r.w - bw)}" height="${Math.max(0, r.h - bw)}" rx="${rx}" fill="${hasBg ? bg : 'none'}"${stroke}/>`);
    }
    for (const child of el.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        const text = child.textContent?.replace(/\s+/g, ' ').trim();
        if (!text) continue;
        const range = document.createRange();
        range.selectNodeContents(child);
        const box = range.getBoundingClientRect();
        if (box.width === 0) continue;
        const r = rel(box);
        const font = `font-family="${esc(cs.fontFamily)}" font-size="${cs.fontSize}" font-weight="${cs.fontWeight}"`;
        parts.push(`<text x="${r.x}" y="${r.y + r.h * 0.78}" ${font} fill="${cs.color}">${esc(text)}</text>`);
      } else if (child instanceof Element) walk(child);
    }
  };
  for (const child of view.children) walk(child);
  const svg = `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
  return { name, svg, width, height };
}

/** Rasterises an SVG document at `scale` × its size (PNG bytes), through an image and a canvas. */
export async function svgToPng(v: ViewSvg, scale = 2): Promise<Uint8Array> {
  const url = URL.createObjectURL(new Blob([v.svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(v.width * scale));
    canvas.height = Math.max(1, Math.round(v.height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, v.width, v.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error(`could not encode ${v.name} as PNG`);
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The views on screen, named by their panel: topology, timeline, charts, replicas or servers. */
export function viewsOnScreen(doc: Document = document): Array<{ name: string; el: HTMLElement }> {
  const out: Array<{ name: string; el: HTMLElement }> = [];
  for (const el of doc.querySelectorAll<HTMLElement>('main section.view')) {
    const m = /\bview-([a-z]+)\b/.exec(el.className);
    if (!m) continue;
    const name = m[1] === 'replicas' && el.querySelector('.sv-servers') ? 'servers' : m[1];
    if (visible(el)) out.push({ name, el });
  }
  return out;
}
