import * as d3 from 'd3';
import './d3quiet';
import type { NodeState } from '../../engine/index/runState';
import type { Action, NodeId, NodeRole } from '../../sim/types';
import type { Lang } from '../i18n/lang';
import { consensusRoleOf, nodeLines, termWord, versionOf, type DataRole, type WordsContext } from '../words/nodeWords';
import { CLOCK_BADGE, type LabelRoom, type Pt, type TopologyLayout } from './geometry';
import { CROWN_BASE, LEADER_RING_OUT } from './layoutBasics';
import { idFontPx, nodeHitRect, textOn } from './topologyMath';
import { crownBaselineBelow, labelPlacement, nodeHitBox } from './nodeLabels';
import { measuredWidth } from './hooks';
import { vs } from './strings';

/**
 * The topology's node glyphs: the elements a node gets once (enterNode) and what a frame writes
 * into those whose own drawing changed (drawNodes): shape, role ring and crown, id, version,
 * backend or term, the slow clock, the failure and pause signs, the hit areas and the words a
 * screen reader says.
 */

export interface TopologyHandlers {
  onSelect(id: string | null): void;
  onAction(a: Action): void;
}

export interface NodeDatum {
  id: NodeId;
  node: NodeState;
  /** The stable `data-role` hook at the cursor time (crashed, leader, follower, worker …). */
  role: DataRole;
  /** Raft term or Kafka leader epoch at the cursor time (null where it does not apply). */
  term: number | null;
  /** The version it holds at the cursor time (servers: from their facts). */
  version: number;
  backend: string;
  p: Pt;
  colour: string;
  isWorker: boolean;
  /** Unit vector from the centre outwards (labels go on the outside of the circle). */
  out: Pt;
}

type NodeSel = d3.Selection<SVGGElement, NodeDatum, d3.BaseType, unknown>;

function hexagon(r: number): string {
  const pts = d3.range(6).map((i) => {
    const a = (Math.PI / 3) * i + Math.PI / 6;
    return `${r * Math.cos(a)},${r * Math.sin(a)}`;
  });
  return `M${pts.join('L')}Z`;
}

function shapePath(role: NodeRole, r: number): string {
  if (role === 'worker') return `M${-r},0A${r},${r} 0 1,0 ${r},0A${r},${r} 0 1,0 ${-r},0Z`;
  if (role === 'broker') return hexagon(r * 1.05);
  // A coordination-service server: a diamond, apart from the strategy's own servers.
  if (role === 'coord') return `M0,${-r * 1.15}L${r * 1.15},0L0,${r * 1.15}L${-r * 1.15},0Z`;
  const s = r * 0.9;
  return `M${-s},${-s}H${s}V${s}H${-s}Z`;
}

/** A node group's classes: its state (down, paused, failed), kind and selection. */
export function nodeClass(d: NodeDatum, selected: NodeId | null): string {
  let c = 'cv-node';
  if (!d.node.up) c += ' down';
  if (d.isWorker) c += ' draggable';
  else c += ' infra';
  if (d.node.paused !== undefined) c += ' paused';
  if (d.node.failed !== undefined) c += ' failed';
  if (d.id === selected) c += ' selected';
  return c;
}

/** A node's elements, in paint order, with its click, key and drag behaviour (bound once: the handlers are read through the ref). */
export function enterNode(enter: d3.Selection<d3.EnterElement, NodeDatum, d3.BaseType, unknown>, handlers: { readonly current: TopologyHandlers }, drag: d3.DragBehavior<SVGGElement, NodeDatum, Pt>): NodeSel {
  const g = enter
    .append('g')
    .attr('class', 'cv-node')
    .attr('tabindex', -1)
    .attr('role', 'button')
    .attr('aria-haspopup', 'menu')
    .on('click', (ev: MouseEvent, d) => {
      ev.stopPropagation();
      if (ev.defaultPrevented) return; // the click that ends a drag
      handlers.current.onSelect(d.id);
    })
    .on('keydown', function (ev: KeyboardEvent, d) {
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      ev.preventDefault();
      ev.stopPropagation(); // Space must not also play/pause
      handlers.current.onSelect(d.id);
      // Enter opens the node's action menu by the right-click path (the panel's
      // onContextMenu), placed at the glyph's corner.
      if (ev.key === 'Enter') {
        const r = this.getBoundingClientRect();
        this.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: r.right, clientY: r.bottom }));
      }
    });
  // Transparent hit area over glyph and labels: a generous target that never reaches a
  // neighbour's centre. The extent box (no pointer events) is symmetric about the glyph
  // and covers every label, so the centre of the group's box, where Playwright and a
  // quick hand both click, is always the glyph, whichever side the labels are on.
  g.append('rect').attr('class', 'cv-node-extent');
  g.append('rect').attr('class', 'cv-node-hit');
  g.append('circle').attr('class', 'cv-focus');
  g.append('path').attr('class', 'cv-progress');
  g.append('path').attr('class', 'cv-role-ring');
  g.append('path').attr('class', 'cv-shape');
  g.append('path').attr('class', 'cv-cross');
  // The drawn words are hidden from assistive technology: the group's aria-label says
  // them all in a sentence (id, role, version, term, state).
  g.append('text').attr('class', 'cv-id').attr('aria-hidden', 'true');
  g.append('text').attr('class', 'cv-ver cv-num').attr('aria-hidden', 'true');
  g.append('text').attr('class', 'cv-backend').attr('aria-hidden', 'true');
  g.append('text').attr('class', 'cv-term').attr('aria-hidden', 'true');
  g.append('text').attr('class', 'cv-crown').attr('aria-hidden', 'true').text('♛');
  const clock = g.append('g').attr('class', 'cv-clock').attr('aria-hidden', 'true');
  clock.append('rect');
  clock.append('circle');
  clock.append('path');
  clock.append('text').attr('class', 'cv-num');
  g.append('text').attr('class', 'cv-bang').attr('aria-hidden', 'true').text('!');
  // A pause sign (two bars on a disc), drawn: the ⏸ character is missing from common fonts.
  const pause = g.append('g').attr('class', 'cv-paused').attr('aria-hidden', 'true');
  pause.append('circle').attr('r', 9);
  pause.append('path').attr('d', 'M-3.5,-4.5V4.5M3.5,-4.5V4.5');
  // A space after each drawn word (SVG does not render text between elements): read as
  // one string, "w0 v3 wasm" stays three words, as the aria-label has them.
  g.selectAll<SVGTextElement, unknown>('text').each(function () {
    this.after(' ');
  });
  g.append('title');
  g.call(drag);
  return g;
}

export interface NodesFrame {
  lay: TopologyLayout;
  lang: Lang;
  selected: NodeId | null;
  /** The longest id's length: one type size for every glyph's id. */
  idChars: number;
  words: WordsContext;
  /** Where a node is drawn now (home, dragged or springing back). */
  posOf(id: NodeId): Pt | undefined;
  /** Workers whose version labels are left out now, for their rivals (hiddenByRivals). */
  hidden: ReadonlySet<NodeId>;
}

/**
 * What of a node's drawing changes with its version and facts alone (a pull, a heartbeat): the
 * `data-version` hook, the version label, the spoken label and the tooltip. A frame where nothing
 * else about a node changed writes only these — on a 16-worker run some node's version changes on
 * almost every frame, and the full drawing read back some forty attributes. Everything else the
 * glyph shows is in the caller's shape key (nodeShapeKey). `words: false` writes the hook alone and
 * leaves the words for later (drawNodeWords, at most every 100 ms while the run goes: the servers'
 * labels and tooltips were rewritten some 400 times a second on ×16, and a number that changes
 * five times a second cannot be read or listened to anyway).
 */
export function drawNodeLabels(sel: NodeSel, f: Pick<NodesFrame, 'lay' | 'lang' | 'words' | 'hidden'>, words = true): void {
  sel.attr('data-version', (d) => String(d.version));
  if (words) drawNodeWords(sel, f);
}

/** A node's drawn version label, spoken label and tooltip (each written only where it changed). */
export function drawNodeWords(sel: NodeSel, f: Pick<NodesFrame, 'lay' | 'lang' | 'words' | 'hidden'>): void {
  const { lay, lang, words: ctx } = f;
  sel.attr('aria-label', (d) => nodeLabel(d, lang, !lay.dense));
  drawVersionTexts(sel, f);
  sel.select('title').text((d) => {
    const lines = [`${d.id} · v${d.version}`];
    if (d.node.failed !== undefined) lines.push(`${vs(lang, 'failed')}: ${d.node.failed}`);
    else if (!d.node.up) lines.push(vs(lang, 'crashed'));
    if (d.node.slowFactor > 1) lines.push(`${vs(lang, 'slow')} ×${fmtFactor(d.node.slowFactor)}`);
    if (d.node.up) lines.push(...nodeLines(d.node, ctx, lang));
    return lines.join('\n');
  });
}

/** Writes the drawn version labels of `sel` (a label whose text is unchanged is not touched). */
function drawVersionTexts(sel: NodeSel, f: Pick<NodesFrame, 'lay' | 'hidden'>): void {
  sel.select('text.cv-ver').text((d) => versionText(d, f.lay, f.hidden));
}

/** The version label a node shows: none for a coordination server (its term says enough) or where the layout leaves labels out. */
function versionText(d: NodeDatum, lay: TopologyLayout, hidden: ReadonlySet<NodeId>): string {
  return d.node.role === 'coord' || lay.unlabelled.has(d.id) || hidden.has(d.id) ? '' : `v${d.version}`;
}

/**
 * Everything of a node's drawing but what drawNodeLabels writes: its state, role, term, backend,
 * slow factor and the version label's length (the hit box follows it). Nodes whose shape key is
 * unchanged need only their labels written.
 */
export function nodeShapeKey(d: Pick<NodeDatum, 'id' | 'node' | 'role' | 'term' | 'backend' | 'version'>): string {
  const n = d.node;
  return `${d.id}:${n.up}:${n.failed ?? ''}:${n.slowFactor}:${n.byzantine?.attack ?? ''}:${n.paused?.since ?? ''}:${d.role}:${consensusRoleOf(n) ?? ''}:${d.term ?? ''}:${d.backend}:${String(d.version).length}`;
}

/** Writes every part of the given nodes' drawing. */
export function drawNodes(drawn: NodeSel, f: NodesFrame): void {
  const { lay, lang, selected, idChars, posOf, hidden } = f;
  const R = lay.nodeR;
  drawNodeLabels(drawn, f);
  drawn
    .attr('data-testid', (d) => `node-${d.id}`)
    .attr('data-up', (d) => String(d.node.up))
    .attr('data-role', (d) => d.role)
    .attr('data-term', (d) => (d.term === null ? null : String(d.term)))
    // One class string, written only when it differs (classList writes even an unchanged one).
    .each(function (d) {
      const cls = nodeClass(d, selected);
      if (this.getAttribute('class') !== cls) this.setAttribute('class', cls);
    })
    .attr('transform', (d) => {
      const q = posOf(d.id) ?? d.p;
      return `translate(${q.x},${q.y})`;
    });
  drawn.select('circle.cv-focus').attr('r', R + 8);
  drawn
    .select('path.cv-shape')
    .attr('d', (d) => shapePath(d.node.role, R))
    .attr('fill', (d) => (d.isWorker ? d.colour : null))
    // A darker rim: a yellow or orange disc on a white panel is under 3:1 (WCAG 1.4.11); its rim is not.
    .attr('stroke', (d) => (d.isWorker ? (d3.color(d.colour)?.darker(1.5).formatHex() ?? d.colour) : null));
  // Consensus role on server/broker glyphs (RaftScope): leader = bold ring and a crown,
  // candidate = dashed ring, follower plain; the term (Kafka: leader epoch) under the version.
  // Coordination servers are `coord` in data-role but lead and follow all the same.
  const ring = (d: NodeDatum): string => (d.isWorker ? 'none' : (consensusRoleOf(d.node) ?? 'none'));
  drawn
    .select('path.cv-role-ring')
    .attr('class', (d) => `cv-role-ring ${ring(d)}`)
    .attr('d', (d) => (ring(d) === 'leader' || ring(d) === 'candidate' ? shapePath(d.node.role, R + LEADER_RING_OUT) : ''));
  drawn
    .select('text.cv-crown')
    .attr('x', 0)
    .attr('y', (d) => (lay.crownBelow?.has(d.id) ? crownBaselineBelow(R, lay.textScale) : -(R + CROWN_BASE)))
    .attr('text-anchor', 'middle')
    .style('display', (d) => (ring(d) === 'leader' ? null : 'none'));
  const k = R * 0.55;
  drawn.select('path.cv-cross').attr('d', (d) => (d.node.up ? '' : `M${-k},${-k}L${k},${k}M${k},${-k}L${-k},${k}`));
  drawn
    .select('text.cv-id')
    .attr('dy', '0.35em')
    .style('font-size', `${idFontPx(R, idChars)}px`)
    // A style, not an attribute: the stylesheet's fill (the theme's text colour) would win
    // over an attribute, and light text on yellow or orange fails contrast.
    .style('fill', (d) => (d.isWorker && d.node.up ? textOn(d.colour) : null))
    .text((d) => d.id);

  // Version (and backend) outside the glyph: beside side nodes, above/below the others.
  drawn.each(function (d) {
    const sideOf = lay.side.get(d.id);
    const term0 = !d.isWorker && d.term !== null && !lay.termless.has(d.id);
    const lp =
      sideOf !== undefined
        ? labelPlacement({ x: sideOf, y: 0 }, R, d.isWorker ? d.backend !== '' && !lay.dense : term0, lay.textScale)
        : labelPlacement(d.out, R, d.isWorker && d.backend !== '' && !lay.dense, lay.textScale);
    const g = d3.select(this);
    // A worker in an inner sub-column of a crowded column, or a server in a narrow panel, has
    // no room for labels beside it.
    // On a crowded ring, a version that would touch its rival's is left out while it would.
    const bare = lay.unlabelled.has(d.id) || hidden.has(d.id);
    // A coordination server holds no parameters: no version label (its term or epoch says enough).
    const ver = versionText(d, lay, hidden);
    g.select('text.cv-ver').attr('x', lp.x).attr('y', lp.yVersion).attr('text-anchor', lp.anchor);
    const backend = d.isWorker && !lay.dense && !bare ? d.backend : '';
    g.select('text.cv-backend').attr('x', lp.x).attr('y', lp.yBackend).attr('text-anchor', lp.anchor).text(backend);
    const term = term0 && !bare ? `${termWord(d.node, lang)} ${d.term}` : '';
    // A coordination server has no version label: its term (epoch) takes that line.
    g.select('text.cv-term').attr('x', lp.x).attr('y', d.node.role === 'coord' ? lp.yVersion : lp.yBackend).attr('text-anchor', lp.anchor).text(term);
    const extent = nodeHitBox(lp, R, ver.length, Math.max(backend.length, term.length), lay.textScale);
    g.select('rect.cv-node-extent').attr('x', extent.x).attr('y', extent.y).attr('width', extent.width).attr('height', extent.height);
    const hit = nodeHitRect(lay, d.id, d.isWorker, extent);
    g.select('rect.cv-node-hit').attr('x', hit.x).attr('y', hit.y).attr('width', hit.width).attr('height', hit.height);
  });

  const clock = drawn.select<SVGGElement>('g.cv-clock').style('display', (d) => (d.node.slowFactor > 1 ? null : 'none'));
  // Its box reaches badgeReach(R) above the centre (geometry.ts keeps that room in a short ring).
  const h = CLOCK_BADGE.halfHeight;
  clock.attr('transform', `translate(${R * CLOCK_BADGE.dx},${-R * CLOCK_BADGE.dy})`);
  clock
    .select('rect')
    .attr('x', -8)
    .attr('y', -h)
    .attr('rx', h)
    .attr('height', 2 * h)
    .attr('width', (d) => 22 + 8 * `×${fmtFactor(d.node.slowFactor)}`.length);
  clock.select('circle').attr('r', 5);
  clock.select('path').attr('d', 'M0,-3.2V0L2.4,1.6');
  clock
    .select('text')
    .attr('x', 8)
    .attr('dy', '0.35em')
    .text((d) => `×${fmtFactor(d.node.slowFactor)}`);
  drawn
    .select('text.cv-bang')
    .attr('x', -R * 0.95)
    .attr('y', -R * 0.55)
    .style('display', (d) => (d.node.failed !== undefined ? null : 'none'));
  drawn
    .select('g.cv-paused')
    .attr('transform', `translate(${R * 0.85},${R * 0.85})`)
    .style('display', (d) => (d.node.paused !== undefined ? null : 'none'));
}

/**
 * What a screen reader says for a node: first the words the glyph shows, in their order (id,
 * version, backend, term, slow factor: a speech-input user says what they see, WCAG 2.5.3),
 * then its role and state in words. A coordination server shows no version (its revision is a
 * zxid, not parameters), and leads or follows like any consensus server.
 */
export function nodeLabel(d: NodeDatum, lang: Lang, showBackend: boolean): string {
  const shown = d.node.role === 'coord' ? [d.id] : [d.id, `v${d.version}`];
  if (d.isWorker && showBackend && d.backend) shown.push(d.backend);
  if (!d.isWorker && d.term !== null) shown.push(`${termWord(d.node, lang)} ${d.term}`);
  if (d.node.slowFactor > 1) shown.push(`×${fmtFactor(d.node.slowFactor)}`);
  const state: string[] = [];
  const consensus = consensusRoleOf(d.node);
  if (consensus) state.push(vs(lang, consensus));
  if (d.node.failed !== undefined) state.push(vs(lang, 'failed'));
  else if (!d.node.up) state.push(vs(lang, 'crashed'));
  if (d.node.paused !== undefined) state.push(vs(lang, 'paused'));
  if (d.node.slowFactor > 1) state.push(vs(lang, 'slow'));
  return state.length > 0 ? `${shown.join(' ')}: ${state.join(', ')}` : shown.join(' ');
}

function fmtFactor(f: number): string {
  return Number.isInteger(f) ? String(f) : f.toFixed(1);
}

/** A view's type in rem (views/css/base.css .cv-view): the labels are sized in rem, so at the page's type. */
const VIEW_EM = 0.933;

/**
 * The room a node's labels need beside its glyph, in px, measured as drawn: a version ("v888",
 * .cv-ver: 1 rem, 600, in the tabular monospace of .cv-num), a worker's backend (.cv-backend: 0.8
 * rem) and a server's term line in its protocol's word (.cv-term: 0.8 rem mono; "ballot 8", "任期
 * 8": one digit, the lessons' terms), measured once each. `fs` is the view's type (0.933 rem): the
 * version measured there in the text face came out 10 % short, and two 3-digit versions on a
 * ring's top row ran together ("v178v179"). `digits`: the longest version shown, at least three
 * (an asynchronous PS passes v1000 in a lesson's 30 s, and "v1357" ran past the panel's edge).
 */
export function labelRoom(nodes: readonly NodeState[], lang: Lang, fs: number, sans: string, mono: string, digits = 3): LabelRoom {
  const rem = fs / VIEW_EM;
  const version = measuredWidth(`v${'8'.repeat(Math.max(3, digits))}`, rem, mono || sans, '600');
  let server = version;
  for (const n of nodes) if (n.role !== 'worker') server = Math.max(server, measuredWidth(`${termWord(n, lang)} 8`, 0.8 * rem, mono || sans));
  return { worker: Math.ceil(Math.max(version, measuredWidth('webgpu', 0.8 * rem, sans))), server: Math.ceil(server), version: Math.ceil(version) };
}

/**
 * Each node's version as its label says it (versionOf), and the most digits a drawn one has (at
 * least 3): the labels' room follows it, laid out again when a version gains a digit. A
 * coordination server's revision is not drawn — a ZooKeeper zxid has ten digits or more, and
 * counted it pushed the workers into the middle and shrank every glyph.
 */
export function labelledVersions(nodes: readonly NodeState[], sampled: (id: NodeId) => number | null | undefined): { shown: Map<NodeId, number>; digits: number } {
  const shown = new Map<NodeId, number>();
  let digits = 3;
  for (const n of nodes) {
    const v = versionOf(n, sampled(n.id));
    shown.set(n.id, v);
    if (n.role !== 'coord') digits = Math.max(digits, String(v).length);
  }
  return { shown, digits };
}
