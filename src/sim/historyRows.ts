import { DELIVER_INTS, MessageDecoder, SEND_INTS, type MessagesDelta } from './compactMessages';
import { ValueDecoder, type ValuesDelta } from './valueWords';
import type { RunDigests } from './history';
import type { HistoryEvent } from './types';

/**
 * The history's digests computed from its compact rows, wherever the rows are sent (issue 9:
 * simulator core speed). Writing every event's JSON line was a third of the event loop's time;
 * where the digests are taken on another thread (the page's hash worker), the loop now only stores
 * the event, as it did anyway, and hands over the rows stored since the last batch. The other side
 * keeps a copy of the stores' decoders (the interned strings and shapes), rebuilds each event
 * exactly as `History.at` would — equal field for field, keys in the same order — and writes and
 * hashes its lines as EventHashes does in place: the digests, and so the schedule and event-log
 * hashes, are the same whichever side writes the lines (tests: every built-in both ways).
 */

/** Where History keeps an event: as an object, in the message columns, as compact words. */
export const OBJECT = 0;
export const MESSAGE = 1;
export const VALUE = 2;

/** The events a history stored since its last batch, in order, as its stores hold them. */
export interface RowsBatch {
  /** Per event: OBJECT, MESSAGE or VALUE. */
  where: Uint8Array;
  /** Per event: its row in the message columns, or its offset in the words (objects: unused). */
  refs: Int32Array;
  messages: MessagesDelta;
  values: ValuesDelta;
  /** The events kept as objects (actions, violations: a few), as JSON lines, in order. */
  objects: string[];
}

/** Takes a history's batches and gives its digests (`History` sends it every batch before asking). */
export interface RowsDigester {
  add(batch: RowsBatch): void;
  digests(): RunDigests | Promise<RunDigests>;
}

/**
 * The buffers a slice may give away when posted to a worker (every array in it is a fresh copy),
 * each once: an unpacked batch's arrays share one buffer (packedBatch.ts), a packed one has one.
 */
export function batchTransfers(b: RowsBatch | { bytes: Uint8Array }): ArrayBuffer[] {
  const arrays = 'bytes' in b ? [b.bytes] : batchArrays(b);
  return [...new Set(arrays.map((a) => a.buffer))].filter((x): x is ArrayBuffer => x instanceof ArrayBuffer);
}

/** A batch's typed columns. */
export function batchArrays(b: RowsBatch): Array<Uint8Array | Int32Array | Float64Array> {
  return [b.where, b.refs, b.messages.sends.f64, b.messages.sends.i32, b.messages.delivers.f64, b.messages.delivers.i32, ...b.values.pieces.map((p) => p.words)];
}

/**
 * Consecutive batches of one history as one batch, equal to the batch a single `takeRows` over the
 * same span would have given (its tables' rows follow on from one another; a values chunk's pieces
 * that meet are joined). A page that follows a run frame by frame gets a small batch per answer:
 * RowsHistory joins them so that a lecture-long run holds thousands of batches, not millions.
 */
export function concatBatches(bs: readonly RowsBatch[]): RowsBatch {
  if (bs.length === 1) return bs[0];
  const table = (pick: (b: RowsBatch) => MessagesDelta['sends'], ints: number): MessagesDelta['sends'] => {
    const ts = bs.map(pick);
    for (let i = 1; i < ts.length; i++) if (ts[i].first !== ts[i - 1].first + ts[i - 1].i32.length / ints) throw new Error('history rows: batches that do not follow on');
    return { first: ts[0].first, f64: join(Float64Array, ts.map((x) => x.f64)), i32: join(Int32Array, ts.map((x) => x.i32)) };
  };
  // A chunk's words arrive in pieces that meet end to start: each run of them becomes one piece.
  const runs: Array<Array<ValuesDelta['pieces'][number]>> = [];
  for (const b of bs)
    for (const p of b.values.pieces) {
      const run = runs[runs.length - 1];
      const last = run?.[run.length - 1];
      if (last && last.chunk === p.chunk && last.at + last.words.length === p.at) run.push(p);
      else runs.push([p]);
    }
  return {
    where: join(Uint8Array, bs.map((b) => b.where)),
    refs: join(Int32Array, bs.map((b) => b.refs)),
    messages: { names: bs.flatMap((b) => b.messages.names), sends: table((b) => b.messages.sends, SEND_INTS), delivers: table((b) => b.messages.delivers, DELIVER_INTS) },
    values: { strings: bs.flatMap((b) => b.values.strings), shapes: bs.flatMap((b) => b.values.shapes), pieces: runs.map((r) => ({ chunk: r[0].chunk, at: r[0].at, words: join(Int32Array, r.map((p) => p.words)) })) },
    objects: bs.flatMap((b) => b.objects),
  };
}

function join<A extends Uint8Array | Int32Array | Float64Array>(make: new (n: number) => A, parts: readonly A[]): A {
  const out = new make(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p as never, at);
    at += p.length;
  }
  return out;
}

/**
 * Rebuilds a history's events from its batches, in order, each as `History.at` gives it (objects
 * from their JSON lines: a line parsed and written again is the same line — JSON keeps key order
 * and numbers round-trip). Batches must come in the order they were made: each teaches the
 * decoders the strings and shapes the next ones use.
 */
export class RowsReader {
  private readonly messages = new MessageDecoder();
  private readonly values = new ValueDecoder();

  forEach(b: RowsBatch, each: (e: HistoryEvent) => void): void {
    this.messages.names.learn(b.messages.names);
    this.values.learn(b.values);
    let k = 0;
    for (let i = 0; i < b.where.length; i++) {
      const ref = b.refs[i];
      switch (b.where[i]) {
        case MESSAGE:
          each(this.messages.readIn(b.messages, ref));
          break;
        case VALUE:
          each(this.values.readIn(b.values.pieces, ref) as HistoryEvent);
          break;
        default:
          each(JSON.parse(b.objects[k++]) as HistoryEvent);
      }
    }
  }
}
