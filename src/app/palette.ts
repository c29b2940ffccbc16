import { symbol, symbolsFill, type Path, type SymbolType } from 'd3';

/**
 * Okabe–Ito, colour-blind safe. Colour always means "which worker" and is the same in every view;
 * servers and brokers are neutral shapes, never a worker colour.
 */
export const workerColours = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7', '#999999'] as const;

export function colourOf(nodeId: string): string {
  if (!nodeId.startsWith('w')) return 'var(--neutral-node)';
  const i = Number(nodeId.slice(1));
  return workerColours[i % workerColours.length];
}

/**
 * Message kinds, coloured by kind (with a legend). Two groups, so a glance tells traffic from
 * chatter: messages that carry parameters or gradients are saturated; control messages are
 * grey-ish, but the three a Raft lesson points at (vote, heartbeat, append) stay tellable apart
 * by hue as well as lightness. Every kind any registered strategy sends is listed here; the
 * palette test checks it against the strategies' sources.
 */
export const dataKinds = ['gradient', 'params', 'chunk', 'append', 'snapshot', 'records', 'state', 'merged', 'contribution', 'prepare', 'accept'] as const;
export const controlKinds = ['vote', 'heartbeat', 'fetch', 'pull', 'ack', 'nack', 'state-req', 'promise', 'accepted', 'decision', 'ask', 'coord'] as const;

export const messageColours: Record<string, string> = {
  // data-carrying: saturated
  gradient: '#c0392b', // red: a worker's gradient on its way to be applied
  params: '#1e8449', // green: parameters coming back
  chunk: '#2e5fa8', // blue: ring all-reduce chunk
  append: '#7d3c98', // purple: replication of log entries (Raft AppendEntries, Kafka follower fetch response)
  snapshot: '#3b1f5c', // deep violet, kin of append: a Raft leader's snapshot for a follower whose entries it compacted (InstallSnapshot)
  records: '#b9560f', // burnt orange: log records handed to a consumer (Kafka PS replica)
  state: '#5b3fb0', // indigo: catch-up state for a restarted node
  merged: '#0e7c86', // teal: merged model after a partition heals (degrade)
  contribution: '#8e5b1a', // brown: a side's local work sent for the merge (degrade)
  prepare: '#a0296e', // plum: phase 1 request (2PC's PREPARE with the update; Paxos's prepare)
  accept: '#6b8e23', // olive: Paxos phase 2 request with a value
  // control: grey-ish, hue kept for the ones a lesson names
  vote: '#c9a227', // muted gold: RequestVote and its reply
  heartbeat: '#8fb3c9', // pale steel blue: liveness beacon
  fetch: '#7a8b99', // slate: follower/consumer fetch request
  pull: '#8c8c8c', // grey: a read request
  ack: '#a9a9a9', // light grey: acknowledgement
  nack: '#b07a86', // muted rose: refusal / redirect to the leader
  'state-req': '#a99cc4', // muted lavender: asks for catch-up state
  coord: '#7f9a77', // sage: a coordination-service request or answer (lease, lock, metadata)
  promise: '#d4b86a', // light gold: Paxos phase 1 reply (kin of a vote)
  accepted: '#9fbf9f', // pale sage: Paxos phase 2 reply
  decision: '#c48a5a', // tan: 2PC commit / abort
  ask: '#9db8b0', // pale teal grey: a 2PC participant in doubt asks for the decision
};

/** Colour of a message kind; unknown kinds (a strategy newer than this palette) stay neutral grey. */
export function kindColour(kind: string): string {
  return messageColours[kind] ?? '#777777';
}

const symbolPaths = new Map<string, string>();

/**
 * The shape of a message kind's dot, so colour is never the only cue (WCAG 1.4.1): d3's seven
 * filled symbols (circle, cross, diamond, square, star, triangle, wye) in the order the run first
 * sent its kinds (`kinds`, the run index's list) — distinct within a run of up to seven kinds, and
 * the legend shows each. An SVG path centred on 0,0 with the given area in px².
 */
export function kindSymbolPath(kinds: readonly string[], kind: string, area: number): string {
  const type = kindSymbol(kinds, kind);
  const key = `${symbolsFill.indexOf(type)}|${area}`;
  let d = symbolPaths.get(key);
  if (d === undefined) {
    d = symbol(type, area)() ?? '';
    symbolPaths.set(key, d);
  }
  return d;
}

/** Dash patterns for the time-space diagram's arrows, in the order of `kindSymbolPath`'s shapes. */
const dashes: readonly (readonly number[])[] = [[], [6, 3], [2, 2], [8, 3, 2, 3], [1, 3], [10, 4], [4, 2, 1, 2]];

/**
 * The dash of a message kind's arrows on the timeline (solid for the first kind the run sent),
 * so kinds differ by more than colour there too (WCAG 1.4.1); the legend shows each.
 */
export function kindDash(kinds: readonly string[], kind: string): readonly number[] {
  return dashes[Math.max(0, kinds.indexOf(kind)) % dashes.length];
}

/** The d3 symbol type of a message kind (the shape `kindSymbolPath` draws). */
export function kindSymbol(kinds: readonly string[], kind: string): SymbolType {
  return symbolsFill[Math.max(0, kinds.indexOf(kind)) % symbolsFill.length];
}

/** Where drawSymbolAt draws: the path and the offset, set for each symbol drawn. */
const shifted: { path: Path | null; x: number; y: number } = { path: null, x: 0, y: 0 };

/**
 * A context that draws into `shifted.path`, moved by `shifted`'s offset: one object for every
 * symbol drawn (the moving parts draw a symbol per message in flight on every frame).
 */
const shiftedContext: Parameters<SymbolType['draw']>[0] = {
  moveTo: (px, py) => shifted.path!.moveTo(shifted.x + px, shifted.y + py),
  lineTo: (px, py) => shifted.path!.lineTo(shifted.x + px, shifted.y + py),
  arc: (px, py, r, a0, a1, ccw) => shifted.path!.arc(shifted.x + px, shifted.y + py, r, a0, a1, ccw),
  arcTo: (x1, y1, x2, y2, r) => shifted.path!.arcTo(shifted.x + x1, shifted.y + y1, shifted.x + x2, shifted.y + y2, r),
  bezierCurveTo: (ax, ay, bx, by, px, py) => shifted.path!.bezierCurveTo(shifted.x + ax, shifted.y + ay, shifted.x + bx, shifted.y + by, shifted.x + px, shifted.y + py),
  quadraticCurveTo: (ax, ay, px, py) => shifted.path!.quadraticCurveTo(shifted.x + ax, shifted.y + ay, shifted.x + px, shifted.y + py),
  rect: (px, py, w, h) => shifted.path!.rect(shifted.x + px, shifted.y + py, w, h),
  closePath: () => shifted.path!.closePath(),
  // No d3 symbol draws an ellipse, and d3.path has none to forward to.
  ellipse: () => {
    throw new Error('drawSymbolAt: ellipse is not supported');
  },
};

/**
 * Draws `type` centred on x,y into `path` (d3's symbols draw centred on 0,0 with moveTo, lineTo,
 * arc, rect and closePath): many dots become subpaths of one element, in absolute coordinates.
 */
export function drawSymbolAt(path: Path, type: SymbolType, area: number, x: number, y: number): void {
  shifted.path = path;
  shifted.x = x;
  shifted.y = y;
  try {
    type.draw(shiftedContext, area);
  } finally {
    shifted.path = null;
  }
}
