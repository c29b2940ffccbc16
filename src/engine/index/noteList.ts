import { noteNames, type NoteName } from '../../protocols/notes';
import type { HistoryEvent, NodeId, SimTime } from '../../sim/types';
import { F64Column, I32Column } from './columns';
import { eventOf, type EventReader } from './tracks';

export type NoteEvent = Extract<HistoryEvent, { type: 'note' }>;

const nameIds = new Map<NoteName, number>(noteNames.map((n, i) => [n, i]));
const CACHE = 64;

/**
 * A run's notes in time order, as typed columns — the time, the name and the node of each, and
 * its event number in the history (issue 9: a busy Raft run makes ~4,000 notes a simulated
 * minute, and an object per note was half a MB of the page's heap a minute). A note itself is read
 * back from the history when asked (`at`): the scans that look for a name or a node read the
 * columns, and decode only the notes they keep. Reading one note twice in a row (every frame at the
 * live edge) gives the same object.
 */
export class NoteList implements Iterable<NoteEvent> {
  private readonly ts = new F64Column();
  private readonly whats = new I32Column();
  private readonly nodes = new I32Column();
  private readonly evs = new I32Column();
  private readonly nodeIds: NodeId[] = [];
  private readonly nodeIx = new Map<NodeId, number>();
  private readonly cacheK = new Int32Array(CACHE).fill(-1);
  private readonly cacheNote: Array<NoteEvent | undefined> = new Array<NoteEvent | undefined>(CACHE);

  constructor(private readonly read: EventReader) {}

  get length(): number {
    return this.ts.length;
  }

  /** Note `ev` of the history (a note) at t. */
  push(e: NoteEvent, ev: number): void {
    this.ts.push(e.t);
    this.whats.push(nameIds.get(e.what) ?? -1);
    let n = -1;
    if (e.node !== undefined) {
      n = this.nodeIx.get(e.node) ?? -1;
      if (n < 0) {
        n = this.nodeIds.push(e.node) - 1;
        this.nodeIx.set(e.node, n);
      }
    }
    this.nodes.push(n);
    this.evs.push(ev);
  }

  t(k: number): SimTime {
    return this.ts.get(k);
  }

  what(k: number): NoteName {
    return noteNames[this.whats.get(k)];
  }

  node(k: number): NodeId | undefined {
    const n = this.nodes.get(k);
    return n < 0 ? undefined : this.nodeIds[n];
  }

  /** The k-th note, read back from the history. */
  at(k: number): NoteEvent {
    const slot = k % CACHE;
    if (this.cacheK[slot] === k) return this.cacheNote[slot]!;
    const e = eventOf(this.read, this.evs.get(k), 'note');
    this.cacheK[slot] = k;
    this.cacheNote[slot] = e;
    return e;
  }

  /** The newest note at or before t (its position), or -1. */
  lastAtOrBefore(t: SimTime): number {
    return this.ts.lastAtOrBefore(t);
  }

  /** The first note at or after t (its position; `length` if none). */
  firstAtOrAfter(t: SimTime): number {
    return this.ts.firstAtOrAfter(t);
  }

  *[Symbol.iterator](): Iterator<NoteEvent> {
    for (let k = 0; k < this.length; k++) yield this.at(k);
  }
}
