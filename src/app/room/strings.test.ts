import { describe, expect, it } from 'vitest';
import { invalidRefusal, refusalReasonSchema, type RefusalReason } from '../../room/refusals';
import { parseAction } from '../../scenario/parseAction';
import { ensureLang } from '../i18n/catalog';
import { refusalText } from './refusalText';
import { roomKeys, rs } from './strings';

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

  it("an invalid action reads in the page's language, checked again against the room run's nodes", async () => {
    await ensureLang('zh');
    const nodes = ['w0', 'w1', 'w2', 's0'];
    const sent = { do: 'crash', node: 'w7' };
    const parsed = parseAction(sent, nodes);
    if (parsed.ok) throw new Error('w7 was accepted');
    // As the teacher's page stores it in the room, and every page reads it back through the schema.
    const r = refusalReasonSchema.parse(JSON.parse(JSON.stringify(invalidRefusal(parsed.error, sent))));
    expect(refusalText(r, 'en', nodes)).toBe('node: node "w7" does not exist (cluster has w0-w2, s0)');
    expect(refusalText(r, 'zh', nodes)).toBe('node：节点“w7”不存在（集群中有 w0-w2、s0）');
    // No action to check (a malformed request, an action too long to keep), or no run here: the English line.
    expect(refusalText(invalidRefusal('request: id: missing (expected a number)'), 'zh', nodes)).toBe('request: id: missing (expected a number)');
    const long = invalidRefusal(parsed.error, { ...sent, pad: 'x'.repeat(700) });
    expect(long).toEqual({ code: 'invalid', detail: parsed.error });
    expect(refusalText(r, 'zh', [])).toBe(parsed.error);
  });
});
