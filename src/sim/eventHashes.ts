import { JsonBytes } from './jsonBytes';
import type { RunDigests, Sha256Factory, Sha256Stream } from './history';
import type { HistoryEvent } from './types';

/** Buffered lines are hashed in chunks of about this many bytes. */
const FLUSH_BYTES = 1 << 16;

/**
 * The history's two running SHA-256 digests over the events' JSON lines (history.ts says what each
 * covers), each line written as bytes (JsonBytes) into a buffer per digest that is hashed in large
 * chunks; chunking changes no digest. An event without training values (`v`) has the same line in
 * both, so it is written once, into the schedule's buffer, and the run of such lines is copied into
 * the log's buffer in one piece when the next event with values (a few per step) or a flush comes.
 */
export class EventHashes {
  private readonly schedule: Sha256Stream;
  private readonly log: Sha256Stream;
  private readonly scheduleLines = new JsonBytes();
  private readonly logLines = new JsonBytes();
  /** scheduleLines[0, synced) are in logLines too; the rest are lines both digests take. */
  private synced = 0;

  constructor(sha: Sha256Factory) {
    this.schedule = sha();
    this.log = sha();
  }

  add(e: HistoryEvent): void {
    const s = this.scheduleLines;
    if ('v' in e) {
      this.sync();
      const l = this.logLines;
      l.value(e);
      l.byte(0x0a);
      s.value(e, 'v');
      s.byte(0x0a);
      this.synced = s.n;
      if (l.n >= FLUSH_BYTES) this.flush();
    } else {
      s.value(e);
      s.byte(0x0a);
    }
    if (s.n >= FLUSH_BYTES) this.flush();
  }

  scheduleHex(): string | Promise<string> {
    this.flush();
    return this.schedule.peekHex();
  }

  logHex(): string | Promise<string> {
    this.flush();
    return this.log.peekHex();
  }

  /** Both digests: at once where both streams answer at once, else as a promise. */
  digests(): RunDigests | Promise<RunDigests> {
    const s = this.scheduleHex();
    const l = this.logHex();
    if (typeof s === 'string' && typeof l === 'string') return { scheduleHash: s, eventLogHash: l };
    return Promise.all([s, l]).then(([scheduleHash, eventLogHash]) => ({ scheduleHash, eventLogHash }));
  }

  /** Copies the shared lines not yet in the log's buffer there (one copy for a run of lines). */
  private sync(): void {
    const s = this.scheduleLines;
    const l = this.logLines;
    const len = s.n - this.synced;
    if (len > 0) {
      l.reserve(len);
      l.buf.set(s.buf.subarray(this.synced, s.n), l.n);
      l.n += len;
    }
    this.synced = s.n;
  }

  private flush(): void {
    this.sync();
    const s = this.scheduleLines;
    const l = this.logLines;
    if (s.n > 0) this.schedule.update(s.buf.subarray(0, s.n));
    if (l.n > 0) this.log.update(l.buf.subarray(0, l.n));
    s.n = 0;
    l.n = 0;
    this.synced = 0;
  }
}
