import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../cli/nodeSha256';
import { History } from './history';
import { nobleSha256 } from './nobleSha256';
import type { HistoryEvent } from './types';

function fill(h: History, n: number) {
  for (let i = 0; i < n; i++) {
    h.append({ t: i, type: 'send', id: i, from: 'w0', to: 'w1', kind: 'chunk', bytes: 108, due: i + 5.5 });
    h.append({ t: i + 1, type: 'stepDone', node: 'w1', step: i, version: i, v: { loss: 1 / (i + 1) } });
  }
}

describe('History hashes', () => {
  it('the schedule hash ignores values; the event-log hash does not', () => {
    const a = new History(nobleSha256);
    const b = new History(nobleSha256);
    a.append({ t: 1, type: 'stepDone', node: 'w0', step: 1, version: 0, v: { loss: 0.5 } });
    b.append({ t: 1, type: 'stepDone', node: 'w0', step: 1, version: 0, v: { loss: 0.25 } });
    expect(a.scheduleHash()).toBe(b.scheduleHash());
    expect(a.eventLogHash()).not.toBe(b.eventLogHash());
    const c = new History(nobleSha256);
    c.append({ t: 2, type: 'stepDone', node: 'w0', step: 1, version: 0, v: { loss: 0.5 } });
    expect(c.scheduleHash()).not.toBe(a.scheduleHash());
  });

  it('buffered hashing equals SHA-256 of the JSON lines, and the native and pure-JS digests agree', async () => {
    const { createHash } = await import('node:crypto');
    const pure = new History(nobleSha256);
    const native = new History(nodeSha256);
    fill(pure, 3000); // crosses the 64 KiB flush boundary several times
    fill(native, 3000);
    const lines = pure.events.map((e) => JSON.stringify(e) + '\n').join('');
    expect(pure.eventLogHash()).toBe(createHash('sha256').update(lines).digest('hex'));
    expect(native.eventLogHash()).toBe(pure.eventLogHash());
    expect(native.scheduleHash()).toBe(pure.scheduleHash());
    // Reading a hash mid-run does not disturb it.
    const e: HistoryEvent = { t: 9999, type: 'end' };
    pure.append(e);
    native.append(e);
    expect(native.eventLogHash()).toBe(pure.eventLogHash());
  });
});
