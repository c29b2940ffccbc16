import * as d3 from 'd3';
import { describe, expect, it } from 'vitest';
import { laneLabelPx, secondsDigits } from './timelineLayers';

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
