import { JsonBytes } from './jsonBytes';
import type { Sha256Factory, Sha256Stream } from './history';
import type { HistoryEvent } from './types';

/** Buffered lines are hashed in chunks of about this many bytes. */
const FLUSH_BYTES = 1 << 16;

/**
 * The history's two running SHA-256 digests over the events' JSON lines (history.ts says what each
 * covers). An event without training values (`v`) has the same line in both, so it is written once,
 * as bytes (JsonBytes), into a buffer both digests take; an event with values — a few per step —
 * first has the buffer fed to both, then its own two lines fed to each. Chunking changes no digest.
 */
export class EventHashes {
  private readonly schedule: Sha256Stream;
  private readonly log: Sha256Stream;
  /** Lines not yet hashed that both digests cover. */
  private readonly common = new JsonBytes();
  /** One event's own lines (an event with values). */
  private readonly own = new JsonBytes(1024);

  constructor(sha: Sha256Factory) {
    this.schedule = sha();
    this.log = sha();
  }

  add(e: HistoryEvent): void {
    if ('v' in e) {
      this.flush();
      const w = this.own;
      w.n = 0;
      w.value(e);
      w.byte(0x0a);
      this.log.update(w.buf.subarray(0, w.n));
      w.n = 0;
      w.value(e, 'v');
      w.byte(0x0a);
      this.schedule.update(w.buf.subarray(0, w.n));
      return;
    }
    const c = this.common;
    c.value(e);
    c.byte(0x0a);
    if (c.n >= FLUSH_BYTES) this.flush();
  }

  scheduleHex(): string {
    this.flush();
    return this.schedule.peekHex();
  }

  logHex(): string {
    this.flush();
    return this.log.peekHex();
  }

  private flush(): void {
    const c = this.common;
    if (c.n === 0) return;
    const bytes = c.buf.subarray(0, c.n);
    this.schedule.update(bytes);
    this.log.update(bytes);
    c.n = 0;
  }
}
