import type { Op } from './ops';
import { initial, relevantOps, step, type CheckOptions, type State, type Verdict } from './linearizabilityModel';
import { findWitness } from './linearizabilityWitnesses';

/**
 * Linearizability of the operations on the replicated parameters (Herlihy & Wing 1990), checked
 * with the Wing & Gong search and Lowe's memoisation (G. Lowe, "Testing for linearizability",
 * CCPE 2017: a cache of (set of linearized operations, model state) pairs already explored).
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
  /** The search just reached a new state: its legal reads are placed first (`legalRead`). */
  private fresh = true;
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
      if (this.fresh) {
        // A new state: every read legal here is placed before any choice is made (`readsFirst`).
        this.fresh = false;
        const r = this.legalRead();
        if (r) {
          const placed = this.place(r, step(this.state, r.op)!);
          if (placed === 'limit') return this.giveUp(`gave up after ${this.cache.size} search states (limit ${this.maxStates})`);
          // Seen before: this state was explored from there already, and failed.
          if (placed === 'seen' && !this.backtrack()) return this.fail();
          continue;
        }
      }
      const e = this.entry;
      if (e === null) break; // only pending calls remain ahead; cannot happen while returns are left
      if (e.isCall) {
        // Reads were placed above if legal here; a pending operation waits for the earlier ones of its class (`classify`).
        const next = e.op.f !== 'read' && (e.cls < 0 || this.taken[e.cls] === e.rank) ? step(this.state, e.op) : null;
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
    this.setBit(e.index, true);
    const k = this.key(next);
    if (this.cache.has(k)) {
      this.setBit(e.index, false);
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
    this.fresh = true;
    return 'placed';
  }

  /**
   * readsFirst: a read legal in the current state is linearized now, without trying the
   * alternatives — if any order of the rest succeeds, so does that order with the read moved
   * here. Its invocation is behind the scan (every operation that returned before it is placed);
   * a read changes no state but for learning the hash of its version; and until the read's old
   * place the version stays the same (versions only grow and the read names one), so every
   * operation between sees that version with a hash the read agrees with. Reads concurrent with
   * one another (16 workers) then cost one order, not every subset.
   */
  private legalRead(): Entry | null {
    for (let x = this.head.next; x !== null && x.isCall; x = x.next) if (x.op.f === 'read' && step(this.state, x.op)) return x;
    return null;
  }

  /** Takes back the newest choice: the last update placed, with the reads placed after it (they were no choice). False when none is left. */
  private backtrack(): boolean {
    let top = this.calls.pop();
    while (top && top.entry.op.f === 'read') {
      this.undo(top);
      top = this.calls.pop();
    }
    if (!top) return false;
    this.undo(top);
    this.entry = top.entry.next;
    return true;
  }

  private undo(top: { entry: Entry; state: State }): void {
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
