import { describe, expect, it } from 'vitest';
import { actionTable } from '../../scenario/actions';
import { actionsZh } from './actionWords.zh';
import { actionHint, actionLabel, fieldLabel, optionLabel } from './actionWords';

/** The action table's words in Chinese: every action, field and option has them, and nothing else does. */
describe('action words', () => {
  it('say every action, field and option in Chinese, and nothing the table lacks', () => {
    const kinds = actionTable.map((a) => a.do);
    expect(Object.keys(actionsZh).sort()).toEqual([...kinds].sort());
    for (const spec of actionTable) {
      const zh = actionsZh[spec.do];
      expect(zh.label.length * zh.hint.length, spec.do).toBeGreaterThan(0);
      expect(Object.keys(zh.fields ?? {}).sort(), spec.do).toEqual(spec.fields.map((f) => f.name).sort());
      const choices = spec.fields.filter((f) => f.options);
      expect(Object.keys(zh.options ?? {}).sort(), spec.do).toEqual(choices.map((f) => f.name).sort());
      for (const f of choices) expect(Object.keys(zh.options![f.name]).sort(), `${spec.do}.${f.name}`).toEqual(f.options!.map((o) => o.value).sort());
    }
  });

  it('English is the table itself; Chinese its own words (the Chinese tables are loaded in tests: testSetup.ts)', () => {
    for (const spec of actionTable) {
      expect(actionLabel(spec, 'en')).toBe(spec.label);
      expect(actionHint(spec, 'en')).toBe(spec.hint);
      expect(actionLabel(spec, 'zh')).toBe(actionsZh[spec.do].label);
      expect(actionHint(spec, 'zh')).toBe(actionsZh[spec.do].hint);
      for (const f of spec.fields) {
        expect(fieldLabel(spec, f, 'en')).toBe(f.label);
        expect(fieldLabel(spec, f, 'zh')).toBe(actionsZh[spec.do].fields![f.name]);
        for (const o of f.options ?? []) expect(optionLabel(spec, f, o, 'zh')).toBe(actionsZh[spec.do].options![f.name][o.value]);
      }
    }
    expect(actionLabel(actionTable[0], 'zh')).not.toBe(actionTable[0].label);
  });
});
