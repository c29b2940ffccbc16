import type { NodeView } from '../../engine/api';
import * as d3 from 'd3';

/**
 * What the servers panel draws, as plain data (unit-tested): one row per server or broker whose
 * strategy reports consensus state (`detail()` with a role, term or log), plus Kafka's consumers
 * as one-line rows. Logs share one index window so the same index lines up in every row — the
 * RaftScope picture where a missing or conflicting entry shows as a gap in a column.
 */

export interface LogBox {
  index: number;
  term: number;
  committed: boolean;
  label: string;
}

export interface ServerRow {
  id: string;
  kind: 'server' | 'broker' | 'consumer';
  up: boolean;
  /** leader | follower | candidate | crashed | consumer … as the strategy names it. */
  role: string;
  term: number | null;
  commitIndex: number | null;
  log: LogBox[];
  /** Short extra facts: ISR, LEO, votedFor, offset and lag. */
  lines: string[];
}

export interface ServerPanelModel {
  rows: ServerRow[];
  /** Kafka words (epoch, HW) rather than Raft's (term, commit). */
  kafka: boolean;
  /** Inclusive index window every row's boxes are placed in; null when every log is empty. */
  window: { lo: number; hi: number } | null;
}

const consensusRoles = new Set(['leader', 'follower', 'candidate', 'crashed']);

/** Nodes the panel has a row for: non-workers with consensus state, and consumers. */
export function hasServerState(n: NodeView): boolean {
  if (n.role === 'worker' || !n.detail) return false;
  const d = n.detail;
  return d.log !== undefined || d.commitIndex !== undefined || (d.role !== undefined && (consensusRoles.has(d.role) || d.role === 'consumer'));
}

/** Whether the panel has anything to show for this run (Raft servers, Kafka brokers). */
export function showServers(nodes: readonly NodeView[]): boolean {
  return nodes.some((n) => hasServerState(n) && n.detail?.role !== 'consumer');
}

/**
 * Builds the rows. `maxBoxes` is how many log columns fit the width: the window ends at the
 * newest index any row holds and reaches back that far.
 */
export function serverPanelModel(nodes: readonly NodeView[], maxBoxes: number): ServerPanelModel {
  const rows: ServerRow[] = nodes.filter(hasServerState).map((n) => {
    const d = n.detail!;
    const kind: ServerRow['kind'] = d.role === 'consumer' ? 'consumer' : n.role === 'broker' ? 'broker' : 'server';
    return {
      id: n.id,
      kind,
      up: n.up,
      role: n.up ? (d.role ?? '') : 'crashed',
      term: d.term ?? null,
      commitIndex: d.commitIndex ?? null,
      log: (d.log ?? []).map((e) => ({ index: e.index, term: e.term, committed: e.committed, label: (e.label ?? '').replace(':', '#') })),
      lines: d.lines ?? [],
    };
  });
  // Consensus rows first (in id order, servers before brokers as the engine lists them), consumers last.
  rows.sort((a, b) => Number(a.kind === 'consumer') - Number(b.kind === 'consumer'));
  let hi = -Infinity;
  for (const r of rows) for (const e of r.log) hi = Math.max(hi, e.index);
  const window = Number.isFinite(hi) ? { lo: Math.max(minIndex(rows), hi - Math.max(1, maxBoxes) + 1), hi } : null;
  return { rows, kafka: rows.some((r) => r.kind === 'broker'), window };
}

function minIndex(rows: readonly ServerRow[]): number {
  let lo = Infinity;
  for (const r of rows) for (const e of r.log) lo = Math.min(lo, e.index);
  return Number.isFinite(lo) ? lo : 0;
}

/**
 * Term (or Kafka leader epoch) → colour: a colour-blind-safe sequential palette (cividis), not a
 * worker colour. Terms cycle through six steps, so neighbouring terms always differ in lightness.
 */
export function termColour(term: number): string {
  const step = (((term - 1) % 6) + 6) % 6;
  return d3.interpolateCividis(0.08 + (step / 5) * 0.84);
}

/** Text colour readable on a term colour. */
export function termText(term: number): string {
  const c = d3.hsl(termColour(term));
  return c.l > 0.55 ? '#111' : '#fff';
}

/** Short summary lines for a row: the ISR and offsets for Kafka, votedFor/leader for Raft. */
export function rowFacts(r: ServerRow): string {
  if (r.kind === 'consumer') return r.lines.join(' · ');
  if (r.kind === 'broker') {
    return r.lines
      .map((l) => l.replace(/^p\d+ (leader|follower) · /, '').replace(/ · epoch \d+$/, ''))
      .join(' | ');
  }
  return r.lines.filter((l) => !l.startsWith('applied')).join(' · ');
}
