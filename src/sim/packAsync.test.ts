import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../cli/nodeSha256';
import { History } from './history';
import { unpack } from './packCodec';
import { PackedRows } from './packedRows';
import { holdPacking, loadPacker, packerNow, packWith, type Packing } from './packer';
import { localPacking } from './packLocal';
import { CHUNK_ROWS } from './rows';
import { RowsHistory } from './rowsHistory';

/** Packing as a worker does it: answers later, each when `release` is called. */
const queued: Array<() => void> = [];
const later: Packing = {
  batch: (b) => {
    const copy = structuredClone(b); // a worker gets a copy
    return new Promise((ok) => queued.push(() => ok(localPacking.batch(copy) as ReturnType<typeof localPacking.batch> & object)));
  },
  bytes: (b) => new Promise((ok) => queued.push(() => ok(localPacking.bytes(b) as Uint8Array))),
};
const release = async (): Promise<void> => {
  for (const q of queued.splice(0)) q();
  for (let k = 0; k < 3; k++) await Promise.resolve(); // the answers' callbacks
};

describe('packing that answers later (the page’s worker)', () => {
  it('reads every row while the packing is out, swaps the bytes in when they come, and drops bytes a write made stale', async () => {
    packWith(() => later);
    expect(await loadPacker()).toBe(true);
    const rows = new PackedRows((n) => new Int32Array(n), 1, { pack: later.bytes, unpack }, [], 2);
    const n = 4 * CHUNK_ROWS + 3;
    for (let r = 0; r < n; r++) rows.set(rows.add(), 0, r % 1000);
    const full = rows.byteLength;
    rows.packBefore(9);
    expect(queued.length).toBe(4);
    expect(rows.get(5)).toBe(5); // out for packing, still here
    rows.set(CHUNK_ROWS + 1, 0, -7); // chunk 1 written meanwhile: its packing comes back stale
    await release();
    expect(rows.byteLength).toBeLessThan(full - 2 * CHUNK_ROWS * 4); // three of five packed
    expect([rows.get(5), rows.get(CHUNK_ROWS + 1), rows.get(3 * CHUNK_ROWS + 999)]).toEqual([5, -7, (3 * CHUNK_ROWS + 999) % 1000]);
    rows.packBefore(9); // chunk 1 again (and the ones just read, let go of)
    expect(queued.length).toBe(1);
    await release();
    let bad = 0;
    for (let r = 0; r < n; r++) if (rows.get(r) !== (r === CHUNK_ROWS + 1 ? -7 : r % 1000)) bad++;
    expect(bad).toBe(0);
  });

  it('a history reads a batch out for packing as it is, and packed once it is back', async () => {
    packWith(() => later);
    expect(await loadPacker()).toBe(true);
    const h = new History(nodeSha256);
    const copy = new RowsHistory({ joinBatches: 2, packFrom: 0 });
    for (let i = 0; i < 3000; i++) {
      h.append({ t: i / 1000, type: 'send', id: i, from: 'w0', to: 's0', kind: 'append', bytes: 100, due: (i + 5) / 1000 });
      h.append({ t: (i + 5) / 1000, type: 'deliver', id: i, from: 'w0', to: 's0', kind: 'append', sentAt: i / 1000 });
      if (i % 100 === 99) copy.add(structuredClone(h.takeRows()));
    }
    const line = (i: number): string => JSON.stringify(copy.at(i));
    const before = copy.byteLength;
    expect(queued.length).toBeGreaterThan(10);
    expect(line(0)).toBe(JSON.stringify(h.at(0)));
    await release();
    expect(copy.byteLength).toBeLessThan(before / 3);
    for (const i of [0, 1, 2999, 4321, 5999]) expect(line(i)).toBe(JSON.stringify(h.at(i)));
  });
});

describe('holdPacking', () => {
  it('packs nothing new while held (an export), and what aged meanwhile at the next join after', async () => {
    packWith(() => later);
    expect(await loadPacker()).toBe(true);
    const h = new History(nodeSha256);
    const copy = new RowsHistory({ joinBatches: 2, packFrom: 0 });
    const more = (from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        h.append({ t: i / 1000, type: 'send', id: i, from: 'w0', to: 's0', kind: 'append', bytes: 100, due: (i + 5) / 1000 });
        if (i % 100 === 99) copy.add(structuredClone(h.takeRows()));
      }
    };
    let done = (): void => undefined;
    const held = holdPacking(new Promise<void>((ok) => (done = ok)));
    expect(packerNow()).toBeNull();
    more(0, 1000);
    expect(queued.length).toBe(0);
    done();
    await held;
    expect(packerNow()).not.toBeNull();
    more(1000, 1200); // one join: every batch before the newest goes
    expect(queued.length).toBe(5);
    await release();
    expect(JSON.stringify(copy.at(7))).toBe(JSON.stringify(h.at(7)));
  });
});
