import type { Op } from './ops';
import { initial, relevantOps, step, type CheckOptions, type State, type Verdict } from './linearizabilityModel';
import { findWitness } from './linearizabilityWitnesses';

/**
 * Linearizability of the operations on the replicated parameters (Herlihy & Wing 1990), checked
 * with the Wing & Gong search and Lowe's memoisation (G. Lowe, "Testing for linearizability",
 * CCPE 2017: a cache of (set of linearized operations, model state) pairs already explored).
 *
 * Two prunings keep the search near one state per operation on the simulator's histories (16
 * workers, partitions): pending operations with the same effect are taken in invocation order
 * (`classify`), and the search turns back as soon as the register is past the version some
 * returned operation needs (`need`).
 *
 * The sequential specification (a versioned register), the options and the verdicts are in
 * ./linearizabilityModel; the pair patterns tried first in ./linearizabilityWitnesses; the
 * sentences that explain a verdict in ./linearizabilityExplain. The search decides what the
 * patterns do not, within a budget, and says when it gave up.
 */

export function checkLinearizability(all: readonly Op[], opts: CheckOptions = {}): Verdict {
  const run = new Search(all, opts);
  while (!run.advance(Infinity));
  return run.verdict!;
}

/** The same check in slices, yielding to the event loop between them (the app's button). */
export async function checkLinearizabilityAsync(all: readonly Op[], opts: CheckOptions & { sliceMs?: number } = {}): Promise<Verdict> {
  const run = new Search(all, opts);
  const slice = opts.sliceMs ?? 12;
  while (!run.advance(slice)) await new Promise((r) => setTimeout(r, 0));
  return run.verdict!;
}

// ---------------------------------------------------------------- Wing & Gong with Lowe's cache

interface Entry {
  op: Op;
  index: number;
  isCall: boolean;
  /** The call's matching return entry (null for pending operations). */
  match: Entry | null;
  prev: Entry | null;
  next: Entry | null;
  time: number;
  /**
   * Pending operations (no return) with the same effect are interchangeable: the search takes
   * them in invocation order only (`cls` their class, -1 for none; `rank` the place in it).
   */
  cls: number;
  rank: number;
}

class Search {
  verdict: Verdict | null = null;
  private readonly ops: Op[];
  private readonly head: Entry;
  private readonly clock: () => number;
  private readonly started: number;
  private readonly budgetMs: number;
  private readonly maxStates: number;
  private readonly linearized: Uint32Array;
  /** The same bits, as the key reads them. */
  private readonly linearized16: Uint16Array;
  private readonly cache = new Set<string>();
  private readonly calls: Array<{ entry: Entry; state: State }> = [];
  /** Per class of interchangeable pending operations: how many are linearized (always the first ones). */
  private taken = new Int32Array(0);
  /** Per version: the unplaced operations that returned and can only be placed at that version (`need`). */
  private needed = new Int32Array(0);
  /** The lowest version with an entry in `needed` (its length: none). */
  private lowestNeeded = 0;
  private state: State = initial;
  private entry: Entry | null = null;
  private returnsLeft = 0;
  /** The deepest point the search reached, for the explanation when it fails. */
  private deepest = { depth: -1, blocked: null as Op | null };

  constructor(all: readonly Op[], opts: CheckOptions) {
    const mode = opts.mode ?? 'register';
    this.clock = opts.clock ?? (() => globalThis.performance.now());
    this.started = this.clock();
    this.budgetMs = opts.budgetMs ?? 5000;
    this.maxStates = opts.maxStates ?? 2_000_000;
    this.ops = relevantOps(all, mode);
    this.head = { op: null as unknown as Op, index: -1, isCall: false, match: null, prev: null, next: null, time: -Infinity, cls: -1, rank: 0 };
    this.linearized = new Uint32Array(Math.ceil(this.ops.length / 32) + 1);
    this.linearized16 = new Uint16Array(this.linearized.buffer);

    const witness = findWitness(all, mode);
    if (witness) {
      this.verdict = { result: 'not-linearizable', ops: this.ops.length, states: 0, witness };
      return;
    }
    if (this.ops.length > (opts.maxOps ?? 20000)) {
      this.verdict = { result: 'unknown', ops: this.ops.length, states: 0, reason: `gave up: ${this.ops.length} operations exceed the limit of ${opts.maxOps ?? 20000}` };
      return;
    }
    this.build();
    this.entry = this.head.next;
    if (this.returnsLeft === 0) this.verdict = { result: 'linearizable', ops: this.ops.length, states: 0 };
  }

  /** Calls before returns at equal times: touching operations count as concurrent (the lenient reading). */
  private build(): void {
    const entries: Entry[] = [];
    this.ops.forEach((op, index) => {
      const call: Entry = { op, index, isCall: true, match: null, prev: null, next: null, time: op.invoke, cls: -1, rank: 0 };
      entries.push(call);
      if (op.status === 'ok' && op.complete !== null) {
        const ret: Entry = { op, index, isCall: false, match: null, prev: null, next: null, time: op.complete, cls: -1, rank: 0 };
        call.match = ret;
        entries.push(ret);
        this.returnsLeft++;
      }
    });
    entries.sort((a, b) => a.time - b.time || Number(b.isCall) - Number(a.isCall) || a.index - b.index);
    this.classify(entries);
    this.countNeeds(entries);
    let prev = this.head;
    for (const e of entries) {
      prev.next = e;
      e.prev = prev;
      prev = e;
    }
  }

  /**
   * Symmetry reduction for pending operations. The effect of an operation is a function of (f,
   * version, hash) alone, and one without a return may be placed anywhere after its invocation:
   * if a linearization places k of a class's operations, the class's k earliest-invoked ones at
   * the same points (in invocation order) make one too — at the i-th point, i of the placed ones
   * had already been invoked, so the i-th earliest of the class had. Searching only those prefixes
   * turns 2ⁿ subsets of n pending updates (a partition leaves many) into n + 1 counts.
   */
  private classify(sorted: readonly Entry[]): void {
    const classes = new Map<string, number>();
    const sizes: number[] = [];
    for (const e of sorted) {
      if (!e.isCall || e.match !== null) continue;
      const key = `${e.op.f}|${e.op.version ?? ''}|${e.op.hash ?? ''}`;
      let c = classes.get(key);
      if (c === undefined) {
        c = sizes.length;
        classes.set(key, c);
        sizes.push(0);
      }
      e.cls = c;
      e.rank = sizes[c]++;
    }
    this.taken = new Int32Array(sizes.length);
  }

  /** Fills `needed` (see `need`) for every operation. */
  private countNeeds(sorted: readonly Entry[]): void {
    let top = 0;
    for (const e of sorted) top = Math.max(top, e.op.version ?? 0);
    this.needed = new Int32Array(top + 2);
    for (const e of sorted) {
      const v = need(e);
      if (v >= 0) this.needed[v]++;
    }
    this.lowestNeeded = 0;
    this.raiseLowestNeeded();
  }

  private raiseLowestNeeded(): void {
    while (this.lowestNeeded < this.needed.length && this.needed[this.lowestNeeded] === 0) this.lowestNeeded++;
  }

  private lift(call: Entry): void {
    call.prev!.next = call.next;
    if (call.next) call.next.prev = call.prev;
    const ret = call.match;
    if (ret) {
      ret.prev!.next = ret.next;
      if (ret.next) ret.next.prev = ret.prev;
      this.returnsLeft--;
    }
  }

  private unlift(call: Entry): void {
    const ret = call.match;
    if (ret) {
      ret.prev!.next = ret;
      if (ret.next) ret.next.prev = ret;
      this.returnsLeft++;
    }
    call.prev!.next = call;
    if (call.next) call.next.prev = call;
  }

  /** The cache key: the linearized set as one UTF-16 unit per 16 operations (a tenth of a decimal join's length), then the state. */
  private key(state: State): string {
    return `${String.fromCharCode(...this.linearized16)}|${state.v}|${state.h ?? ''}`;
  }

  /** Runs for about `sliceMs` of wall time; true once the verdict is known. */
  advance(sliceMs: number): boolean {
    if (this.verdict) return true;
    const sliceEnd = this.clock() + sliceMs;
    let n = 0;
    while (this.returnsLeft > 0) {
      if ((++n & 1023) === 0) {
        const now = this.clock();
        if (now - this.started > this.budgetMs) return this.giveUp(`gave up after ${Math.round(now - this.started)} ms (budget ${this.budgetMs} ms)`);
        if (now > sliceEnd) return false;
      }
      const e = this.entry;
      if (e === null) break; // only pending calls remain ahead; cannot happen while returns are left
      if (e.isCall) {
        // A pending operation waits for the earlier ones of its class (`classify`).
        const next = e.cls < 0 || this.taken[e.cls] === e.rank ? step(this.state, e.op) : null;
        if (next) {
          const placed = this.place(e, next);
          if (placed === 'limit') return this.giveUp(`gave up after ${this.cache.size} search states (limit ${this.maxStates})`);
          if (placed === 'placed') continue;
        }
        this.entry = e.next;
      } else {
        // A return: its operation must already be linearized. Backtrack.
        if (this.calls.length === this.deepest.depth && !this.deepest.blocked) this.deepest.blocked = e.op;
        if (!this.backtrack()) return this.fail();
      }
    }
    this.verdict = { result: 'linearizable', ops: this.ops.length, states: this.cache.size };
    return true;
  }

  /** Linearizes `e` next (its new state `next`), unless that (set, state) pair was explored before. */
  private place(e: Entry, next: State): 'placed' | 'seen' | 'limit' {
    // Past a version some returned operation still needs, no order completes (`need`).
    const v = need(e);
    if (v >= 0) {
      this.needed[v]--;
      this.raiseLowestNeeded();
    }
    if (this.lowestNeeded < next.v && this.lowestNeeded < this.needed.length) {
      if (v >= 0) this.unneed(v);
      return 'seen';
    }
    this.setBit(e.index, true);
    const k = this.key(next);
    if (this.cache.has(k)) {
      this.setBit(e.index, false);
      if (v >= 0) this.unneed(v);
      return 'seen';
    }
    if (this.cache.size >= this.maxStates) return 'limit';
    this.cache.add(k);
    this.calls.push({ entry: e, state: this.state });
    this.state = next;
    this.lift(e);
    if (e.cls >= 0) this.taken[e.cls]++;
    if (this.calls.length > this.deepest.depth) this.deepest = { depth: this.calls.length, blocked: null };
    this.entry = this.head.next;
    return 'placed';
  }

  /** Takes back the newest choice; false when none is left. */
  private backtrack(): boolean {
    const top = this.calls.pop();
    if (!top) return false;
    this.undo(top);
    this.entry = top.entry.next;
    return true;
  }

  private unneed(v: number): void {
    this.needed[v]++;
    if (v < this.lowestNeeded) this.lowestNeeded = v;
  }

  private undo(top: { entry: Entry; state: State }): void {
    const v = need(top.entry);
    if (v >= 0) this.unneed(v);
    this.state = top.state;
    this.setBit(top.entry.index, false);
    this.unlift(top.entry);
    if (top.entry.cls >= 0) this.taken[top.entry.cls]--;
  }

  private setBit(i: number, on: boolean): void {
    if (on) this.linearized[i >>> 5] |= 1 << (i & 31);
    else this.linearized[i >>> 5] &= ~(1 << (i & 31));
  }

  private giveUp(reason: string): true {
    this.verdict = { result: 'unknown', ops: this.ops.length, states: this.cache.size, reason };
    return true;
  }

  private fail(): true {
    const blocked = this.deepest.blocked ?? this.ops[0];
    this.verdict = { result: 'not-linearizable', ops: this.ops.length, states: this.cache.size, witness: { kind: 'unplaceable', a: blocked } };
    return true;
  }
}

/**
 * The version the register must be at for a returned operation of known version to be placed
 * (-1: none, or it need not be placed): a read of v needs v; an update producing v needs v − 1,
 * or v itself where it names its hash (a collective update, `step`). Versions only grow, so once
 * the register is past what some unplaced returned operation needs, no order completes: the search
 * turns back at once instead of trying every placement of the pending updates that took it there.
 */
function need(e: Entry): number {
  const op = e.op;
  if (!e.isCall || e.match === null || op.version === undefined) return -1;
  if (op.f === 'read') return op.version;
  return op.hash !== undefined ? op.version : op.version - 1;
}
