/**
 * How many acknowledged keys are not (yet) confirmed — chosen in a Paxos slot, say — when
 * confirmation is forever and nothing is ever un-acknowledged. Each count looks only at the keys
 * acknowledged since the last count and those still unconfirmed, not at every key of the run, so a
 * metric read once per sample costs the same at any point of a long run.
 *
 * New keys are read off a live iterator of the acknowledged set: a Set iterator visits entries
 * added after it was made, as long as it has not reported done — and it is only advanced while
 * unvisited entries exist. The set must only grow.
 */
export class UnconfirmedAcks {
  private it: Iterator<string> | null = null;
  private seen = 0;
  private pending: string[] = [];

  constructor(
    private readonly acked: ReadonlySet<string>,
    private readonly confirmed: (key: string) => boolean,
  ) {}

  count(): number {
    this.it ??= this.acked.values();
    if (this.acked.size < this.seen) throw new Error('UnconfirmedAcks: the acknowledged set shrank (it must only grow)');
    while (this.seen < this.acked.size) {
      const r = this.it.next();
      if (r.done) throw new Error('UnconfirmedAcks: the acknowledged set shrank (it must only grow)');
      this.seen++;
      this.pending.push(r.value);
    }
    if (this.pending.length > 0) this.pending = this.pending.filter((k) => !this.confirmed(k));
    return this.pending.length;
  }
}
