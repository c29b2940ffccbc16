import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { HistoryEvent } from './types';

/**
 * The append-only history (DESIGN rule 4). Every view, metric and export derives from it.
 * Two running SHA-256 digests are kept as events arrive:
 *  - the schedule hash omits training values (`v`), so it is equal across backends and
 *    between Node and the browser;
 *  - the event-log hash covers everything, so it is equal across runs on one backend.
 */
export class History {
  readonly events: HistoryEvent[] = [];
  private readonly schedule = sha256.create();
  private readonly log = sha256.create();
  private readonly encoder = new TextEncoder();
  private listeners: Array<(e: HistoryEvent) => void> = [];

  append(e: HistoryEvent): void {
    this.events.push(e);
    const full = JSON.stringify(e);
    this.log.update(this.encoder.encode(full + '\n'));
    this.schedule.update(this.encoder.encode(('v' in e ? JSON.stringify(e, omitValues) : full) + '\n'));
    for (const l of this.listeners) l(e);
  }

  onAppend(listener: (e: HistoryEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  scheduleHash(): string {
    return bytesToHex(this.schedule.clone().digest());
  }

  eventLogHash(): string {
    return bytesToHex(this.log.clone().digest());
  }
}

function omitValues(key: string, value: unknown): unknown {
  return key === 'v' ? undefined : value;
}
