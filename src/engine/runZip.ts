import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { RowsReader } from '../sim/historyRows';
import { sliceBatch } from '../sim/packCodec';
import type { RowsSlice } from '../sim/packedBatch';
import { JsonBytes } from '../sim/jsonBytes';
import type { HistoryEvent } from '../sim/types';
import { joinLines, samplesCsvLines } from './runExport';

/**
 * A run's zip (the page's "Export run", app/exportRun.ts), streamed: the event log is written from
 * the history's rows (History.rowSlices) line by line into the compressor, a megabyte at a time, so
 * no string of the whole log is ever built. One as a string was the export's cost and its limit:
 * a 5-minute, 8-worker raft-ps run has 474 k events, 53 MB of lines — 3 s on the page's main
 * thread — and an hour of it passes V8's longest string (2^29 characters). The page runs this in
 * a worker (workers/exportWorker.ts). The log's lines are those of `sim --log` (engine/runExport.ts),
 * so its SHA-256 is the run's eventLogHash.
 */
export type ZipEntry =
  | { name: string; bytes: Uint8Array; store?: boolean }
  /**
   * The event log, one JSON line per event (`sim --log`): a history's slices in order
   * (`History.rowSlices`), an entry each, `more` on all but the last. No other entry comes
   * between them.
   */
  | { name: string; log: RowsSlice; more?: boolean }
  /** The metric samples among the events of the log named `samplesOf`, written before, as CSV (`sim --samples`). */
  | { name: string; samplesOf: string };

/** A log being written: the entry its batches go to, the line buffer and the decoders they continue. */
interface OpenLog {
  name: string;
  file: ZipDeflate | ZipPassThrough;
  lines: JsonBytes;
  reader: RowsReader;
  samples: HistoryEvent[];
}

/** Lines are handed to the compressor in pieces of about this many bytes. */
const PIECE = 1 << 20;

/**
 * A zip written as its entries come (the page's worker takes the log first and the views once the
 * page has drawn them: the two overlap), then `end`ed: the chunks it was written in.
 */
export class RunZip {
  private readonly out: Uint8Array[] = [];
  private failed: Error | null = null;
  private readonly zip = new Zip((err, chunk) => {
    if (err) this.failed = err;
    else this.out.push(chunk);
  });
  /** The log whose batches are coming. */
  private open: OpenLog | null = null;
  /** Metric samples read while writing each log, by its name, for its samples entry. */
  private readonly samplesOf = new Map<string, HistoryEvent[]>();

  add(entries: readonly ZipEntry[]): void {
    for (const entry of entries) {
      if (this.open && !('log' in entry && entry.name === this.open.name)) throw new Error(`runZip: ${entry.name} came before the end of the log ${this.open.name}`);
      if ('log' in entry) this.log(entry.name, entry.log, entry.more === true);
      else if ('samplesOf' in entry) {
        const samples = this.samplesOf.get(entry.samplesOf);
        if (!samples) throw new Error(`runZip: ${entry.name} wants the samples of ${entry.samplesOf}, which is not a log written before`);
        this.file(entry.name).push(new TextEncoder().encode(joinLines(samplesCsvLines(samples))), true);
      } else this.file(entry.name, entry.store).push(entry.bytes, true);
    }
    if (this.failed) throw this.failed;
  }

  end(): Uint8Array[] {
    if (this.open) throw new Error(`runZip: the zip ended before the end of the log ${this.open.name}`);
    this.zip.end();
    if (this.failed) throw this.failed;
    return this.out;
  }

  /** `end`, as the file a page downloads. */
  endBlob(): Blob {
    return new Blob(this.end() as Uint8Array<ArrayBuffer>[], { type: 'application/zip' });
  }

  private file(name: string, store = false): ZipDeflate | ZipPassThrough {
    const file = store ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    this.zip.add(file);
    return file;
  }

  private log(name: string, slice: RowsSlice, more: boolean): void {
    const rows = sliceBatch(slice);
    let open = this.open;
    if (!open) {
      if (this.samplesOf.has(name)) throw new Error(`runZip: the log ${name} was written already`);
      open = this.open = { name, file: this.file(name), lines: new JsonBytes(PIECE + (PIECE >> 2)), reader: new RowsReader(), samples: [] };
      this.samplesOf.set(name, open.samples);
    }
    const { file, lines, reader, samples } = open;
    reader.forEach(rows, (e) => {
      if (e.type === 'metrics') samples.push(e);
      lines.value(e);
      lines.byte(0x0a);
      if (lines.n >= PIECE) {
        // A copy each time: the compressor may keep what it is given, and the buffer is reused.
        file.push(lines.buf.slice(0, lines.n));
        lines.n = 0;
      }
    });
    if (more) return;
    file.push(lines.buf.slice(0, lines.n), true);
    this.open = null;
  }
}
