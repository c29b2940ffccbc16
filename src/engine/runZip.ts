import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { RowsReader, type RowsBatch } from '../sim/historyRows';
import { JsonBytes } from '../sim/jsonBytes';
import type { HistoryEvent } from '../sim/types';
import { joinLines, samplesCsvLines } from './runExport';

/**
 * A run's zip (the page's "Export run", app/exportRun.ts), streamed: the event log is written from
 * the history's rows (History.allRows) line by line into the compressor, a megabyte at a time, so
 * no string of the whole log is ever built. One as a string was the export's cost and its limit:
 * a 5-minute, 8-worker raft-ps run has 474 k events, 53 MB of lines — 3 s on the page's main
 * thread — and an hour of it passes V8's longest string (2^29 characters). The page runs this in
 * a worker (workers/exportWorker.ts). The log's lines are those of `sim --log` (engine/runExport.ts),
 * so its SHA-256 is the run's eventLogHash.
 */
export type ZipEntry =
  | { name: string; bytes: Uint8Array; store?: boolean }
  /** The event log, one JSON line per event (`sim --log`). */
  | { name: string; log: RowsBatch }
  /** The metric samples among the events, as CSV (`sim --samples`); read while writing the log when it comes first. */
  | { name: string; samples: RowsBatch };

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
  /** Metric samples read while writing a log, for a samples entry of the same rows. */
  private readonly samplesOf = new Map<RowsBatch, HistoryEvent[]>();

  add(entries: readonly ZipEntry[]): void {
    for (const entry of entries) {
      if ('log' in entry) this.log(entry.name, entry.log);
      else if ('samples' in entry) {
        if (!this.samplesOf.has(entry.samples)) new RowsReader().forEach(entry.samples, this.keepSamples(entry.samples));
        this.file(entry.name).push(new TextEncoder().encode(joinLines(samplesCsvLines(this.samplesOf.get(entry.samples)!))), true);
      } else this.file(entry.name, entry.store).push(entry.bytes, true);
    }
    if (this.failed) throw this.failed;
  }

  end(): Uint8Array[] {
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

  private keepSamples(rows: RowsBatch): (e: HistoryEvent) => void {
    const kept: HistoryEvent[] = [];
    this.samplesOf.set(rows, kept);
    return (e) => void (e.type === 'metrics' && kept.push(e));
  }

  private log(name: string, rows: RowsBatch): void {
    const file = this.file(name);
    const lines = new JsonBytes(PIECE + (PIECE >> 2));
    const sample = this.keepSamples(rows);
    new RowsReader().forEach(rows, (e) => {
      sample(e);
      lines.value(e);
      lines.byte(0x0a);
      if (lines.n >= PIECE) {
        // A copy each time: the compressor may keep what it is given, and the buffer is reused.
        file.push(lines.buf.slice(0, lines.n));
        lines.n = 0;
      }
    });
    file.push(lines.buf.slice(0, lines.n), true);
  }
}
