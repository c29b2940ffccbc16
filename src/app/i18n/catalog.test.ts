import { describe, expect, it } from 'vitest';
import { catalogKeys, resources, translate, type Namespace } from './catalog';
import type { Lang } from './lang';

/**
 * The message catalogs (locales/*.json): both languages carry the same messages with the same
 * placeholders, every plural form the language needs (CLDR, via Intl.PluralRules), no empty text,
 * and the Chinese uses the CURRICULUM §2 glossary terms wherever the English names the concept.
 */

const langs = Object.keys(resources) as Lang[];
const namespaces = Object.keys(resources.en) as Namespace[];
const PLURAL = /_(zero|one|two|few|many|other)$/;

function table(lang: Lang, ns: Namespace): Record<string, string> {
  return resources[lang][ns] as Record<string, string>;
}
/** Placeholder names of one message: `{t}`, `{n, number}` → t, n. */
function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)(?:,[^}]*)?\}/g)].map((m) => m[1]))].sort();
}
/** Every message of a namespace, plural forms grouped under their base key. */
function messages(lang: Lang, ns: Namespace): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of Object.entries(table(lang, ns))) {
    const base = k.replace(PLURAL, '');
    out.set(base, [...(out.get(base) ?? []), v]);
  }
  return out;
}

describe('message catalogs', () => {
  it('both languages have the same namespaces and keys', () => {
    for (const lang of langs) expect(Object.keys(resources[lang]).sort()).toEqual([...namespaces].sort());
    const bad: string[] = [];
    for (const ns of namespaces) {
      const en = new Set(catalogKeys('en', ns));
      for (const lang of langs) {
        const other = new Set(catalogKeys(lang, ns));
        for (const k of en) if (!other.has(k)) bad.push(`${lang}: ${ns}.${k} missing`);
        for (const k of other) if (!en.has(k)) bad.push(`${lang}: ${ns}.${k} not in en`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('a plural message has exactly the forms its language needs, and a plain one has none', () => {
    const bad: string[] = [];
    for (const lang of langs) {
      const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.slice().sort();
      for (const ns of namespaces) {
        const forms = new Map<string, string[]>();
        for (const k of Object.keys(table(lang, ns))) {
          const m = PLURAL.exec(k);
          if (m) forms.set(k.replace(PLURAL, ''), [...(forms.get(k.replace(PLURAL, '')) ?? []), m[1]]);
        }
        for (const [base, got] of forms) {
          if (JSON.stringify(got.slice().sort()) !== JSON.stringify(needed)) bad.push(`${lang}: ${ns}.${base} has ${got.join('/')}, needs ${needed.join('/')}`);
          if (base in table(lang, ns)) bad.push(`${lang}: ${ns}.${base} is both plain and plural`);
          // A plural message is chosen by `n`, so every form must use it.
          for (const f of got) if (!placeholders(table(lang, ns)[`${base}_${f}`]).includes('n') && !(lang === 'en' && f === 'one')) bad.push(`${lang}: ${ns}.${base}_${f} lacks {n}`);
        }
        // English needs a plural wherever another language does.
        if (lang !== 'en') for (const base of forms.keys()) if (!(`${base}_one` in table('en', ns))) bad.push(`en: ${ns}.${base} is not plural`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the same placeholders in every language, and no empty text', () => {
    const bad: string[] = [];
    for (const ns of namespaces) {
      const en = messages('en', ns);
      for (const lang of langs) {
        for (const [k, texts] of messages(lang, ns)) {
          for (const t of texts) if (t.trim() === '') bad.push(`${lang}: ${ns}.${k} is empty`);
          // English `_one` may spell the count out ("1 entry"); compare the `other` forms' names.
          const want = placeholders((en.get(k) ?? []).at(-1) ?? '');
          const got = placeholders(texts.at(-1) ?? '');
          if (JSON.stringify(want) !== JSON.stringify(got)) bad.push(`${lang}: ${ns}.${k} has {${got.join('}{')}}, en has {${want.join('}{')}}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('plurals and numbers go through the language rules', () => {
    expect(translate('en', 'run', 'linkLength', { n: 1 })).toBe('1 character');
    expect(translate('en', 'run', 'linkLength', { n: 1234 })).toBe('1,234 characters');
    expect(translate('zh', 'run', 'linkLength', { n: 1 })).toBe('1 个字符');
    expect(translate('en', 'lin', 'checkedAt', { t: '2.0', n: 1 })).toBe('history up to t = 2.0 s, 1 operation');
    expect(translate('en', 'lin', 'checkedAt', { t: '2.0', n: 2 })).toBe('history up to t = 2.0 s, 2 operations');
    expect(translate('en', 'ui', 'prunedEntries', { n: 1 })).not.toMatch(/entries|nodes/);
  });

  it('values are filled verbatim (no HTML escaping: React escapes)', () => {
    expect(translate('en', 'ui', 'invalidKnob', { knob: 'a<b', message: '"x" & y' })).toBe('Knob a<b: "x" & y');
  });
});

/**
 * CURRICULUM §2: where the English names a concept, the Chinese uses the glossary's term (and
 * not a near-synonym that means something else).
 */
const glossary: Array<{ en: RegExp; zh: string; not?: RegExp }> = [
  { en: /\blineariz/i, zh: '线性一致' },
  { en: /\bparameter servers?\b/i, zh: '参数服务器' },
  { en: /\bstaleness\b/i, zh: '陈旧' },
  { en: /\bdivergence\b/i, zh: '分歧', not: /发散/ },
  { en: /\bleader\b(?! epoch)/i, zh: '领导者' },
  { en: /\bfollower\b/i, zh: '跟随者' },
  { en: /\bcandidate\b/i, zh: '候选者' },
  { en: /\bheartbeat\b/i, zh: '心跳' },
  { en: /\bconsumer lag\b/i, zh: '消费滞后' },
  { en: /\boffset\b/i, zh: '偏移量' },
  { en: /\bcoordinator\b/i, zh: '协调者' },
  { en: /\bparticipant\b/i, zh: '参与者' },
  { en: /\btopic partition\b/i, zh: '主题分区' },
  { en: /\bin doubt\b/i, zh: '不确定' },
];

describe('glossary terms in the Chinese catalog (CURRICULUM §2)', () => {
  it('each English concept comes out as its glossary term', () => {
    const bad: string[] = [];
    for (const ns of namespaces) {
      const en = table('en', ns);
      const zh = table('zh', ns);
      for (const [k, zhText] of Object.entries(zh)) {
        const enText = en[k] ?? en[k.replace(PLURAL, '_other')];
        for (const g of glossary) {
          if (!g.en.test(enText)) continue;
          if (!zhText.includes(g.zh)) bad.push(`${ns}.${k}: "${enText}" → "${zhText}" lacks ${g.zh}`);
          if (g.not?.test(zhText)) bad.push(`${ns}.${k}: "${zhText}" uses ${String(g.not)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('分区 is always 网络分区 or 主题分区 (or 分区容错性): the two meanings never blur', () => {
    const bad: string[] = [];
    for (const ns of namespaces)
      for (const [k, text] of Object.entries(table('zh', ns)))
        for (const m of text.matchAll(/分区/g)) {
          const before = text.slice(Math.max(0, m.index - 2), m.index);
          const after = text.slice(m.index + 2, m.index + 5);
          if (!['网络', '主题'].includes(before) && after !== '容错性') bad.push(`${ns}.${k}: ${text}`);
        }
    expect(bad).toEqual([]);
  });
});
