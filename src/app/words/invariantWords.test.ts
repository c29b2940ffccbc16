import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invariantName, namedInvariants } from './invariantWords';

/** Every invariant id the protocols report, read from their source (the ids are string literals). */
function reportedIds(dir: string): Set<string> {
  const ids = new Set<string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      for (const id of reportedIds(path)) ids.add(id);
      continue;
    }
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
    const text = readFileSync(path, 'utf8');
    for (const m of text.matchAll(/(?:report|violation)\(\s*'([a-z0-9][a-z0-9.-]+)'|invariant: '([a-z0-9][a-z0-9.-]+)'/g)) ids.add(m[1] ?? m[2]!);
  }
  return ids;
}

describe('invariant names', () => {
  const ids = reportedIds(join(__dirname, '../../protocols'));

  it('finds the invariants the protocols check (Raft, Paxos, 2PC, Kafka, SSP, fencing)', () => {
    for (const id of ['election-safety', 'at-most-one-value-chosen', 'atomicity', 'hw-monotonic', 'ssp-clock-gap', 'fencing-token-order']) expect(ids).toContain(id);
  });

  it('names every reported invariant in both languages, and Chinese screens get Chinese', () => {
    const unnamed = [...ids].filter((id) => !namedInvariants.includes(id));
    expect(unnamed).toEqual([]);
    for (const id of ids) {
      expect(invariantName(id, 'zh')).toMatch(/[\u4e00-\u9fff]/);
      expect(invariantName(id, 'en')).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it("ZooKeeper's Zab checks reuse Raft's names under the service's name", () => {
    expect(invariantName('zab-election-safety', 'en')).toBe(`ZooKeeper (Zab): ${invariantName('election-safety', 'en')}`);
    expect(invariantName('zab-election-safety', 'zh')).toBe(`ZooKeeper（Zab）：${invariantName('election-safety', 'zh')}`);
    expect(invariantName('no-such-check', 'en')).toBe('no-such-check');
  });
});
