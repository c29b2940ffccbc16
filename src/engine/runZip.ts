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

/** The zip of `entries`, in order, as the chunks it was written in. */
export function runZip(entries: readonly ZipEntry[], level: 6 | 9 = 6): Uint8Array[] {
  const out: Uint8Array[] = [];
  const samplesOf = new Map<RowsBatch, HistoryEvent[]>();
  const keepSamples = (rows: RowsBatch): ((e: HistoryEvent) => void) => {
    const kept: HistoryEvent[] = [];
    samplesOf.set(rows, kept);
    return (e) => void (e.type === 'metrics' && kept.push(e));
  };
  let failed: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failed = err;
    else out.push(chunk);
  });
  for (const entry of entries) {
    if ('log' in entry) {
      const file = new ZipDeflate(entry.name, { level });
      zip.add(file);
      const lines = new JsonBytes(PIECE + (PIECE >> 2));
      // A copy each time: the compressor may keep what it is given, and the buffer is reused.
      const sample = keepSamples(entry.log);
      const line = (e: HistoryEvent): void => {
        sample(e);
        lines.value(e);
        lines.byte(0x0a);
        if (lines.n >= PIECE) {
          file.push(lines.buf.slice(0, lines.n));
          lines.n = 0;
        }
      };
      new RowsReader().forEach(entry.log, line);
      file.push(lines.buf.slice(0, lines.n), true);
    } else if ('samples' in entry) {
      if (!samplesOf.has(entry.samples)) new RowsReader().forEach(entry.samples, keepSamples(entry.samples));
      const file = new ZipDeflate(entry.name, { level });
      zip.add(file);
      file.push(new TextEncoder().encode(joinLines(samplesCsvLines(samplesOf.get(entry.samples)!))), true);
    } else {
      const file = entry.store ? new ZipPassThrough(entry.name) : new ZipDeflate(entry.name, { level });
      zip.add(file);
      file.push(entry.bytes, true);
    }
  }
  zip.end();
  if (failed) throw failed;
  return out;
}
