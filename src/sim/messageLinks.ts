import { diffs, intColumns, intRows, sums } from './columnLayout';

/**
 * A batch's delivery columns read against their sends (issue 9: a long run's memory). A delivery
 * repeats its send: the same sender, receiver and kind, its `sentAt` is the send's time, and its
 * time is the send's `due` unless the network held it. Laid out as differences from the send with
 * the same id in the batch (from the delivery before where the send is in an earlier batch), those
 * columns are zeros that deflate to almost nothing; a send's `due` is kept as its latency. A busy
 * Raft run's message columns pack to a quarter of what row-to-row differences gave.
 *
 * Both sides work on the columns of columnLayout.ts (differences between rows): `link` replaces
 * some of them, `unlink` gives them back exactly.
 */

/** A batch's message columns: sends' floats t, bytes, due and ints id, from, to, kind; deliveries' floats t, sentAt and ints id, from, to, kind. */
export interface MessageColumns {
  sendFloats: Array<Float64Array | Int32Array>;
  sendInts: Int32Array[];
  deliverFloats: Array<Float64Array | Int32Array>;
  deliverInts: Int32Array[];
}

/** Which float columns were replaced (each needs whole microseconds in the columns it reads, and differences that fit an Int32). */
export interface Links {
  /** Sends' `due` as `due - t`. */
  readonly latency: boolean;
  /** Deliveries' t and sentAt as differences from their send's `due` and `t`. */
  readonly deliveries: boolean;
}

/** Running sums of an int difference column, with Int32 wrap-around. */
const intSums = (d: Int32Array): Int32Array => intRows([d], d.length);

const fitsInt32 = (x: number): boolean => x === (x | 0);

/** Each delivery's send row in the batch (the last send with its id), or -1. */
function sendRows(c: MessageColumns): Int32Array {
  const row = new Map<number, number>();
  intSums(c.sendInts[0]).forEach((id, r) => row.set(id, r));
  return Int32Array.from(intSums(c.deliverInts[0]), (id) => row.get(id) ?? -1);
}

type Col = Float64Array | Int32Array;

/**
 * `values` against `base[match]` (against the previous value where there is no match), into `out`:
 * an Int32Array `out` wraps around as Int32 arithmetic does, a Float64Array keeps the difference.
 */
function against<A extends Col>(values: Col, base: Col, match: Int32Array, out: A): A {
  for (let j = 0; j < values.length; j++) out[j] = values[j] - (match[j] >= 0 ? base[match[j]] : j > 0 ? values[j - 1] : 0);
  return out;
}

/** Undoes `against`: the values, into `out`. */
function fromBase<A extends Col>(res: Col, base: Col, match: Int32Array, out: A): A {
  for (let j = 0; j < res.length; j++) out[j] = res[j] + (match[j] >= 0 ? base[match[j]] : j > 0 ? out[j - 1] : 0);
  return out;
}

const micro = (c: Float64Array | Int32Array): c is Int32Array => c instanceof Int32Array;

/** The columns with deliveries read against their sends, and which float columns were replaced. */
export function link(c: MessageColumns): { columns: MessageColumns; links: Links } {
  const match = sendRows(c);
  const deliverInts = c.deliverInts.map((d, k) => (k === 0 ? d : against(intSums(d), intSums(c.sendInts[k]), match, new Int32Array(d.length))));
  const [st, bytes, due] = c.sendFloats;
  const [dt, sentAt] = c.deliverFloats;
  let sendFloats = c.sendFloats;
  let deliverFloats = c.deliverFloats;
  let latency = false;
  let deliveries = false;
  if (micro(st) && micro(due)) {
    const t = sums(st);
    const dueUs = sums(due);
    const lat = Float64Array.from(dueUs, (x, i) => x - t[i]);
    if (lat.every(fitsInt32)) {
      latency = true;
      sendFloats = [st, bytes, Int32Array.from(lat)];
    }
    if (micro(dt) && micro(sentAt)) {
      const r0 = against(sums(dt), dueUs, match, new Float64Array(dt.length));
      const r1 = against(sums(sentAt), t, match, new Float64Array(sentAt.length));
      if (r0.every(fitsInt32) && r1.every(fitsInt32)) {
        deliveries = true;
        deliverFloats = [Int32Array.from(r0), Int32Array.from(r1)];
      }
    }
  }
  return { columns: { sendFloats, sendInts: c.sendInts, deliverFloats, deliverInts }, links: { latency, deliveries } };
}

/** The columns `link` was given. */
export function unlink(c: MessageColumns, links: Links): MessageColumns {
  const match = sendRows(c);
  const deliverInts = c.deliverInts.map((d, k) => (k === 0 ? d : intColumns(fromBase(d, intSums(c.sendInts[k]), match, new Int32Array(d.length)), 1)[0]));
  let sendFloats = c.sendFloats;
  let deliverFloats = c.deliverFloats;
  if (links.latency || links.deliveries) {
    const [st, bytes, dueCol] = c.sendFloats as [Int32Array, Float64Array | Int32Array, Int32Array];
    const t = sums(st);
    const dueUs = links.latency ? Float64Array.from(dueCol, (x, i) => x + t[i]) : sums(dueCol);
    if (links.latency) sendFloats = [st, bytes, diffs(dueUs)];
    if (links.deliveries) {
      const [r0, r1] = c.deliverFloats as [Int32Array, Int32Array];
      deliverFloats = [diffs(fromBase(r0, dueUs, match, new Float64Array(r0.length))), diffs(fromBase(r1, t, match, new Float64Array(r1.length)))];
    }
  }
  return { sendFloats, sendInts: c.sendInts, deliverFloats, deliverInts };
}
