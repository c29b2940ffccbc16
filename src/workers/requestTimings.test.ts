import { describe, expect, it } from 'vitest';
import { summarizeTimings, type RequestTiming } from './requestTimings';

describe('summarizeTimings', () => {
  it('is null for no requests', () => {
    expect(summarizeTimings([])).toBeNull();
  });

  it("gives the wall time, each worker's busy share and the spread of each leg", () => {
    const t = (worker: number, sent: number, taken: number, replied: number, answered: number): RequestTiming => ({ worker, sent, taken, replied, answered });
    const s = summarizeTimings([t(0, 100, 101, 103, 104), t(1, 100, 102, 104, 106), t(0, 100, 103, 107, 108), t(1, 104, 105, 106, 110)]);
    expect(s).not.toBeNull();
    expect(s!.requests).toBe(4);
    expect(s!.wallMs).toBe(10);
    // Worker 0 computed 2 + 4 ms, worker 1 2 + 1 ms, of 10.
    expect(s!.busy).toEqual({ 0: 0.6, 1: 0.3 });
    // Legs sorted: to the worker 1 1 2 3, gradient 1 2 2 4, back 1 1 2 4.
    expect(s!.toWorker).toEqual({ p50: 2, p90: 3 });
    expect(s!.compute).toEqual({ p50: 2, p90: 4 });
    expect(s!.back).toEqual({ p50: 2, p90: 4 });
  });
});
