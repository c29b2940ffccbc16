import en from './locales/en.json';
import type enFashion from './locales/en.fashion.json';
import type enLesson from './locales/en.lesson.json';
import type enLin from './locales/en.lin.json';
import type enRoom from './locales/en.room.json';
import { loadOnce } from '../../protocols/loadOnce';
import type { Lang } from './lang';
import type { WordTables } from '../words/tables';

/**
 * The interface's message catalogs (locales/<lang>.json) and the small formatter that serves them.
 * A third language is a new JSON file plus one line in `loaders` and in `Lang`: no code reads the
 * texts directly.
 *
 * Why not i18next (used until issue 9): it was ~16 KiB gzip of the first load's main-thread JS for
 * two things the platform gives: `{name}` interpolation and CLDR plurals (Intl.PluralRules).
 *
 * The rules, as the catalogs have always been written:
 * - Placeholders are `{name}` (one brace); `{name, number}` formats the value with the language's
 *   Intl.NumberFormat (1,234). A placeholder whose value is not passed stays as written.
 * - A message that depends on a count has CLDR plural forms (`key_one`, `key_other`, … per
 *   Intl.PluralRules of the language), chosen by the numeric `n` variable; a plural message asked
 *   for without a numeric `n` gives its `_other` form.
 * - A message missing in a language comes from English; a key missing everywhere comes back as is.
 *
 * English is bundled (it is the fallback and the source of the key types), but for the namespaces
 * of the parts that load on demand — a lesson, the live room, the linearizability tab, an image
 * dataset's tiles: each is a file of its own (locales/en.<namespace>.json) that the part's module
 * imports and hands over (`addEnglish`) as it loads, before it asks for any of its texts. Other
 * languages are fetched on demand, whole, with their sentence tables (LangPack). Whatever switches
 * the interface to a language awaits `ensureLang` first (see `loadLang`), so no render shows
 * English or a key on a page in another language.
 */

/** The English catalog's shape: the type source of every key. */
type English = typeof en & { lesson: typeof enLesson; room: typeof enRoom; lin: typeof enLin; fashion: typeof enFashion };
export type Namespace = keyof English;
/** The namespaces a part that loads on demand brings with it (`addEnglish`). */
export type OwnNamespace = Exclude<Namespace, keyof typeof en>;

/** One language's messages: namespace → key → text. */
export type Catalog = Record<Namespace, Record<string, string>>;
/** The English catalog: the first load's namespaces, always here. */
export const english = en;

/** English as it is now: the first load's namespaces, and those of the parts loaded since. */
const englishNow: Partial<Catalog> = { ...en };

/** A part that loads on demand hands over its namespace's English texts as it loads. */
export function addEnglish<N extends OwnNamespace>(ns: N, table: English[N]): void {
  englishNow[ns] = table;
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
/** A catalog key without its plural suffix: `linkLength_one` and `linkLength_other` are `linkLength`. */
type BaseKey<K> = K extends `${infer B}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? B : K;
/** The keys a caller may ask for in a namespace, type-checked against the English catalog. */
export type KeyOf<N extends Namespace> = BaseKey<keyof English[N] & string>;

export type Vars = Record<string, string | number>;

// ---------------------------------------------------------------- loading

/**
 * What a non-English language needs before anything renders in it: its catalog and its sentence
 * tables (the words modules' notes and facts, app/words/tables.ts). Loaded together, so the one
 * `ensureLang` that every language switch awaits covers both.
 */
interface LangPack {
  catalog: Catalog;
  words: WordTables;
}

/** How each non-English language is fetched: its own chunks, out of the first load. */
const loaders: Record<Exclude<Lang, 'en'>, () => Promise<LangPack>> = {
  zh: () =>
    Promise.all([import('./locales/zh.json'), import('../words/zh')]).then(([c, w]) => ({ catalog: c.default as Catalog, words: w.zhWords })),
};

/** Every interface language, English first. */
export const languages: readonly Lang[] = ['en', ...(Object.keys(loaders) as Lang[])];

const fetched = loadOnce((lang: Exclude<Lang, 'en'>) => loaders[lang]());

function tableOf(lang: Lang): Partial<Catalog> | undefined {
  return lang === 'en' ? englishNow : fetched.get(lang)?.catalog;
}

/** A non-English language's sentence tables once `ensureLang` has fetched them (English's are bundled in app/words). */
export function loadedWords(lang: Exclude<Lang, 'en'>): WordTables | undefined {
  return fetched.get(lang)?.words;
}

/** Whether `lang`'s catalog is here, so that `translate(lang, …)` gives its texts. */
export function isLoaded(lang: Lang): boolean {
  return tableOf(lang) !== undefined;
}

/**
 * Fetches `lang`'s catalog once (concurrent callers share the request). Rejects if it cannot be
 * fetched; a later call tries again.
 */
export function ensureLang(lang: Lang): Promise<void> {
  return lang === 'en' ? Promise.resolve() : fetched.load(lang);
}

/**
 * The language to show: `want` once its catalog is loaded, or English (always here) when it
 * cannot be fetched, with the reason on the console and to `onFail`; the page then works in
 * English rather than not at all.
 */
export async function loadLang(want: Lang, onFail?: (cause: string) => void): Promise<Lang> {
  try {
    await ensureLang(want);
    return want;
  } catch (e) {
    console.error(`The ${want} texts could not be loaded; showing English.`, e);
    onFail?.(e instanceof Error ? e.message : String(e));
    return 'en';
  }
}

/** `lang`'s catalog (English: the namespaces loaded so far); throws if it has not been loaded (a caller that forgot `ensureLang`). */
export function catalogOf(lang: Lang): Partial<Catalog> {
  const table = tableOf(lang);
  if (!table) throw new Error(`catalog "${lang}" is not loaded: await ensureLang('${lang}') first`);
  return table;
}

// ---------------------------------------------------------------- formatting

// Intl objects are costly to build and asked for on every frame: one per language.
const pluralRules = new Map<Lang, Intl.PluralRules>();
function pluralOf(lang: Lang, n: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
  return rules.select(n);
}
const numberFormats = new Map<Lang, Intl.NumberFormat>();
function formatNumber(lang: Lang, value: string | number): string {
  let f = numberFormats.get(lang);
  if (!f) numberFormats.set(lang, (f = new Intl.NumberFormat(lang)));
  return f.format(typeof value === 'number' ? value : Number(value));
}

/** `{name}` or `{name, format}`; the only format the catalogs use is `number` (checked by a test). */
const PLACEHOLDER = /\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}/g;
export const FORMATS: readonly string[] = ['number'];

/** Fills `text`'s placeholders from `vars` in one pass (a value's own braces are left alone). */
function fill(lang: Lang, text: string, vars: Vars | undefined): string {
  if (!text.includes('{')) return text;
  return text.replace(PLACEHOLDER, (whole, name: string, format: string | undefined) => {
    const value = vars?.[name];
    if (value === undefined) return whole;
    return format === 'number' ? formatNumber(lang, value) : String(value);
  });
}

/**
 * The text of `key` in `ns`: `lang`'s, else English's. With a numeric `n`, each language's own
 * plural form of `n` is tried before the plain key (as i18next did); without one, a plural
 * message gives its `_other` form (a listing of every label). (i18next also tried `key_zero` for
 * n = 0 in every language; the catalogs have no such key, and catalog.test.ts refuses a form the
 * language's rules do not list.)
 */
function lookup(lang: Lang, ns: Namespace, key: string, vars: Vars | undefined): string {
  const n = vars?.n;
  if (typeof n !== 'number' && `${key}_other` in (englishNow[ns] ?? {})) key = `${key}_other`;
  for (const code of lang === 'en' ? (['en'] as const) : ([lang, 'en'] as const)) {
    const table = tableOf(code)?.[ns];
    if (!table) continue;
    const text = (typeof n === 'number' ? table[`${key}_${pluralOf(code, n)}`] : undefined) ?? table[key];
    // An empty text counts as missing (the catalogs have none: a test checks).
    if (text) return fill(code, text, vars);
  }
  return key;
}

/**
 * Texts already made, by language, namespace, key and values: views ask for the same labels every
 * frame. Bounded: emptied when it grows past CACHE_MAX (values such as times make new entries).
 */
const made = new Map<string, string>();
const CACHE_MAX = 4096;
const warned = new Set<Lang>();

/** Look up `key` in namespace `ns` for `lang` and fill its `{placeholders}`; `n` picks the plural form. */
export function translate<N extends Namespace>(lang: Lang, ns: N, key: KeyOf<N>, vars?: Vars): string {
  if (!isLoaded(lang)) {
    // A language switch that skipped `ensureLang` (a bug): English for now, never kept in the
    // cache, and said once per language.
    if (!warned.has(lang)) console.error(`translate: catalog "${lang}" is not loaded (${ns}.${key}); await ensureLang first`);
    warned.add(lang);
    return lookup('en', ns, key, vars);
  }
  let id = `${lang}\u0000${ns}\u0000${key}`;
  if (vars) for (const k in vars) id += `\u0000${k}\u0001${typeof vars[k]}\u0001${vars[k]}`;
  const hit = made.get(id);
  if (hit !== undefined) return hit;
  const text = lookup(lang, ns, key, vars);
  if (made.size >= CACHE_MAX) made.clear();
  made.set(id, text);
  return text;
}

/** The keys of one namespace in one (loaded) language, plural forms folded into their base key. */
export function catalogKeys(lang: Lang, ns: Namespace): string[] {
  return [...new Set(Object.keys(catalogOf(lang)[ns] ?? {}).map((k) => k.replace(PLURAL_SUFFIX, '')))];
}
