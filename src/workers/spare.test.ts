import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropSpares, prewarmTrainWorkers, spareCount, takeSpare } from './spare';

/** Stands in for the browser's Worker: records terminate() and lets a test fire its error event. */
class FakeWorker extends EventTarget {
  static made: FakeWorker[] = [];
  terminated = false;
  constructor(readonly url: URL | string) {
    super();
    FakeWorker.made.push(this);
  }
  terminate(): void {
    this.terminated = true;
  }
}

afterEach(() => {
  dropSpares();
  FakeWorker.made = [];
  vi.unstubAllGlobals();
});

describe('spare training workers', () => {
  it('starts none where the page has no Worker (Node, the CLI)', () => {
    prewarmTrainWorkers(3);
    expect(spareCount()).toBe(0);
    expect(takeSpare()).toBeUndefined();
  });

  it('starts n workers of the training script and hands each out once, oldest first', () => {
    vi.stubGlobal('Worker', FakeWorker);
    prewarmTrainWorkers(2);
    prewarmTrainWorkers(2); // already there: starts no more
    expect(FakeWorker.made).toHaveLength(2);
    expect(String(FakeWorker.made[0].url)).toMatch(/trainWorker/);
    expect(takeSpare()).toBe(FakeWorker.made[0]);
    expect(takeSpare()).toBe(FakeWorker.made[1]);
    expect(takeSpare()).toBeUndefined();
  });

  it('never hands out a worker whose script failed before a pool took it, and ends it', () => {
    vi.stubGlobal('Worker', FakeWorker);
    prewarmTrainWorkers(2);
    const [broken, fine] = FakeWorker.made;
    const event = new Event('error', { cancelable: true });
    broken.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true); // kept out of the console: the pool starts another
    expect(takeSpare()).toBe(fine);
    expect(broken.terminated).toBe(true);
  });

  it('ends the spares nobody took', () => {
    vi.stubGlobal('Worker', FakeWorker);
    prewarmTrainWorkers(3);
    takeSpare();
    dropSpares();
    expect(spareCount()).toBe(0);
    expect(FakeWorker.made.map((w) => w.terminated)).toEqual([false, true, true]);
  });
});
