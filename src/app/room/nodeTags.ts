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
    // Beside the node's own labels (version, backend), on their outer side, so the name never
    // covers a link: the view already placed those labels away from the edges.
    const ver = g.querySelector('text.cv-ver');
    const back = g.querySelector('text.cv-backend');
    const x = Number(ver?.getAttribute('x') ?? 0);
    const anchor = ver?.getAttribute('text-anchor') ?? 'middle';
    const ys = [ver, back].map((t) => Number(t?.getAttribute('y') ?? 0));
    const below = anchor === 'middle' && ys[0] > 0;
    const y = below ? Math.max(...ys) + 20 : Math.min(...ys) - 20;
    text.setAttribute('x', String(x));
    text.setAttribute('y', String(y));
    text.setAttribute('dy', '0.35em');
    text.setAttribute('text-anchor', anchor);
    const box = text.getBBox?.() ?? { x: x - name.length * 4, y: y - 8, width: name.length * 8, height: 16 };
    const rect = tag.querySelector('rect')!;
    rect.setAttribute('x', String(box.x - 6));
    rect.setAttribute('y', String(y - 10));
    rect.setAttribute('width', String(box.width + 12));
    rect.setAttribute('height', '20');
    rect.setAttribute('rx', '10');
  }
}
