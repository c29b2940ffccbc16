import { describe, expect, it } from 'vitest';
import type { RefusalReason } from '../../room/refusals';
import { refusalText, roomKeys, rs } from './strings';

describe('room strings', () => {
  it('EN and 中文 have the same keys and the same placeholders', () => {
    expect(roomKeys('zh')).toEqual(roomKeys('en'));
    for (const k of roomKeys('en') as Array<Parameters<typeof rs>[1]>) {
      const holes = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(holes(rs('zh', k)), k).toEqual(holes(rs('en', k)));
    }
  });
  it('the Chinese texts are Chinese (no English sentence left untranslated)', () => {
    for (const k of roomKeys('en') as Array<Parameters<typeof rs>[1]>) {
      expect(rs('zh', k).replace(/`[^`]*`|\{\w+\}|QR|URL/g, ''), k).not.toMatch(/[A-Za-z]{3,}/);
    }
  });
  it('every refusal reads in both languages, with its nodes', () => {
    const reasons: RefusalReason[] = [
      { code: 'watching' },
      { code: 'notYourNode', node: 'w2', target: 'w1' },
      { code: 'notYourLink', node: 'w2', from: 'w0', to: 's0' },
      { code: 'teacherOnly', action: 'partition' },
      { code: 'locked' },
      { code: 'staleRun' },
      { code: 'notMember' },
      { code: 'tooFast', max: 5 },
      { code: 'runOver' },
      { code: 'noLesson' },
    ];
    for (const r of reasons) {
      const en = refusalText(r, 'en');
      const zh = refusalText(r, 'zh');
      expect(en).not.toBe(zh);
      for (const v of Object.values(r).slice(1)) {
        expect(en).toContain(String(v));
        expect(zh).toContain(String(v));
      }
    }
  });
});
