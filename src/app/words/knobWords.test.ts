import { describe, expect, it } from 'vitest';
import { strategies } from '../../protocols';
import { knobControls } from '../knobs';
import { knobHelp } from './knobWords';

describe('knob descriptions', () => {
  it('every knob of every strategy says what it does, in English and in Chinese', () => {
    let n = 0;
    for (const { kind } of strategies)
      for (const { key } of knobControls(kind)) {
        const [en, zh] = [knobHelp(kind, key, 'en'), knobHelp(kind, key, 'zh')];
        expect(en, `${kind}.${key}`).toMatch(/^\S.{20,}[.)]$/);
        expect(zh, `${kind}.${key}`).toMatch(/[\u4e00-\u9fff]/);
        // The glossary: 网络分区 for a network partition, 主题分区 for a Kafka topic partition.
        expect(zh!.replace(/网络分区|主题分区/g, ''), `${kind}.${key}`).not.toContain('分区');
        n++;
      }
    expect(n).toBeGreaterThan(50);
  });

  it("a knob whose meaning differs by strategy has that strategy's words", () => {
    expect(knobHelp('ps-async', 'fencing', 'en')).toContain('server');
    expect(knobHelp('degrade', 'fencing', 'en')).toContain('checkpoint store');
    expect(knobHelp('paxos-ps', 'electionTimeoutMs', 'en')).toContain('phase 1');
    expect(knobHelp('raft-ps', 'electionTimeoutMs', 'en')).toContain('starts an election');
  });
});
