import { placeholderPattern } from '../../scenario/lesson';
import type { Lang } from '../i18n/lang';

/**
 * Live values in narration (CURRICULUM §C.7): `{{variant:metric[node]@t}}`, t = ms, `now` or
 * `end`, the variant defaulting to the one in focus. Each is looked up in that variant's run and
 * written in the page language's number format (Intl), or "—" while it is not defined yet (a
 * time the run has not reached, a metric without a value). Pure: the caller supplies the lookup.
 */

export interface PlaceholderRef {
  variant: string;
  metric: string;
  node?: string;
  /** Simulated ms, or the current play-head ('now'), or the end of the run ('end'). */
  at: number | 'now' | 'end';
}

export type Lookup = (ref: PlaceholderRef) => number | null;

export const UNDEFINED_VALUE = '—';

const formats = new Map<string, Intl.NumberFormat>();

/** A metric value as people read it: whole numbers whole, others to three significant digits. */
export function formatValue(v: number | null, lang: Lang): string {
  if (v === null || !Number.isFinite(v)) return UNDEFINED_VALUE;
  const locale = lang === 'zh' ? 'zh-CN' : 'en-US';
  const whole = Number.isInteger(v);
  const key = `${locale}|${whole}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, whole ? { maximumFractionDigits: 0 } : { maximumSignificantDigits: 3 });
    formats.set(key, f);
  }
  return f.format(v);
}

/** The placeholders of a text, in order. */
export function placeholdersOf(text: string, focus: string): PlaceholderRef[] {
  const out: PlaceholderRef[] = [];
  for (const m of text.matchAll(new RegExp(placeholderPattern.source, 'g'))) out.push(refOf(m, focus));
  return out;
}

function refOf(m: RegExpMatchArray, focus: string): PlaceholderRef {
  const [, variant, metric, node, at] = m;
  return { variant: variant ?? focus, metric, ...(node ? { node } : {}), at: at === 'now' || at === 'end' ? at : Number(at) };
}

export interface TextPart {
  text: string;
  /** Set on a live value: what it reads (for a title and a test hook). */
  ref?: PlaceholderRef;
}

/** The text cut into literal parts and formatted live values. */
export function fillPlaceholders(text: string, focus: string, lang: Lang, lookup: Lookup): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(new RegExp(placeholderPattern.source, 'g'))) {
    const i = m.index ?? 0;
    if (i > last) parts.push({ text: text.slice(last, i) });
    const ref = refOf(m, focus);
    parts.push({ text: formatValue(lookup(ref), lang), ref });
    last = i + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** The same, as one string. */
export function fillText(text: string, focus: string, lang: Lang, lookup: Lookup): string {
  return fillPlaceholders(text, focus, lang, lookup)
    .map((p) => p.text)
    .join('');
}
