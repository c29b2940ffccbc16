import type { Op } from './ops';

/**
 * Linearizability of the operations on the replicated parameters (Herlihy & Wing 1990), checked
 * with the Wing & Gong search and Lowe's memoisation (G. Lowe, "Testing for linearizability",
 * CCPE 2017: a cache of (set of linearized operations, model state) pairs already explored).
 *
 * Sequential specification — a *versioned register*: the parameter object counts the updates
 * applied to it and holds one parameter set per version. Its state is (version, hash), starting
 * at (0, unknown).
 *  - update, version unknown: version + 1 (the new parameters are unknown);
 *  - update producing (v, h): legal iff v = version + 1 → (v, h); or, for a collective update
 *    (all-reduce: every worker applies the same round), iff v = version and h = hash — the
 *    participant applied the very update that produced the current state;
 *  - read returning (v, h): legal iff v = version and h matches the hash (an unknown hash is
 *    learned: a version has one parameter set).
 * Pending operations (Jepsen's info, or never completed) may take effect at any point after their
 * invocation, or never; failed operations never took effect; pending reads are dropped.
 *
 * Before the search, cheap pair patterns are tried (a fork, a stale read, a lost update, a
 * regression): each is a witness that no sequential order exists, and it is the explanation a
 * person can read. The search decides the rest, within a budget, and says when it gave up.
 */

export type CheckMode =
  /** Reads and updates against one register (a parameter server, a Raft state machine). */
  | 'register'
  /**
   * Collective rounds (all-reduce, barriers): updates must linearize as a round counter, and a
   * read — a worker adopting a peer's replica — must match the lineage (one parameter set per
   * version); it may be older than the newest round, since a replica read is a local read, not a
   * shared-register read.
   */
  | 'rounds';

export interface CheckOptions {
  mode?: CheckMode;
  /** Give up above this many operations (after the pair patterns). Default 20000. */
  maxOps?: number;
  /** Give up after this many search states. Default 2 000 000. */
  maxStates?: number;
  /** Give up after this much wall time, in ms. Default 5000. */
  budgetMs?: number;
  /** Wall clock for the budget (tests inject one). */
  clock?: () => number;
}

export type WitnessKind = 'fork' | 'stale-read' | 'lost-update' | 'regression' | 'unplaceable';

/** A concrete pair of operations that no sequential order explains (b happened after a). */
export interface Witness {
  kind: WitnessKind;
  a: Op;
  b?: Op;
  /** lost-update: updates completed before b began. */
  count?: number;
}

export type Verdict =
  | { result: 'linearizable'; ops: number; states: number }
  | { result: 'not-linearizable'; ops: number; states: number; witness: Witness }
  | { result: 'unknown'; ops: number; states: number; reason: string };

interface State {
  v: number;
  h: string | null;
}

const initial: State = { v: 0, h: null };

/** The sequential specification's transition; null when the operation is illegal in `s`. */
export function step(s: State, op: Op): State | null {
  if (op.f === 'read') {
    if (op.version === undefined) return s; // a read that says nothing constrains nothing
    if (op.version !== s.v) return null;
    if (op.hash !== undefined && s.h !== null && op.hash !== s.h) return null;
    return s.h === null && op.hash !== undefined ? { v: s.v, h: op.hash } : s;
  }
  if (op.version === undefined) return { v: s.v + 1, h: null };
  if (op.version === s.v + 1) return { v: op.version, h: op.hash ?? null };
  if (op.version === s.v && op.hash !== undefined && op.hash === s.h) return s;
  return null;
}

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

/** Which operations a mode checks: pending reads and failed operations never matter. */
export function relevantOps(all: readonly Op[], mode: CheckMode): Op[] {
  return all.filter((o) => {
    if (o.status === 'fail') return false;
    if (o.f === 'read') return mode === 'register' && o.status === 'ok';
    return true;
  });
}

// ---------------------------------------------------------------- pair patterns (witnesses)

export function findWitness(all: readonly Op[], mode: CheckMode = 'register'): Witness | null {
  const ok = all.filter((o) => o.status === 'ok' && o.complete !== null);
  const found: Witness[] = [];
  const fork = findFork(ok);
  if (fork) found.push(fork);
  const updates = ok.filter((o) => o.f === 'update');
  const regression = findStale(updates, updates, 'regression');
  if (regression) found.push(regression);
  if (mode === 'register') {
    const reads = ok.filter((o) => o.f === 'read');
    const stale = findStale(ok, reads, 'stale-read');
    if (stale) found.push(stale);
    const lost = findLost(updates, reads);
    if (lost) found.push(lost);
  }
  // The earliest witness (by the time its later operation completed) is the one to show.
  found.sort((x, y) => end(x) - end(y));
  return found[0] ?? null;
}

const end = (w: Witness) => (w.b ?? w.a).complete ?? Infinity;

/** Two operations that saw one version with two different parameter sets. */
function findFork(ok: readonly Op[]): Witness | null {
  const first = new Map<number, Op>();
  let best: Witness | null = null;
  for (const o of [...ok].sort((x, y) => x.complete! - y.complete!)) {
    if (o.version === undefined || o.hash === undefined) continue;
    const seen = first.get(o.version);
    if (!seen) first.set(o.version, o);
    else if (seen.hash !== o.hash) {
      best = { kind: 'fork', a: seen, b: o };
      break;
    }
  }
  return best;
}

/**
 * An operation b (of `later`) that returned or produced a version older than one an operation
 * a (of `earlier`) had completed with before b was invoked: versions never go back.
 */
function findStale(earlier: readonly Op[], later: readonly Op[], kind: 'stale-read' | 'regression'): Witness | null {
  const byEnd = earlier.filter((o) => o.version !== undefined).sort((x, y) => x.complete! - y.complete!);
  const byInvoke = later.filter((o) => o.version !== undefined).sort((x, y) => x.invoke - y.invoke);
  let i = 0;
  let max: Op | null = null;
  let best: Witness | null = null;
  for (const b of byInvoke) {
    while (i < byEnd.length && byEnd[i].complete! < b.invoke) {
      if (!max || byEnd[i].version! > max.version!) max = byEnd[i];
      i++;
    }
    if (max && max.version! > b.version! && (!best || b.complete! < best.b!.complete!)) best = { kind, a: max, b };
  }
  return best;
}

/**
 * A read of version v that began after more than v distinct updates had completed: an
 * acknowledged update is missing from what it read.
 */
function findLost(updates: readonly Op[], reads: readonly Op[]): Witness | null {
  const byEnd = [...updates].sort((x, y) => x.complete! - y.complete!);
  const byInvoke = reads.filter((o) => o.version !== undefined).sort((x, y) => x.invoke - y.invoke);
  const knownKeys = new Set<string>();
  let count = 0;
  let i = 0;
  let last: Op | null = null;
  for (const r of byInvoke) {
    while (i < byEnd.length && byEnd[i].complete! < r.invoke) {
      const u = byEnd[i++];
      // Collective participants (same version, same parameters) are one update.
      const key = u.version === undefined ? null : `${u.version}:${u.hash ?? u.id}`;
      if (key === null || !knownKeys.has(key)) {
        if (key !== null) knownKeys.add(key);
        count++;
        last = u;
      }
    }
    if (last && count > r.version!) return { kind: 'lost-update', a: last, b: r, count };
  }
  return null;
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
  private readonly cache = new Set<string>();
  private readonly calls: Array<{ entry: Entry; state: State }> = [];
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
    this.head = { op: null as unknown as Op, index: -1, isCall: false, match: null, prev: null, next: null, time: -Infinity };
    this.linearized = new Uint32Array(Math.ceil(this.ops.length / 32) + 1);

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
      const call: Entry = { op, index, isCall: true, match: null, prev: null, next: null, time: op.invoke };
      entries.push(call);
      if (op.status === 'ok' && op.complete !== null) {
        const ret: Entry = { op, index, isCall: false, match: null, prev: null, next: null, time: op.complete };
        call.match = ret;
        entries.push(ret);
        this.returnsLeft++;
      }
    });
    entries.sort((a, b) => a.time - b.time || Number(b.isCall) - Number(a.isCall) || a.index - b.index);
    let prev = this.head;
    for (const e of entries) {
      prev.next = e;
      e.prev = prev;
      prev = e;
    }
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

  private key(state: State): string {
    return `${this.linearized.join(',')}|${state.v}|${state.h ?? ''}`;
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
        const next = step(this.state, e.op);
        if (next) {
          this.setBit(e.index, true);
          const k = this.key(next);
          if (!this.cache.has(k)) {
            if (this.cache.size >= this.maxStates) return this.giveUp(`gave up after ${this.cache.size} search states (limit ${this.maxStates})`);
            this.cache.add(k);
            this.calls.push({ entry: e, state: this.state });
            this.state = next;
            this.lift(e);
            if (this.calls.length > this.deepest.depth) this.deepest = { depth: this.calls.length, blocked: null };
            this.entry = this.head.next;
            continue;
          }
          this.setBit(e.index, false);
        }
        this.entry = e.next;
      } else {
        // A return: its operation must already be linearized. Backtrack.
        if (this.calls.length === this.deepest.depth && !this.deepest.blocked) this.deepest.blocked = e.op;
        const top = this.calls.pop();
        if (!top) return this.fail();
        this.state = top.state;
        this.setBit(top.entry.index, false);
        this.unlift(top.entry);
        this.entry = top.entry.next;
      }
    }
    this.verdict = { result: 'linearizable', ops: this.ops.length, states: this.cache.size };
    return true;
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

// ---------------------------------------------------------------- explanations

const ms = (t: number | null) => (t === null ? '∞' : `${Math.round(t)}`);
const span = (o: Op) => `[${ms(o.invoke)}, ${ms(o.complete)}] ms`;
const hashOf = (o: Op) => (o.hash ? ` (parameters ${o.hash})` : '');
const hashZh = (o: Op) => (o.hash ? `（参数 ${o.hash}）` : '');

function what(o: Op, lang: 'en' | 'zh'): string {
  const v = o.version === undefined ? '' : `v=${o.version}`;
  if (lang === 'zh') return o.f === 'read' ? `读到 ${v}` : v ? `更新到 ${v}` : '更新';
  return o.f === 'read' ? `read of ${v}` : v ? `update to ${v}` : 'update';
}

/** One sentence naming the operations that no sequential order explains. */
export function explainWitness(w: Witness, lang: 'en' | 'zh' = 'en'): string {
  const { a, b } = w;
  if (lang === 'zh') {
    switch (w.kind) {
      case 'stale-read':
        return `${b!.process} 在 ${span(b!)} 读到 v=${b!.version}，但 ${a.process} 的${what(a, 'zh')}已在 ${ms(a.complete)} ms 完成（早于读开始）：陈旧读。`;
      case 'lost-update':
        return `${b!.process} 在 ${span(b!)} 读到 v=${b!.version}，但读开始前已有 ${w.count} 个更新完成（最后一个：${a.process} 在 ${ms(a.complete)} ms）：读取缺少一个已确认的更新（陈旧或丢失）。`;
      case 'fork':
        return `${a.process} 在 ${ms(a.complete)} ms 的${what(a, 'zh')}${hashZh(a)}与 ${b!.process} 在 ${ms(b!.complete)} ms 的${what(b!, 'zh')}${hashZh(b!)}：同一版本有两组参数。`;
      case 'regression':
        return `${b!.process} 在 ${span(b!)} 的更新产生 v=${b!.version}，而 ${a.process} 的${what(a, 'zh')}已在 ${ms(a.complete)} ms 完成：版本倒退。`;
      case 'unplaceable':
        return `没有任何顺序能解释 ${a.process} 在 ${span(a)} 的${what(a, 'zh')}。`;
    }
  }
  switch (w.kind) {
    case 'stale-read':
      return `${b!.process} read v=${b!.version} at ${span(b!)} after ${a.process}'s ${what(a, 'en')} completed at ${ms(a.complete)} < ${ms(b!.invoke)}: a stale read.`;
    case 'lost-update':
      return `${b!.process} read v=${b!.version} at ${span(b!)}, but ${w.count} updates had completed before it began (the last: ${a.process}'s at ${ms(a.complete)} ms): the read misses an acknowledged update (stale or lost).`;
    case 'fork':
      return `${a.process}'s ${what(a, 'en')}${hashOf(a)} at ${ms(a.complete)} ms and ${b!.process}'s ${what(b!, 'en')}${hashOf(b!)} at ${ms(b!.complete)} ms: one version, two parameter sets.`;
    case 'regression':
      return `${b!.process}'s update at ${span(b!)} produced v=${b!.version} after ${a.process}'s ${what(a, 'en')} completed at ${ms(a.complete)} ms: the version went back.`;
    case 'unplaceable':
      return `no sequential order explains ${a.process}'s ${what(a, 'en')} at ${span(a)}.`;
  }
}

export function describeVerdict(v: Verdict, lang: 'en' | 'zh' = 'en'): string {
  if (v.result === 'linearizable') return lang === 'zh' ? `线性一致（${v.ops} 个操作）` : `linearizable (${v.ops} operations)`;
  if (v.result === 'unknown') return lang === 'zh' ? `未判定：${v.reason}` : `unknown: ${v.reason}`;
  return `${lang === 'zh' ? '不是线性一致的' : 'not linearizable'}: ${explainWitness(v.witness, lang)}`;
}
