import i18next, { type TFunction } from 'i18next';
import en from './locales/en.json';
import zh from './locales/zh.json';
import type { Lang } from './lang';

/**
 * The interface's message catalogs (locales/<lang>.json), served by i18next. A third language is
 * a new JSON file plus one line in `resources` and in `Lang`: no code reads the texts directly.
 *
 * Placeholders are `{name}` (one brace, as the catalogs have always been written); a message
 * that depends on a count has CLDR plural forms (`key_one`, `key_other`, … per
 * Intl.PluralRules of the language) chosen by the `n` variable. Resources are bundled and
 * init is synchronous, so no render ever shows a key.
 */
export const resources = { en, zh } as const;

export type Namespace = keyof typeof en;

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
/** A catalog key without its plural suffix: `linkLength_one` and `linkLength_other` are `linkLength`. */
type BaseKey<K> = K extends `${infer B}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? B : K;
/** The keys a caller may ask for in a namespace, type-checked against the English catalog. */
export type KeyOf<N extends Namespace> = BaseKey<keyof (typeof en)[N] & string>;

export type Vars = Record<string, string | number>;

const instance = i18next.createInstance();
void instance.init({
  resources,
  lng: 'en',
  fallbackLng: 'en',
  ns: Object.keys(en),
  defaultNS: 'ui',
  initAsync: false,
  keySeparator: false,
  nsSeparator: false,
  returnEmptyString: false,
  // Texts go to React (which escapes) or to SVG text nodes: no HTML escaping here.
  interpolation: { prefix: '{', suffix: '}', escapeValue: false },
});

const fixed = new Map<string, TFunction>();
function tFor(lang: Lang, ns: Namespace): TFunction {
  const id = `${lang}/${ns}`;
  let t = fixed.get(id);
  if (!t) {
    t = instance.getFixedT(lang, ns);
    fixed.set(id, t);
  }
  return t;
}

/**
 * Texts already made, by language, namespace, key and values: views ask for the same labels every
 * frame, and i18next's lookup and interpolation cost the main thread ~3 % of a running Raft page.
 * Bounded: emptied when it grows past CACHE_MAX (values such as times make new entries).
 */
const made = new Map<string, string>();
const CACHE_MAX = 4096;

/** Look up `key` in namespace `ns` for `lang` and fill its `{placeholders}`; `n` picks the plural form. */
export function translate<N extends Namespace>(lang: Lang, ns: N, key: KeyOf<N>, vars?: Vars): string {
  let id = `${lang}\u0000${ns}\u0000${key}`;
  if (vars) for (const k in vars) id += `\u0000${k}\u0001${typeof vars[k]}\u0001${vars[k]}`;
  const hit = made.get(id);
  if (hit !== undefined) return hit;
  const text = lookup(lang, ns, key, vars);
  if (made.size >= CACHE_MAX) made.clear();
  made.set(id, text);
  return text;
}

function lookup<N extends Namespace>(lang: Lang, ns: N, key: KeyOf<N>, vars?: Vars): string {
  const t = tFor(lang, ns);
  if (typeof vars?.n === 'number') return t(key, { ...vars, count: vars.n });
  // A plural message asked for without its count (a listing of every label): its general form.
  const general = `${key}_other`;
  return t(general in resources.en[ns] ? general : key, vars);
}

/** The keys of one namespace in one language, plural forms folded into their base key. */
export function catalogKeys(lang: Lang, ns: Namespace): string[] {
  const table = resources[lang][ns] as Record<string, string>;
  return [...new Set(Object.keys(table).map((k) => k.replace(PLURAL_SUFFIX, '')))];
}
