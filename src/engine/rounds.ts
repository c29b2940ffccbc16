import type { HistoryEvent, NodeId } from '../sim/types';

/**
 * Round metrics of lock-step strategies (all-reduce, BSP; CURRICULUM §C.4), read off the history:
 *
 * - `sentPerRound` (per node; cluster: mean over workers): payload bytes a node sent per completed
 *   round. A round r is complete when every live worker holds version r; at that moment no worker
 *   has sent anything for round r + 1 yet (it computes first), so the bytes sent so far over the
 *   rounds completed so far count exactly the completed rounds — ring all-reduce 2(N − 1)/N · M per
 *   worker, a parameter server's worker M and its server N · M.
 * - `syncMs`: mean duration of a round's communication phase, from the last gradient of the round
 *   being ready (the last step computed on version r − 1) to the last worker holding version r.
 *
 * Retransmissions count as sent bytes, as on a real wire; copies the network made (duplication)
 * and messages a man-in-the-middle forged are not the sender's.
 */
export class RoundTracker {
  private readonly version = new Map<NodeId, number>();
  private readonly up = new Map<NodeId, boolean>();
  private readonly sent = new Map<NodeId, number>();
  /** Round → when its last gradient was ready (a step on version round − 1 finished). */
  private readonly readyAt = new Map<number, number>();
  private completed = 0;
  private snapshot = new Map<NodeId, number>();
  private syncSum = 0;
  private syncRounds = 0;

  constructor(private readonly workers: readonly NodeId[]) {
    for (const w of workers) {
      this.version.set(w, 0);
      this.up.set(w, true);
    }
  }

  onEvent(e: HistoryEvent): void {
    switch (e.type) {
      case 'send':
        if (e.dupOf === undefined && !e.forged) this.sent.set(e.from, (this.sent.get(e.from) ?? 0) + e.bytes);
        return;
      case 'stepDone': {
        const round = e.version + 1;
        if (round > this.completed) this.readyAt.set(round, Math.max(this.readyAt.get(round) ?? -Infinity, e.t));
        return;
      }
      case 'version':
        if (!this.version.has(e.node)) return;
        this.version.set(e.node, e.version);
        return this.advance(e.t);
      case 'crash':
      case 'restart':
        if (!this.up.has(e.node)) return;
        this.up.set(e.node, e.type === 'restart');
        return this.advance(e.t);
      default:
        return;
    }
  }

  private advance(t: number): void {
    const live = this.workers.filter((w) => this.up.get(w));
    if (live.length === 0) return;
    const min = Math.min(...live.map((w) => this.version.get(w)!));
    if (min <= this.completed) return;
    for (let r = this.completed + 1; r <= min; r++) {
      const ready = this.readyAt.get(r);
      if (ready !== undefined && ready <= t) {
        this.syncSum += t - ready;
        this.syncRounds++;
      }
      this.readyAt.delete(r);
    }
    this.completed = min;
    this.snapshot = new Map(this.sent);
  }

  /** Rounds every live worker has completed. */
  get rounds(): number {
    return this.completed;
  }

  /** Bytes `node` sent per completed round; without a node, the mean over workers. null before the first round. */
  sentPerRound(node?: NodeId): number | null {
    if (this.completed === 0) return null;
    if (node !== undefined) return (this.snapshot.get(node) ?? 0) / this.completed;
    const total = this.workers.reduce((a, w) => a + (this.snapshot.get(w) ?? 0), 0);
    return total / this.workers.length / this.completed;
  }

  /** Mean communication time of the completed rounds; null before the first. */
  syncMs(): number | null {
    return this.syncRounds === 0 ? null : this.syncSum / this.syncRounds;
  }
}
