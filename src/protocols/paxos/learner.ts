import type { NodeId } from '../../sim/types';
import { updateKey } from '../paramMachine';
import type { ReplicaBooks } from '../replicaBooks';
import type { StrategyContext } from '../strategy';
import type { PaxosChecker } from './invariants';
import { learn } from './rules';
import { BATCH, type Msg, type Send, type Server } from './server';
import type { Accepted, Value } from './state';

/**
 * The learners of paxos-ps: a server applies the chosen slots to its replica in order, the leader
 * acknowledges each update it applies, and answers a learner that asks for the chosen values it
 * lacks. The leader and followers call `learned` whenever a slot is known chosen (group.ts).
 */
export class PaxosLearner {
  // Observer bookkeeping (metrics), never read by the protocol.
  private commitNoted = 0;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly checker: PaxosChecker,
    private readonly books: ReplicaBooks,
    private readonly send: Send,
  ) {}

  /** `slot` is known chosen at `s`: apply whatever now extends the prefix. */
  learned(s: Server, slot: number, entry: Accepted): void {
    this.checker.learned(s.id, slot, entry.value);
    if (slot <= s.d.chosen.length) return;
    const first = s.d.chosen.length + 1;
    const run = learn(s, slot, entry);
    run.forEach((c, i) => this.apply(s, first + i, c.value));
    if (run.length && s.d.chosen.length > this.commitNoted) {
      this.commitNoted = s.d.chosen.length;
      this.ctx.note('commit', s.id, { index: s.d.chosen.length });
    }
  }

  private apply(s: Server, slot: number, v: Value): void {
    const firstAnywhere = slot > this.checker.appliedLength;
    this.checker.appliedSlot(s.id, slot, v);
    if (v.kind !== 'update') return;
    const sm = s.v.sm;
    const u = v.update;
    const tau = sm.version - u.basedOn;
    const version = sm.apply(u, this.ctx.learningRate);
    if (version !== null) this.books.changed(s.id, updateKey(u.worker, u.seq));
    if (version !== null && firstAnywhere) {
      this.books.firstApply(this.ctx.now());
      this.ctx.note('apply', s.id, { worker: u.worker, seq: u.seq, staleness: tau });
    }
    if (s.v.role === 'leader') this.send(s.id, u.worker, 'ack', { t: 'ack', seq: u.seq, version: version ?? sm.applied.get(updateKey(u.worker, u.seq))! });
  }

  onCatchup(s: Server, from: NodeId, start: number): void {
    if (s.v.role !== 'leader' || start > s.d.chosen.length) return;
    const entries = s.d.chosen.slice(start - 1, start - 1 + BATCH);
    let bytes = 0;
    for (const c of entries) if (c.value.kind === 'update') bytes += this.ctx.paramCount * 4;
    this.send(s.id, from, 'state', { t: 'chosen', from: start, entries }, bytes);
  }

  onChosen(s: Server, m: Extract<Msg, { t: 'chosen' }>): void {
    m.entries.forEach((c, i) => this.learned(s, m.from + i, c));
  }
}
