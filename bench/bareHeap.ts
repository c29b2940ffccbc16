/**
 * The reference for the simulator core's speed: a bare discrete-event loop on a binary heap, in the
 * same process — the cost of the queue alone, with no network, protocol, history or hashing. Each
 * of 64 sources holds one pending event; popping it runs a tiny handler that schedules the source's
 * next event a pseudo-random delay later (ties broken by insertion order, as in src/sim/scheduler).
 */
interface Item {
  time: number;
  seq: number;
  src: number;
}

function before(a: Item, b: Item): boolean {
  return a.time !== b.time ? a.time < b.time : a.seq < b.seq;
}

class Heap {
  private readonly h: Item[] = [];
  private seq = 0;

  get size(): number {
    return this.h.length;
  }

  push(time: number, src: number): void {
    const h = this.h;
    const item = { time, seq: this.seq++, src };
    let i = h.length;
    h.push(item);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(item, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = item;
  }

  pop(): Item {
    const h = this.h;
    const top = h[0];
    const last = h.pop()!;
    const n = h.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const m = r < n && before(h[r], h[l]) ? r : l;
        if (!before(h[m], last)) break;
        h[i] = h[m];
        i = m;
      }
      h[i] = last;
    }
    return top;
  }
}

/** Runs `events` events through the bare loop; returns events per wall-clock second (best of `runs`). */
export function bareHeapEventsPerSec(events: number, runs = 3): number {
  let best = 0;
  for (let r = 0; r < runs; r++) {
    const q = new Heap();
    let x = 12345; // a fixed LCG: the delays are the same every run
    for (let s = 0; s < 64; s++) q.push(s, s);
    let checksum = 0;
    const t0 = performance.now();
    for (let n = 0; n < events; n++) {
      const e = q.pop();
      checksum += e.src;
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      q.push(Math.round((e.time + 1 + (x % 1000) / 100) * 1000) / 1000, e.src);
    }
    const dt = performance.now() - t0;
    if (checksum < 0 || q.size !== 64) throw new Error('bare heap loop broke'); // keeps the loop's work observable
    best = Math.max(best, (events / dt) * 1000);
  }
  return best;
}
