import { EventHashes } from './eventHashes';
import type { RunDigests, Sha256Factory } from './history';
import { RowsReader, type RowsBatch, type RowsDigester } from './historyRows';
import type { HistoryEvent } from './types';

/**
 * The history's digests from its rows (historyRows.ts), on the thread that gets them: the page's
 * hash worker, a worker thread in Node. Apart from the rows' reading, which a page holding a run's
 * history needs without the hashing (sim/rowsHistory.ts).
 */

/** The digests of a history whose rows arrive in batches: rebuilds each event and hashes its lines. */
export class RowsRebuilder implements RowsDigester {
  private readonly reader = new RowsReader();
  private readonly hashes: EventHashes;
  private readonly add1 = (e: HistoryEvent): void => this.hashes.add(e);

  constructor(sha: Sha256Factory) {
    this.hashes = new EventHashes(sha);
  }

  add(b: RowsBatch): void {
    this.reader.forEach(b, this.add1);
  }

  digests(): RunDigests | Promise<RunDigests> {
    return this.hashes.digests();
  }
}

/** Digests from rows, rebuilt on this thread (tests; the same work the hash worker does). */
export function rowsHere(sha: Sha256Factory): Sha256Factory {
  return Object.assign(() => sha(), { rows: () => new RowsRebuilder(sha) });
}
