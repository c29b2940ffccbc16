import type { Member } from '../../room/doc';
// Attributes written only on a change: an unchanged write still invalidates the SVG's layout.
import { setAttr as put } from '../views/d3quiet';

/**
 * Students' names on the topology, on every screen in the room, and a ring around this student's
 * own node. The topology view is drawn by D3 and is being rewritten elsewhere; rather than reach
 * into it, this decorates its node groups through their stable test ids (`node-<id>`,
 * CONTRACTS §4), adding its own elements that D3's updates leave alone.
 */

const SVG = 'http://www.w3.org/2000/svg';


/**
 * The name's box, measured when the name changes, not in every frame: getBBox forces a
 * synchronous layout, and this runs after each topology redraw on a student's tablet.
 */
function nameBox(text: SVGTextElement, name: string, x: number, y: number): { x: number; width: number } {
  const el = text as SVGTextElement & { __roomBox?: { name: string; dx: number; width: number } };
  const hit = el.__roomBox;
  if (hit && hit.name === name) return { x: x + hit.dx, width: hit.width };
  const box = text.getBBox?.() ?? { x: x - name.length * 4, y: y - 8, width: name.length * 8, height: 16 };
  // Relative to the anchor point: the tag moves with its node's labels without measuring again.
  el.__roomBox = { name, dx: box.x - x, width: box.width };
  return { x: box.x, width: box.width };
}

export function decorateTopology(root: ParentNode, members: readonly Member[], myNode: string | null): void {
  const names = new Map<string, string>();
  for (const m of members) if (m.node) names.set(m.node, m.name);
  for (const g of root.querySelectorAll<SVGGElement>('g[data-testid^="node-"]')) {
    const id = g.dataset.testid!.slice('node-'.length);
    if (g.classList.contains('room-mine') !== (id === myNode)) g.classList.toggle('room-mine', id === myNode);
    const name = names.get(id);
    let tag = g.querySelector<SVGGElement>(':scope > g.room-tag');
    if (!name) {
      tag?.remove();
      continue;
    }
    if (!tag) {
      tag = document.createElementNS(SVG, 'g');
      tag.setAttribute('class', 'room-tag');
      tag.append(document.createElementNS(SVG, 'rect'), document.createElementNS(SVG, 'text'));
      g.append(tag);
    }
    const text = tag.querySelector('text')!;
    const online = members.find((m) => m.node === id)?.online ?? false;
    if (tag.classList.contains('offline') === online) tag.classList.toggle('offline', !online);
    if (text.textContent !== name) text.textContent = name;
    // Beside the node's own labels (version, backend), on their outer side, so the name never
    // covers a link: the view already placed those labels away from the edges.
    const ver = g.querySelector('text.cv-ver');
    const back = g.querySelector('text.cv-backend');
    const x = Number(ver?.getAttribute('x') ?? 0);
    const anchor = ver?.getAttribute('text-anchor') ?? 'middle';
    const ys = [ver, back].map((t) => Number(t?.getAttribute('y') ?? 0));
    const below = anchor === 'middle' && ys[0] > 0;
    // Above, clear of the top line's letters (11 px of 15-px type above its baseline, at the view's
    // scale): a fixed 20 px put the tag's box over the version's top at presenter type.
    const k = Number((g.ownerSVGElement as SVGSVGElement | null)?.dataset.textScale ?? 1) || 1;
    const y = below ? Math.max(...ys) + 20 : Math.min(...ys) - 11 * k - 12;
    put(text, 'x', String(x));
    put(text, 'y', String(y));
    put(text, 'dy', '0.35em');
    put(text, 'text-anchor', anchor);
    const box = nameBox(text, name, x, y);
    const rect = tag.querySelector('rect')!;
    put(rect, 'x', String(box.x - 6));
    put(rect, 'y', String(y - 10));
    put(rect, 'width', String(box.width + 12));
    put(rect, 'height', '20');
    put(rect, 'rx', '10');
  }
}
