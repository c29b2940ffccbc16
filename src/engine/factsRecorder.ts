import type { LogItem, NodeFacts, NodeLog } from '../protocols/facts';
import { JsonBytes } from '../sim/jsonBytes';
import type { HistoryEvent, NodeId, SimTime } from '../sim/types';

/**
 * Turns a strategy's typed state into history events (DESIGN rule 4): after each event the engine
 * names the nodes it touched; for each, the recorder reads the strategy's facts and log and
 * appends a `facts` event when the facts changed and a `log` event when the log did. Reading only
 * touched nodes keeps the cost per event constant; `verifyAll` (tests) re-reads every node after
 * every event, so a strategy that forgets `ctx.touch` fails loudly instead of lying in a view.
 */
export interface FactsSource {
  facts?(node: NodeId): NodeFacts | null;
  logOf?(node: NodeId): NodeLog | null;
}

interface Mirror {
  node: NodeId;
  /** UTF-8 JSON of the last recorded facts ('null' when none), in facts[0, factsLen). */
  facts: Uint8Array;
  factsLen: number;
  /** The entries last recorded, by identity, and the index of log[0] (`logBase`). */
  log: object[];
  logBase: number;
  /** In `touched` since the last flush. */
  touched: boolean;
  /**
   * The last recorded facts as [key, value, …] when they were a flat object of plain values
   * (strings, booleans, null, finite numbers), else null: the common unchanged case is then
   * recognised without writing the JSON (see `sameFlat`).
   */
  flat: unknown[] | null;
  /** `facts` lags `flat` (flat facts that changed are told apart without their JSON; `freshen` writes it when asked). */
  stale: boolean;
}

export class FactsRecorder {
  private readonly mirrors = new Map<NodeId, Mirror>();
  /** Nodes touched since the last flush, in the order of their first touch (a flag on the mirror keeps each once). */
  private readonly touched: Mirror[] = [];
  /** How many of `touched` are in use (the array is reused, never shrunk: no allocation per event). */
  private touchedN = 0;
  /** Facts are compared as JSON bytes written here (no string per node and event). */
  private readonly scratch = new JsonBytes(1024);

  constructor(
    private readonly source: FactsSource,
    private readonly nodes: readonly NodeId[],
    private readonly append: (e: HistoryEvent) => void,
  ) {}

  touch(node: NodeId): void {
    const m = this.mirror(node);
    if (m.touched) return;
    m.touched = true;
    this.touched[this.touchedN++] = m;
  }

  touchAll(): void {
    for (const n of this.nodes) this.touch(n);
  }

  /** Records what changed on the touched nodes (at simulated time t) and forgets the touches. */
  flush(t: SimTime): void {
    if (this.touchedN === 0) return;
    const list = this.touched;
    // A node touched while this runs is recorded in this flush too (appends can fire triggers).
    for (let i = 0; i < this.touchedN; i++) this.record(t, list[i]);
    for (let i = 0; i < this.touchedN; i++) list[i].touched = false;
    this.touchedN = 0;
  }

  private mirror(node: NodeId): Mirror {
    let m = this.mirrors.get(node);
    if (!m) {
      m = { node, facts: new TextEncoder().encode('null'), factsLen: 4, log: [], logBase: 0, touched: false, flat: null, stale: false };
      this.mirrors.set(node, m);
    }
    return m;
  }

  /** Test aid: throws if any node's facts or log differ from what the history says. */
  verifyAll(t: SimTime): void {
    const decoder = new TextDecoder();
    for (const node of this.nodes) {
      const m = this.mirrors.get(node);
      if (m) this.freshen(m);
      const recorded = m ? decoder.decode(m.facts.subarray(0, m.factsLen)) : 'null';
      const facts = JSON.stringify(this.source.facts?.(node) ?? null);
      if (recorded !== facts) throw new Error(`facts of ${node} changed at t=${t} without a touch: history ${recorded}, live ${facts}`);
      const log = this.source.logOf?.(node) ?? null;
      const len = log ? log.entries.length : 0;
      const same = log ? m !== undefined && m.log.length === len && log.entries.every((e, i) => m.log[i] === e) : (m?.log.length ?? 0) === 0;
      if (!same) throw new Error(`log of ${node} changed at t=${t} without a touch`);
    }
  }

  private record(t: SimTime, m: Mirror): void {
    const node = m.node;
    const f = this.source.facts?.(node) ?? null;
    if (!sameFlat(m.flat, f)) {
      if (m.flat !== null && isFlat(f)) {
        // Both flat and not the same keys and ===-equal values: their JSON differs (see sameFlat), so
        // the change is known without writing it; the mirror's bytes follow when asked (freshen).
        m.stale = true;
        this.append({ t, type: 'facts', node, f });
      } else {
        this.freshen(m);
        const w = this.scratch;
        w.n = 0;
        w.value(f);
        if (!sameBytes(w, m)) {
          copyBytes(w, m);
          this.append({ t, type: 'facts', node, f });
        }
      }
      m.flat = flatten(f, m.flat);
    }
    const log = this.source.logOf?.(node);
    if (log) this.recordLog(t, node, m, log);
  }

  /** Brings the mirror's JSON bytes up to its flat facts (written only when a comparison or a test needs them). */
  private freshen(m: Mirror): void {
    if (!m.stale || m.flat === null) return;
    const w = this.scratch;
    w.n = 0;
    w.byte(0x7b); // {
    for (let i = 0; i < m.flat.length; i += 2) {
      if (i > 0) w.byte(0x2c); // ,
      w.value(m.flat[i]);
      w.byte(0x3a); // :
      w.value(m.flat[i + 1]);
    }
    w.byte(0x7d); // }
    copyBytes(w, m);
    m.stale = false;
  }

  /**
   * Finds the longest common prefix by identity, scanning back from the shorter end: logs change
   * at their tail (appends, truncation of a suffix), and an identical entry at an index implies an
   * identical prefix before it (Raft's log matching; Kafka's records are copied from one leader).
   */
  private recordLog(t: SimTime, node: NodeId, m: Mirror, log: NodeLog): void {
    const cur = log.entries;
    const old = m.log;
    if (log.base !== m.logBase) {
      // Compaction (Raft §7) raised the base: the mirror drops the same prefix, and what was
      // compacted stays in the history as it was recorded (the node's facts say where its snapshot ends).
      const shift = log.base - m.logBase;
      if (shift > 0 && shift < old.length) old.splice(0, shift);
      else old.length = 0;
      m.logBase = log.base;
    }
    let common = Math.min(cur.length, old.length);
    while (common > 0 && cur[common - 1] !== old[common - 1]) common--;
    if (common === old.length && common === cur.length) return;
    const add: LogItem[] = [];
    for (let i = common; i < cur.length; i++) add.push(log.item(cur[i]));
    m.log.length = common; // the mirror follows by the same delta: O(change), not O(log)
    for (let i = common; i < cur.length; i++) m.log.push(cur[i]);
    this.append({ t, type: 'log', node, from: log.base + common, add });
  }
}

/** Whether the facts just written equal the mirror's. */
function sameBytes(w: JsonBytes, m: Mirror): boolean {
  if (w.n !== m.factsLen) return false;
  const a = w.buf;
  const b = m.facts;
  for (let i = 0; i < w.n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The scratch's bytes become the mirror's facts. */
function copyBytes(w: JsonBytes, m: Mirror): void {
  if (m.facts.length < w.n) m.facts = new Uint8Array(2 * w.n);
  const src = w.buf;
  const dst = m.facts;
  for (let i = 0; i < w.n; i++) dst[i] = src[i];
  m.factsLen = w.n;
}

/** A value JSON writes as itself and that equals another exactly when their JSON does (by ===). */
function isPlainValue(x: unknown): boolean {
  return typeof x === 'string' || typeof x === 'boolean' || x === null || (typeof x === 'number' && Number.isFinite(x));
}

/** A plain object JSON writes key by key (no toJSON, no class of its own). */
function isPlainObject(f: unknown): f is Record<string, unknown> {
  if (typeof f !== 'object' || f === null || Array.isArray(f)) return false;
  const proto = Object.getPrototypeOf(f) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (f as { toJSON?: unknown }).toJSON !== 'function';
}

/** Whether `flatten` would keep `f` (a plain object of plain values), without writing anything. */
function isFlat(f: unknown): boolean {
  if (!isPlainObject(f)) return false;
  for (const k in f) if (!isPlainValue(f[k])) return false;
  return true;
}

/**
 * True only if `f` writes the same JSON as the facts `flat` holds: the same keys in the same
 * order (for…in order is JSON's for a plain object) with ===-equal plain values. Anything else
 * answers false, and the caller compares the JSON bytes — so a false here is never wrong.
 */
function sameFlat(flat: unknown[] | null, f: unknown): boolean {
  if (flat === null || !isPlainObject(f)) return false;
  let i = 0;
  for (const k in f) {
    const x = f[k];
    if (i >= flat.length || flat[i] !== k || flat[i + 1] !== x || !isPlainValue(x)) return false;
    i += 2;
  }
  return i === flat.length;
}

/** The facts as [key, value, …] for `sameFlat` (reusing `into`), or null when they are not a flat plain object. */
function flatten(f: unknown, into: unknown[] | null): unknown[] | null {
  if (!isPlainObject(f)) return null;
  const out = into ?? [];
  let n = 0;
  for (const k in f) {
    const x = f[k];
    if (!isPlainValue(x)) return null;
    out[n++] = k;
    out[n++] = x;
  }
  if (out.length !== n) out.length = n;
  return out;
}
