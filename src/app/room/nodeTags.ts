import type { Member } from '../../room/doc';

/**
 * Students' names on the topology, on every screen in the room, and a ring around this student's
 * own node. The topology view is drawn by D3 and is being rewritten elsewhere; rather than reach
 * into it, this decorates its node groups through their stable test ids (`node-<id>`,
 * CONTRACTS §4), adding its own elements that D3's updates leave alone.
 */

const SVG = 'http://www.w3.org/2000/svg';

export function decorateTopology(root: ParentNode, members: readonly Member[], myNode: string | null): void {
  const names = new Map<string, string>();
  for (const m of members) if (m.node) names.set(m.node, m.name);
  for (const g of root.querySelectorAll<SVGGElement>('g[data-testid^="node-"]')) {
    const id = g.dataset.testid!.slice('node-'.length);
    g.classList.toggle('room-mine', id === myNode);
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
    tag.classList.toggle('offline', !online);
    if (text.textContent !== name) text.textContent = name;
    // Above the glyph: the focus ring's radius is the glyph's plus 8 (TopologyView).
    const r = Number(g.querySelector('circle.cv-focus')?.getAttribute('r') ?? 28) - 8;
    const y = -(r + 16);
    text.setAttribute('x', '0');
    text.setAttribute('y', String(y));
    text.setAttribute('dy', '0.35em');
    text.setAttribute('text-anchor', 'middle');
    const width = Math.max(24, text.getComputedTextLength?.() ?? name.length * 8) + 12;
    const rect = tag.querySelector('rect')!;
    rect.setAttribute('x', String(-width / 2));
    rect.setAttribute('y', String(y - 10));
    rect.setAttribute('width', String(width));
    rect.setAttribute('height', '20');
    rect.setAttribute('rx', '10');
  }
}
