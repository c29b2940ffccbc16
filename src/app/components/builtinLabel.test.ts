import { describe, expect, it } from 'vitest';
import { testScenario } from '../../engine/testing/scenarios';
import { builtinLabel } from './builtinLabel';

describe('builtinLabel', () => {
  const loaded = testScenario({ id: 'raft-partition', title: { en: 'Raft under a partition', zh: '分区下的 Raft' } });

  it('borrows the loaded scenario title while the entry has none of its own', () => {
    expect(builtinLabel({ id: 'raft-partition' }, loaded, 'en')).toBe('Raft under a partition (raft-partition)');
    expect(builtinLabel({ id: 'raft-partition' }, loaded, 'zh')).toBe('分区下的 Raft (raft-partition)');
  });

  it("keeps the entry's own title, and an unloaded entry's id alone", () => {
    expect(builtinLabel({ id: 'raft-partition', title: { en: 'Own', zh: '自' } }, loaded, 'en')).toBe('Own (raft-partition)');
    expect(builtinLabel({ id: 'kafka-log-lag' }, loaded, 'en')).toBe('kafka-log-lag');
    expect(builtinLabel({ id: 'kafka-log-lag' }, null, 'en')).toBe('kafka-log-lag');
  });
});
