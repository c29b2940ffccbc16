import * as d3 from 'd3';
import type { RunIndex } from '../../engine/index/runIndex';
import { logAt, logEndAt, type LogRow, type NodeState, type RunState } from '../../engine/index/runState';
import type { LogItem, NodeFacts } from '../../protocols/facts';
import type { Lang } from '../i18n/lang';
import { nodeLines, p0, type WordsContext } from '../words/nodeWords';
import { serversEn } from '../words/serverWords.en';
import { wordsIn } from '../words/tables';

/**
 * What the servers panel draws at a time t, as plain data (unit-tested): one row per Raft server,
 * Kafka broker, Paxos server, 2PC participant or coordination-service server (etcd's Raft log,
 * ZooKeeper's transaction log), from its typed facts and its log as it stood at
 * t (RaftScope's picture), plus Kafka's consumers as one-line rows. Logs share one index window, so the same index lines up in
 * every row and a missing or conflicting entry shows as a gap in a column.
 */

export interface LogBox {
  index: number;
  term: number;
  committed: boolean;
  /** In the server's snapshot (Raft §7): compacted out of its log; drawn faded. */
  compacted?: boolean;
  /** `w2#14` for an update, record or 2PC prepare, `no-op` for a leader's no-op entry, ✓/✗ for a 2PC decision. */
  label: string;
}

export type RowRole = 'leader' | 'follower' | 'candidate' | 'looking' | 'crashed' | 'paused' | 'consumer' | 'offline' | 'coordinator' | 'participant' | 'prepared' | 'inDoubt';

/**
 * Whose words the panel speaks: term/commit (Raft, and etcd's Raft), epoch/HW (Kafka), ballot/chosen
 * (Paxos), transactions (2PC), epoch/commit (ZooKeeper's Zab).
 */
export type PanelFlavor = 'raft' | 'kafka' | 'paxos' | '2pc' | 'zab';

export interface ServerRow {
  id: string;
  /** `coord`: a coordination-service server (c0…), beside the strategy's own. */
  kind: 'server' | 'broker' | 'consumer' | 'coord';
  up: boolean;
  role: RowRole;
  /** Raft term, the Kafka leader epoch of topic partition 0, the Paxos ballot promised, or the Zab epoch. */
  term: number | null;
  /**
   * Raft commit index, the Kafka high watermark of topic partition 0 (an exclusive offset), the
   * Paxos chosen prefix, or the last committed transaction of ZooKeeper's log (by index).
   */
  commitIndex: number | null;
  log: LogBox[];
  /**
   * Where the row's whole log lies before the window (a deposed leader cut off in a minority, a
   * crashed server): its last entry, so the panel can say where it ends rather than show an empty
   * row; 'empty' where it holds no entry while other rows do; null where it shows boxes or has no log.
   */
  tail: LogBox | 'empty' | null;
  /** One short line of further facts in the reader's language (leader and vote; ISR and LEO; offset and lag). */
  facts: string;
  /** Every fact line, for the row's tooltip. */
  lines: string[];
}

export interface ServerPanelModel {
  rows: ServerRow[];
  /** Kafka words (epoch, HW) rather than Raft's (term, commit). */
  kafka: boolean;
  flavor: PanelFlavor;
  /** Only a coordination service's servers are drawn (the strategy has none): the panel is titled for it. */
  coordOnly: 'etcd' | 'zookeeper' | null;
  /** Inclusive index window every row's boxes are placed in; null when every log is empty. */
  window: { lo: number; hi: number } | null;
}

const panelKinds = new Set(['raft-server', 'kafka-broker', 'paxos-server', '2pc-server', 'coord-server']);

/**
 * Whether the run has consensus servers or brokers to draw. A node's kind of facts never changes,
 * so its first non-null facts decide (called every frame: no scan of the series).
 */
export function showServers(ix: RunIndex): boolean {
  for (const series of ix.facts.values()) {
    const first = series.find((x) => x.value !== null)?.value;
    if (first && panelKinds.has(first.kind)) return true;
  }
  return false;
}

/** The kinds of server the panel draws a row for. */
type ServerKind = 'coord-server' | 'raft-server' | 'kafka-broker' | 'paxos-server' | '2pc-server' | 'kafka-consumer';

/**
 * The panel's words in one language (words/serverWords.en.ts, words/serverWords.zh.ts): one short
 * facts line per kind of server row, and the log's labels that are words.
 */
export interface ServerTable {
  facts: { [K in ServerKind]: (f: Extract<NodeFacts, { kind: K }>, n: NodeState) => string };
  noop: string;
  read: string;
}

function tableIn(lang: Lang): ServerTable {
  return wordsIn(lang, serversEn, (t) => t.servers);
}

export function itemLabel(item: LogItem, lang: Lang): string {
  if (item.kind === 'noop') return tableIn(lang).noop;
  if (item.kind === 'read') return tableIn(lang).read;
  if (item.kind === 'commit') return '✓';
  if (item.kind === 'abort') return '✗';
  return item.worker !== undefined ? `${item.worker}#${item.seq ?? '?'}` : '';
}

interface Draft {
  n: NodeState;
  kind: ServerRow['kind'];
  role: RowRole;
  term: number | null;
  commitIndex: number | null;
  facts: string;
  /** Is the entry at this index committed in this node's own view? */
  committed: (index: number, item: LogItem) => boolean;
  /** The last index compacted out of this node's log (0: none): the boxes up to it are drawn faded. */
  compacted: number;
  hasLog: boolean;
}

function draft(n: NodeState, words: ServerTable, ix: RunIndex, t: number): Draft | null {
  const f = n.facts;
  if (f?.kind === 'coord-server') {
    const role: RowRole = !n.up ? 'crashed' : n.paused ? 'paused' : f.role;
    const zk = f.service === 'zookeeper';
    const commit = zk ? zabCommitted(logAt(ix, n.id, t), f.commit) : f.commit;
    return { n, kind: 'coord', role, term: f.term, commitIndex: commit, facts: words.facts['coord-server'](f, n), committed: (i) => i <= commit, compacted: 0, hasLog: true };
  }
  if (f?.kind === 'raft-server') {
    const role: RowRole = n.up ? f.role : 'crashed';
    return { n, kind: 'server', role, term: f.term, commitIndex: f.commitIndex, facts: words.facts['raft-server'](f, n), committed: (i) => i <= f.commitIndex, compacted: f.compacted ?? 0, hasLog: true };
  }
  if (f?.kind === 'kafka-broker') {
    const part = p0(f);
    const role: RowRole = !n.up ? 'crashed' : part?.offline ? 'offline' : (part?.role ?? 'follower');
    const hw = part?.hw ?? 0;
    return { n, kind: 'broker', role, term: part?.epoch ?? null, commitIndex: part ? part.hw : null, facts: words.facts['kafka-broker'](f, n), committed: (i) => i < hw, compacted: 0, hasLog: part !== undefined };
  }
  if (f?.kind === 'paxos-server') {
    const role: RowRole = n.up ? f.role : 'crashed';
    // Its log is the learner's chosen slots: everything in it is chosen.
    return { n, kind: 'server', role, term: f.promised, commitIndex: f.chosen, facts: words.facts['paxos-server'](f, n), committed: (i) => i <= f.chosen, compacted: 0, hasLog: true };
  }
  if (f?.kind === '2pc-server') {
    const role: RowRole = !n.up ? 'crashed' : f.coordinator ? 'coordinator' : f.prepared !== null ? (f.blocked ? 'inDoubt' : 'prepared') : 'participant';
    // A participant's stable log: a prepare (it voted yes) is settled by the commit or abort record after it.
    return { n, kind: 'server', role, term: null, commitIndex: null, facts: words.facts['2pc-server'](f, n), committed: (_i, item) => item.kind === 'commit', compacted: 0, hasLog: true };
  }
  if (f?.kind === 'kafka-consumer') {
    return { n, kind: 'consumer', role: n.up ? 'consumer' : 'crashed', term: null, commitIndex: null, facts: words.facts['kafka-consumer'](f, n), committed: () => false, compacted: 0, hasLog: false };
  }
  return null;
}

/**
 * Builds the rows at t. `maxBoxes` is how many log columns fit the width: the window ends at the
 * newest index any row holds at t and reaches back that far.
 */
export function serverPanelModel(state: RunState, ix: RunIndex, maxBoxes: number, ctx: WordsContext, lang: Lang): ServerPanelModel {
  const words = tableIn(lang);
  const drafts = state.nodes.map((n) => draft(n, words, ix, state.t)).filter((d): d is Draft => d !== null);
  // Consensus rows first (servers, then brokers, in id order as the engine lists them), consumers last.
  drafts.sort((a, b) => Number(a.kind === 'consumer') - Number(b.kind === 'consumer'));
  // The window ends at the newest entry a live server holds; a crashed one's longer log (a Kafka
  // leader's unreplicated tail, a deposed Raft leader's entries) shows for up to a third of it.
  let hiUp = -Infinity;
  let hiAll = -Infinity;
  let base = Infinity;
  for (const d of drafts) {
    if (!d.hasLog) continue;
    const end = logEndAt(ix, d.n.id, state.t);
    const track = ix.logs.get(d.n.id);
    if (end === null || !track) continue;
    base = Math.min(base, track.base);
    if (end <= track.base) continue;
    hiAll = Math.max(hiAll, end - 1);
    if (d.n.up) hiUp = Math.max(hiUp, end - 1);
  }
  const cols = Math.max(1, maxBoxes);
  const hi = Number.isFinite(hiUp) ? Math.min(hiAll, hiUp + Math.floor(cols / 3)) : hiAll;
  const window = Number.isFinite(hi) ? { lo: Math.max(base, hi - cols + 1), hi } : null;
  const box = (d: Draft, r: LogRow): LogBox => {
    const b: LogBox = { index: r.index, term: r.item.term, committed: d.committed(r.index, r.item), label: itemLabel(r.item, lang) };
    if (r.index <= d.compacted) b.compacted = true;
    return b;
  };
  const rows: ServerRow[] = drafts.map((d) => {
    const log = window && d.hasLog ? logAt(ix, d.n.id, state.t, window.lo, window.hi + 1).map((r) => box(d, r)) : [];
    return {
      id: d.n.id,
      kind: d.kind,
      up: d.n.up,
      role: d.role,
      term: d.term,
      commitIndex: d.commitIndex,
      log,
      tail: window && d.hasLog && log.length === 0 ? tailOf(d, ix, state.t, box) : null,
      facts: d.facts,
      lines: nodeLines(d.n, ctx, lang),
    };
  });
  const kinds = new Set(state.nodes.map((n) => n.facts?.kind));
  const coord = state.nodes.find((n) => n.facts?.kind === 'coord-server')?.facts;
  const service = coord?.kind === 'coord-server' ? coord.service : null;
  const own = drafts.some((d) => d.kind !== 'coord');
  const flavor: PanelFlavor = kinds.has('kafka-broker') ? 'kafka' : kinds.has('paxos-server') ? 'paxos' : kinds.has('2pc-server') ? '2pc' : !own && service === 'zookeeper' ? 'zab' : 'raft';
  return { rows, kafka: flavor === 'kafka', flavor, coordOnly: own ? null : service, window };
}

/** A row's last entry, where none of its log is in the window (the window ends at the newest entry, so it lies before). */
function tailOf(d: Draft, ix: RunIndex, t: number, box: (d: Draft, r: LogRow) => LogBox): LogBox | 'empty' | null {
  const end = logEndAt(ix, d.n.id, t);
  if (end === null || end <= (ix.logs.get(d.n.id)?.base ?? 0)) return 'empty';
  const last = logAt(ix, d.n.id, t, end - 1, end)[0];
  return last ? box(d, last) : null;
}

/**
 * The index of the last committed transaction in a ZooKeeper server's log, from the zxid its facts
 * name. A zxid is (epoch, counter); within one epoch the leader numbers its proposals 1, 2, … and
 * a log holds each epoch's transactions as a gapless prefix of them, in zxid order (Zab's
 * invariants) — so every entry of an older epoch is committed, and of the commit's own epoch the
 * first `counter` are.
 */
export function zabCommitted(log: readonly LogRow[], commitZxid: number): number {
  const epoch = Math.floor(commitZxid / 2 ** 32);
  let left = commitZxid % 2 ** 32;
  let last = 0;
  for (const r of log) {
    if (r.item.term < epoch) last = r.index;
    else if (r.item.term === epoch && left > 0) {
      last = r.index;
      left--;
    } else break;
  }
  return last;
}

/**
 * Term (or Kafka leader epoch) → colour: a colour-blind-safe sequential palette (cividis), not a
 * worker colour. Terms cycle through six steps, so neighbouring terms always differ in lightness.
 * The steps are d3.interpolateCividis at 0.08 + step × 0.168, written out: the function would
 * bring d3-scale-chromatic's every scheme into the first load for six colours.
 */
const TERM_STEPS = ['rgb(5, 46, 104)', 'rgb(60, 77, 110)', 'rgb(109, 108, 112)', 'rgb(145, 140, 120)', 'rgb(188, 175, 113)', 'rgb(239, 214, 82)'] as const;

export function termColour(term: number): string {
  return TERM_STEPS[(((term - 1) % 6) + 6) % 6];
}

/** Text colour readable on a term colour. */
export function termText(term: number): string {
  const c = d3.hsl(termColour(term));
  return c.l > 0.55 ? '#111' : '#fff';
}
