import { describe, expect, it } from 'vitest';
import { History } from '../sim/history';
import type { HistoryEvent } from '../sim/types';
import { nodeSha256 } from './nodeSha256';
import { threadSha256 } from './threadSha256';

describe('threadSha256: the history’s lines written and hashed on a worker thread', () => {
  it('gives the digests of the lines written in place, across batches, and refuses a synchronous read', async () => {
    const events: HistoryEvent[] = [];
    for (let i = 0; i < 9000; i++) {
      events.push({ t: i / 4, type: 'send', id: i, from: `w${i % 3}`, to: 's0', kind: 'push', bytes: 100 + i, due: i / 4 + 2 } as HistoryEvent);
      if (i % 7 === 0) events.push({ t: i / 4, type: 'version', node: 's0', version: i, v: { loss: 1 / (i + 1) } } as unknown as HistoryEvent);
      if (i % 1000 === 0) events.push({ t: i / 4, type: 'note', node: 's0', text: `note ${i}` } as unknown as HistoryEvent);
    }
    const here = new History(nodeSha256);
    const there = new History(threadSha256());
    for (const e of events) {
      here.append(e);
      there.append(e);
    }
    expect(() => there.scheduleHash()).toThrow(/digests\(\)/);
    expect(await there.digests()).toEqual({ scheduleHash: here.scheduleHash(), eventLogHash: here.eventLogHash() });
  });
});
