import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogKeys, catalogOf, FORMATS, languages, translate, type Namespace } from './catalog';
import type { Lang } from './lang';

/**
 * The message catalogs (locales/*.json): both languages carry the same messages with the same
 * placeholders, every plural form the language needs (CLDR, via Intl.PluralRules), no empty text,
 * and the Chinese uses the CURRICULUM §2 glossary terms wherever the English names the concept.
 * Every catalog is loaded here (testSetup.ts); the lazy load itself is checked on a fresh module.
 */

const langs = languages;
// English whole (testSetup.ts hands over the namespaces the parts loaded on demand bring).
const namespaces = Object.keys(catalogOf('en')) as Namespace[];
const PLURAL = /_(zero|one|two|few|many|other)$/;

function table(lang: Lang, ns: Namespace): Record<string, string> {
  return catalogOf(lang)[ns] ?? {};
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
    for (const lang of langs) expect(Object.keys(catalogOf(lang)).sort()).toEqual([...namespaces].sort());
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

  it('each language picks its own plural form by n; Chinese has one form for every count', () => {
    expect(translate('en', 'run', 'linkLength', { n: 0 })).toBe('0 characters');
    expect(translate('en', 'run', 'linkLength', { n: 2 })).toBe('2 characters');
    expect(translate('en', 'ui', 'prunedEntries', { n: 1 })).toBe('Removed 1 entry (of the timeline, the expectations or a node setting) that named a node no longer in the cluster.');
    expect(translate('en', 'ui', 'prunedEntries', { n: 3 })).toBe('Removed 3 entries (of the timeline, the expectations or node settings) that named nodes no longer in the cluster.');
    for (const n of [0, 1, 2, 5]) expect(translate('zh', 'run', 'linkLength', { n })).toBe(`${n} 个字符`);
    expect(translate('zh', 'lin', 'checkedAt', { t: '2.0', n: 12345 })).toBe('截至 t = 2.0 秒的历史，12,345 个操作');
  });

  it('a plural message asked for without a numeric n gives its general (_other) form', () => {
    expect(translate('en', 'run', 'linkLength')).toBe('{n, number} characters');
    expect(translate('en', 'run', 'linkLength', { n: '7' })).toBe('7 characters');
    expect(translate('zh', 'ui', 'prunedEntries')).toBe(table('zh', 'ui').prunedEntries_other);
  });

  it('placeholders: a plain one is not formatted, a missing value leaves it as written, a value is never read as a template', () => {
    expect(translate('en', 'lesson', 'lessonLabel', { n: 1234 })).toBe('Lesson 1234');
    expect(translate('zh', 'lesson', 'actOf', { n: 2, m: 5 })).toBe('第 2 幕，共 5 幕');
    expect(translate('en', 'ui', 'workerFailed', { node: 'w1' })).toBe('Node w1 failed: {cause}. The other nodes keep running.');
    expect(translate('en', 'ui', 'workerFailed', { node: '{cause}', cause: 'x' })).toBe('Node {cause} failed: x. The other nodes keep running.');
    expect(translate('en', 'ui', 'workerFailed', { node: 0, cause: '' })).toBe('Node 0 failed: . The other nodes keep running.');
  });

  it('every formatted placeholder uses a format the formatter knows', () => {
    const bad: string[] = [];
    for (const lang of langs)
      for (const ns of namespaces)
        for (const [k, v] of Object.entries(table(lang, ns)))
          for (const m of v.matchAll(/\{\s*\w+\s*,\s*([^}]*)\}/g)) if (!FORMATS.includes(m[1].trim())) bad.push(`${lang}: ${ns}.${k} uses format "${m[1]}"`);
    expect(bad).toEqual([]);
  });
});

describe('loading a catalog on demand', () => {
  afterEach(() => {
    vi.doUnmock('./locales/zh.json');
    vi.doUnmock('../words/zh');
    vi.restoreAllMocks();
    vi.resetModules();
  });

  /** A fresh copy of the catalog module: only English loaded, as on a page's first load. */
  async function fresh(): Promise<typeof import('./catalog')> {
    vi.resetModules();
    return import('./catalog');
  }

  it('only English is there at first; a language becomes usable once ensureLang resolves', async () => {
    const c = await fresh();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(c.isLoaded('en')).toBe(true);
    expect(c.isLoaded('zh')).toBe(false);
    expect(c.loadedWords('zh')).toBeUndefined();
    expect(() => c.catalogKeys('zh', 'ui')).toThrow(/"zh" is not loaded/);
    // A switch that skipped ensureLang (a bug) shows English, says so once, and keeps nothing.
    expect(c.translate('zh', 'run', 'linkLength', { n: 3 })).toBe('3 characters');
    expect(c.translate('zh', 'run', 'linkLength', { n: 3 })).toBe('3 characters');
    expect(error).toHaveBeenCalledTimes(1);
    const [a, b] = [c.ensureLang('zh'), c.ensureLang('zh')];
    expect(a).toBe(b); // one request for concurrent callers
    await a;
    expect(c.isLoaded('zh')).toBe(true);
    expect(c.translate('zh', 'run', 'linkLength', { n: 3 })).toBe('3 个字符');
    expect(c.loadedWords('zh')?.notes.commit).toBeTypeOf('function'); // the sentence tables came with it
    expect(await c.loadLang('zh')).toBe('zh');
  });

  it('a message missing in a language comes from English; a key missing everywhere comes back as is', async () => {
    vi.doMock('./locales/zh.json', () => ({ default: { ui: { share: '分享' }, run: { linkLength_other: '' } } }));
    const c = await fresh();
    await c.ensureLang('zh');
    expect(c.translate('zh', 'ui', 'share')).toBe('分享');
    expect(c.translate('zh', 'ui', 'now')).toBe(c.translate('en', 'ui', 'now'));
    expect(c.translate('zh', 'run', 'linkLength', { n: 1234 })).toBe('1,234 characters'); // empty counts as missing
    expect(c.translate('zh', 'views', 'noSuchKey' as never)).toBe('noSuchKey');
  });

  it('a catalog that cannot be fetched leaves the page in English, and a later try fetches it', async () => {
    vi.doMock('./locales/zh.json', () => {
      throw new Error('offline');
    });
    const c = await fresh();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(c.ensureLang('zh')).rejects.toThrow(); // vitest wraps the factory's error
    expect(await c.loadLang('zh')).toBe('en');
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/zh texts could not be loaded/), expect.anything());
    expect(c.isLoaded('zh')).toBe(false);
    vi.doUnmock('./locales/zh.json');
    expect(await c.loadLang('zh')).toBe('zh');
    expect(c.translate('zh', 'ui', 'share')).toBe(table('zh', 'ui').share);
  });

  it("a language's sentence tables that cannot be fetched leave the page in English too (both arrive or neither)", async () => {
    vi.doMock('../words/zh', () => {
      throw new Error('offline');
    });
    const c = await fresh();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await c.loadLang('zh')).toBe('en');
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/zh texts could not be loaded/), expect.anything());
    expect(c.isLoaded('zh')).toBe(false);
    expect(c.loadedWords('zh')).toBeUndefined();
    vi.doUnmock('../words/zh');
    expect(await c.loadLang('zh')).toBe('zh');
    expect(c.loadedWords('zh')).toBeDefined();
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
