import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HistoryEvent, MetricSample } from '../../sim/types';
import { MetricSamples, SampleList, sampleAt } from './metricSamples';

type Sampled = Extract<HistoryEvent, { type: 'metrics' }>;

/** The samples as times and columns read back from the history: the same answers as the list of samples they replace. */
describe('MetricSamples', () => {
  const sample = fc.record({
    dt: fc.constantFrom(0, 0.25, 250, 1000),
    lost: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }),
    loss: fc.option(fc.double({ min: 0, max: 3, noNaN: true }), { nil: null }),
  });

  it('answers as the list does: times, samples, both searches, columns asked before and after samples come', () => {
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 120 }), fc.array(fc.double({ min: -1, max: 200_000, noNaN: true }), { maxLength: 10 }), fc.nat(120), (spec, probes, askAt) => {
        const events: HistoryEvent[] = [];
        const list: Array<{ t: number; value: MetricSample }> = [];
        const read = (i: number) => structuredClone(events[i]); // fresh objects, as a decoding history gives
        const samples = new MetricSamples(read);
        const lostOf = (s: MetricSample) => s.cluster.lostUpdates ?? NaN;
        let early: ArrayLike<number> | null = null;
        let t = 0;
        spec.forEach((s, k) => {
          if (k === askAt) early = samples.column('lost', lostOf);
          t += s.dt;
          events.push({ t, type: 'restart', node: 'w9' });
          const e: Sampled = { t, type: 'metrics', v: { cluster: { lostUpdates: s.lost }, nodes: { w0: { loss: s.loss } } } };
          events.push(e);
          list.push({ t, value: e.v });
          samples.push(t, e.v, events.length - 1);
        });
        const plain = new SampleList(list);
        for (const x of [samples, plain]) {
          expect(x.length).toBe(list.length);
          expect([...x]).toEqual(list);
          expect(Array.from(x.column('lost', lostOf))).toEqual(list.map((s) => s.value.cluster.lostUpdates ?? NaN));
          for (const p of [...probes, ...list.map((s) => s.t)]) {
            const last = list.filter((s) => s.t <= p).length - 1; // times ascend
            const first = list.findIndex((s) => s.t >= p);
            expect(x.lastAtOrBefore(p)).toBe(last);
            expect(x.firstAtOrAfter(p)).toBe(first < 0 ? list.length : first);
            expect(sampleAt(x, p)).toEqual(last < 0 ? undefined : list[last]);
          }
        }
        // A column asked for part-way is the whole column once the samples are in.
        if (early) expect(Array.from(early as ArrayLike<number>)).toEqual(list.map((s) => s.value.cluster.lostUpdates ?? NaN));
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('reads a sample back from the history once while it is among the last read', () => {
    const events: HistoryEvent[] = [];
    let reads = 0;
    const samples = new MetricSamples((i) => (reads++, structuredClone(events[i])));
    for (let k = 0; k < 40; k++) {
      const e: Sampled = { t: k, type: 'metrics', v: { cluster: { steps: k }, nodes: {} } };
      events.push(e);
      samples.push(k, e.v, k);
    }
    expect(samples.value(39)).toBe(samples.value(39)); // the live edge: one object, no read
    expect(Array.from(samples.cluster('steps'))).toEqual(Array.from({ length: 40 }, (_, k) => k)); // kept as they came
    expect(Array.from(samples.cluster('none'))).toEqual(Array(40).fill(NaN)); // asked late: read back once
    expect(reads).toBe(40); // each sample once
    reads = 0;
    const old = samples.value(3);
    expect(samples.value(3)).toBe(old);
    expect(reads).toBe(1);
    expect(old).toEqual({ cluster: { steps: 3 }, nodes: {} });
  });
});
