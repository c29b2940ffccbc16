import * as d3 from 'd3';
import { describe, expect, it } from 'vitest';
import { laneLabelPx, periodBands, periodLabelPx, secondsDigits } from './timelineLayers';

describe('timeline axis: seconds', () => {
  it('whole seconds for steps of 1 s and more; one decimal for 0.5, 0.2 and 0.1 s; two for 0.05 s', () => {
    expect(secondsDigits([0, 1000, 2000])).toBe(0);
    expect(secondsDigits([0, 5000])).toBe(0);
    expect(secondsDigits([0, 500, 1000])).toBe(1);
    expect(secondsDigits([0, 200])).toBe(1);
    expect(secondsDigits([0, 100])).toBe(1);
    expect(secondsDigits([0, 50])).toBe(2);
    expect(secondsDigits([0])).toBe(0);
  });

  it('no two ticks of any window and width read the same', () => {
    for (const spanMs of [800, 3_000, 8_000, 20_000, 95_000]) {
      for (const width of [300, 700, 1200, 1900]) {
        const x = d3.scaleLinear().domain([0, spanMs]).range([0, width]);
        const ticks = x.ticks(Math.max(2, Math.floor(width / 90)));
        const digits = secondsDigits(ticks);
        const labels = ticks.map((v) => (v / 1000).toFixed(digits));
        expect(new Set(labels).size, `${spanMs} ms over ${width} px: ${labels.join(' ')}`).toBe(labels.length);
      }
    }
  });
});

describe('timeline lane names', () => {
  it("keep the stylesheet's size where the lane holds it, else fit the lane, down to 12 px", () => {
    expect(laneLabelPx(30, 15)).toBeCloseTo(0.867 * 15);
    // Eight lanes in a presenter's lesson panel at 1920 px: 15.6 px apart, 24 px type.
    const px = laneLabelPx(15.6, 24);
    expect(px).toBeLessThanOrEqual(15.6 - 2);
    expect(px).toBeGreaterThanOrEqual(12);
    expect(laneLabelPx(8, 24)).toBe(12);
  });
});

describe('timeline partition bands', () => {
  it('label a band only where its label ends before the next band starts (a partition moved every second wrote "partition partitionpartition")', () => {
    // Exploration seed 815's three partitions, 1.7-7.3 s, on a 12 s axis 730 px wide at 16 px type.
    const parts = [
      { start: 1713, end: 2828, groups: [] },
      { start: 2828, end: 3820, groups: [] },
      { start: 3820, end: 7340, groups: [] },
    ] as unknown as Parameters<typeof periodBands>[0];
    for (const width of [500, 730, 1200, 2400]) {
      for (const fs of [14, 16, 24]) {
        const f = { x: d3.scaleLinear().domain([0, 12_000]).range([0, width]), t0: 0, t1: 12_000, tEnd: 7_600, lang: 'en' as const, fs };
        const bands = periodBands(parts, f);
        const room = periodLabelPx(f);
        expect(room, 'the estimate covers "partition" in bold').toBeGreaterThan(0.8 * fs * 5);
        bands.forEach((b, i) => {
          const next = bands[i + 1]?.x0 ?? Infinity;
          if (b.label) expect(b.x0 + room, `${width} px, ${fs} px type, band ${i}`).toBeLessThanOrEqual(Math.min(next, b.x1) + 0.001);
        });
        // Wide enough, every band has its label.
        if (width >= 2400 && fs <= 16) expect(bands.every((b) => b.label)).toBe(true);
      }
    }
    // At 1280 (a 730-px axis) the two short bands go unlabelled and the long one keeps its label.
    const at1280 = periodBands(parts, { x: d3.scaleLinear().domain([0, 12_000]).range([0, 730]), t0: 0, t1: 12_000, tEnd: 7_600, lang: 'en', fs: 16 });
    expect(at1280.map((b) => b.label)).toEqual([false, false, true]);
  });
});
