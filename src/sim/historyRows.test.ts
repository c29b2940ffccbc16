import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../cli/nodeSha256';
import { Simulation } from '../engine/simulation';
import { InstantTrainer } from '../engine/testing/instantTrainer';
import { testScenario } from '../engine/testing/scenarios';
import { History, ROWS_SLICE, type RunDigests, type Sha256Factory } from './history';
import { RowsReader, type RowsBatch } from './historyRows';
import { RowsRebuilder, rowsHere } from './rowsDigests';
import type { HistoryEvent } from './types';
import { anyEvent } from './testing/historyEvents';


function linesDigests(events: readonly HistoryEvent[]): RunDigests {
  const h = new History(nodeSha256);
  for (const e of events) h.append(e);
  return { scheduleHash: h.scheduleHash(), eventLogHash: h.eventLogHash() };
}

/** A digester that answers later, as the hash worker does, and keeps what it was sent only as copies. */
function later(sha: Sha256Factory): Sha256Factory {
  return Object.assign(() => sha(), {
    rows: () => {
      const r = new RowsRebuilder(sha);
      return {
        add: (b: RowsBatch) => r.add(structuredClone(b)),
        digests: () => {
          const d = r.digests(); // for what was sent before the question, as a worker's port keeps order
          return Promise.resolve().then(() => d);
        },
      };
    },
  });
}

describe('digests from the history’s rows (historyRows.ts)', () => {
  it('equal those of the lines written in place, for any mix of events, asked at any points', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 4 }), (events, cuts) => {
        const h = new History(rowsHere(nodeSha256));
        events.forEach((e, i) => {
          h.append(e);
          if (cuts.includes(i)) expect({ scheduleHash: h.scheduleHash(), eventLogHash: h.eventLogHash() }).toEqual(linesDigests(events.slice(0, i + 1)));
        });
        expect({ scheduleHash: h.scheduleHash(), eventLogHash: h.eventLogHash() }).toEqual(linesDigests(events));
      }),
      { numRuns: 150, seed: 5 },
    );
  });

  it('hold across batches and across the words’ chunks (a long run: more than 65,536 words)', async () => {
    const events: HistoryEvent[] = [];
    for (let i = 0; i < 30_000; i++) {
      events.push({ t: i / 8, type: 'version', node: `w${i % 5}`, version: i, v: { loss: 1 / (i + 1), w: [i, i * 0.5, -i, 0.25] } } as unknown as HistoryEvent);
      if (i % 3 === 0) events.push({ t: i / 8, type: 'send', id: i, from: 'w0', to: 's0', kind: 'push', bytes: 420, due: i / 8 + 1 } as HistoryEvent);
    }
    const h = new History(later(nodeSha256));
    const early = events.length >> 1;
    events.slice(0, early).forEach((e) => h.append(e));
    const mid = h.digests();
    events.slice(early).forEach((e) => h.append(e));
    expect(() => h.scheduleHash()).toThrow(/digests\(\)/);
    expect(await mid).toEqual(linesDigests(events.slice(0, early)));
    expect(await h.digests()).toEqual(linesDigests(events));
  });

  it('give a simulation’s schedule and event-log hashes (a Raft run with a leader crash)', async () => {
    const sc = testScenario({ cluster: { workers: 4, servers: 3 }, durationMs: 15_000, strategy: { kind: 'raft-ps' } as never, timeline: [{ at: 1500, do: 'crash', node: '@leader' }, { at: 2500, do: 'restart', node: 's0' }] as never });
    const here = await Simulation.create(sc, { trainer: new InstantTrainer(), sha256: nodeSha256 });
    await here.runToEnd();
    const rows = await Simulation.create(sc, { trainer: new InstantTrainer(), sha256: later(nodeSha256) });
    await rows.runToEnd();
    expect(rows.history.length).toBeGreaterThan(4096 * 2);
    expect(await rows.digests()).toEqual({ scheduleHash: here.scheduleHash(), eventLogHash: here.history.eventLogHash() });
  });

  it('rowSlices: the history as it was at the call, in slices read in order as one batch, while it grows', () => {
    const h = new History(nodeSha256);
    const event = (i: number): HistoryEvent => {
      // New node names, shapes and strings keep coming in later slices; the value words cross chunks.
      const who = i < 100_000 ? `w${i % 5}` : `late${i % 3}`;
      if (i % 4 === 0) return { t: i, type: 'send', id: i, from: who, to: 's0', kind: 'push', bytes: 420, due: i + 1 } as HistoryEvent;
      if (i % 4 === 1) return { t: i, type: 'deliver', id: i - 1, from: who, to: 's0', kind: 'push', sentAt: i - 1 } as HistoryEvent;
      if (i % 997 === 0) return { t: i, type: 'note', node: who, text: `n${i}` } as unknown as HistoryEvent;
      const v = i > 120_000 ? { loss: 1 / i, extra: [i, `s${i % 11}`] } : { loss: 1 / i, w: [i, -i] };
      return { t: i, type: 'version', node: who, version: i, v } as unknown as HistoryEvent;
    };
    const n = 2 * ROWS_SLICE + 9_000;
    for (let i = 0; i < n; i++) h.append(event(i));
    const slices = h.rowSlices();
    expect(slices).toHaveLength(3);
    // The run goes on between the call and the copies (the page copies a slice per task).
    for (let i = n; i < n + 5_000; i++) h.append(event(i));
    const reader = new RowsReader();
    const lines: string[] = [];
    for (const slice of slices) reader.forEach(structuredClone(slice()), (e) => lines.push(JSON.stringify(e)));
    expect(lines.length).toBe(n);
    const want: string[] = [];
    for (let i = 0; i < n; i++) want.push(JSON.stringify(h.at(i)));
    expect(lines).toEqual(want);
  });
});
