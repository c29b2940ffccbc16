import { createHash } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../cli/nodeSha256';
import { eventLogLines, joinLines, samplesCsvLines } from './runExport';
import { History, ROWS_SLICE } from '../sim/history';
import type { HistoryEvent } from '../sim/types';
import { RunZip, type ZipEntry } from './runZip';

/** The zip of `entries` in one go, as the chunks it was written in. */
function runZip(entries: readonly ZipEntry[]): Uint8Array[] {
  const zip = new RunZip();
  zip.add(entries);
  return zip.end();
}
import { Simulation } from './simulation';
import { InstantTrainer } from './testing/instantTrainer';
import { testScenario } from './testing/scenarios';

const concat = (chunks: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

/** A history's log as RunZip entries, a slice each, as the page sends them (app/exportRun.ts). */
const logEntries = (h: History, name: string): ZipEntry[] => h.rowSlices().map((slice, k, all) => ({ name, log: slice(), more: k < all.length - 1 }));

describe('runZip: the exported run, its log written from the history’s rows', () => {
  it('holds the log `sim --log` writes (hashing to the eventLogHash), in pieces, beside the other files in order', async () => {
    // Long enough for the log to pass several of runZip's 1 MB pieces and the value words' chunks.
    const sc = testScenario({ cluster: { workers: 6, servers: 3 }, durationMs: 40_000, strategy: { kind: 'raft-ps' } as never, timeline: [{ at: 1500, do: 'crash', node: '@leader' }, { at: 2500, do: 'restart', node: 's0' }] as never });
    const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sha256: nodeSha256 });
    await sim.runToEnd();
    const log = joinLines(eventLogLines(sim.history.events));
    expect(log.length).toBeGreaterThan(3 << 20);
    const png = Uint8Array.from([137, 80, 78, 71, 1, 2, 3]);
    const zip = concat(runZip([
      { name: 'a.scenario.json', bytes: new TextEncoder().encode('{"x":1}\n') },
      ...logEntries(sim.history, 'a.events.jsonl'),
      { name: 'a.samples.csv', samplesOf: 'a.events.jsonl' },
      { name: 'views/v.png', bytes: png, store: true },
    ]));
    const files = unzipSync(zip);
    expect(Object.keys(files)).toEqual(['a.scenario.json', 'a.events.jsonl', 'a.samples.csv', 'views/v.png']);
    expect(strFromU8(files['a.events.jsonl'])).toBe(log);
    expect(createHash('sha256').update(files['a.events.jsonl']).digest('hex')).toBe(sim.history.eventLogHash());
    const samples = joinLines(samplesCsvLines(sim.history.events));
    expect(samples.split('\n').length).toBeGreaterThan(1000);
    expect(strFromU8(files['a.samples.csv'])).toBe(samples);
    expect(files['views/v.png']).toEqual(png);
  });

  it('takes its entries in several parts, in order (the page sends the log before it draws the views)', () => {
    const h = new History(nodeSha256);
    for (let i = 0; i < 50; i++) h.append({ t: i, type: 'metrics', v: { cluster: { steps: i, loss: i / 3 }, nodes: { w0: { loss: i / 7 } } } } as unknown as HistoryEvent);
    const parts = new RunZip();
    parts.add(logEntries(h, 'a.jsonl'));
    parts.add([{ name: 'a.csv', samplesOf: 'a.jsonl' }]);
    const files = unzipSync(concat(parts.end()));
    expect(Object.keys(files)).toEqual(['a.jsonl', 'a.csv']);
    expect(strFromU8(files['a.jsonl'])).toBe(joinLines(eventLogLines(h.events)));
    expect(strFromU8(files['a.csv'])).toBe(joinLines(samplesCsvLines(h.events)));
  });

  it('takes a log in slices over several parts (the page copies a slice per task) and writes it as from one batch', () => {
    const h = new History(nodeSha256);
    // Past two slices of rows (ROWS_SLICE events each); metric samples among them.
    for (let i = 0; i < 2 * ROWS_SLICE + 500; i++) {
      if (i % 1000 === 0) h.append({ t: i, type: 'metrics', v: { cluster: { steps: i, loss: 1 / (i + 1) }, nodes: { w0: { loss: i / 7 } } } } as unknown as HistoryEvent);
      else h.append({ t: i, type: 'send', id: i, from: `w${i % 7}`, to: 's0', kind: 'push', bytes: 420, due: i + 1 } as HistoryEvent);
    }
    expect(h.rowSlices()).toHaveLength(3);
    const zip = new RunZip();
    for (const entry of logEntries(h, 'a.jsonl')) zip.add([entry]);
    zip.add([{ name: 'a.csv', samplesOf: 'a.jsonl' }]);
    const files = unzipSync(concat(zip.end()));
    expect(strFromU8(files['a.jsonl'])).toBe(joinLines(eventLogLines(h.events)));
    expect(strFromU8(files['a.csv'])).toBe(joinLines(samplesCsvLines(h.events)));
  });

  it('refuses what would write a broken zip: an entry inside an open log, a log ended twice, samples of no log', () => {
    const h = new History(nodeSha256);
    h.append({ t: 0, type: 'note', node: 'w0', text: 'x' } as unknown as HistoryEvent);
    const between = new RunZip();
    between.add([{ name: 'a.jsonl', log: h.rowSlices()[0](), more: true }]);
    expect(() => between.add([{ name: 'v.png', bytes: Uint8Array.of(1) }])).toThrow(/v\.png came before the end of the log a\.jsonl/);
    expect(() => new RunZip().add([{ name: 'a.csv', samplesOf: 'a.jsonl' }])).toThrow(/not a log written before/);
    const twice = new RunZip();
    twice.add(logEntries(h, 'a.jsonl'));
    expect(() => twice.add(logEntries(h, 'a.jsonl'))).toThrow(/written already/);
    const open = new RunZip();
    open.add([{ name: 'a.jsonl', log: h.rowSlices()[0](), more: true }]);
    expect(() => open.end()).toThrow(/ended before the end of the log a\.jsonl/);
  });

  it('an empty history gives an empty log', async () => {
    const empty = new History(nodeSha256);
    expect(empty.rowSlices()).toHaveLength(1);
    const files = unzipSync(concat(runZip(logEntries(empty, 'e.jsonl'))));
    expect(files['e.jsonl'].length).toBe(0);
  });
});
