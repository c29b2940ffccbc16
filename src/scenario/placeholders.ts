import { placeholderPattern } from './lesson';

/**
 * Live values in narration (CURRICULUM §C.7): `{{variant:metric[node]@t}}`, variant and node
 * optional, t = a simulated time in ms, `now` (the cursor) or `end`. Pure: parsing here, the value
 * comes from a reader the caller passes (engine/index/metricAt.ts over a run's samples), and number
 * formatting is left to the caller, who knows the interface language.
 */

export interface Placeholder {
  /** The placeholder as written, braces included. */
  raw: string;
  /** Offset of `raw` in the text. */
  index: number;
  /** The variant named, or undefined for the one in focus. */
  variant?: string;
  metric: string;
  node?: string;
  t: number | 'now' | 'end';
}

export function parsePlaceholders(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  for (const m of text.matchAll(new RegExp(placeholderPattern.source, 'g'))) {
    const [raw, variant, metric, node, t] = m;
    out.push({
      raw,
      index: m.index,
      ...(variant !== undefined ? { variant } : {}),
      metric,
      ...(node !== undefined ? { node } : {}),
      t: t === 'now' || t === 'end' ? t : Number(t),
    });
  }
  return out;
}

/**
 * `{{` … `}}` spans that are not valid placeholders (a typo such as `{{asp:meanGradStaleness@noww}}`
 * would otherwise print as text): validation names them.
 */
export function malformedPlaceholders(text: string): string[] {
  const good = new Set(parsePlaceholders(text).map((p) => p.index));
  const out: string[] = [];
  for (const m of text.matchAll(/\{\{[^}]*\}\}/g)) if (!good.has(m.index)) out.push(m[0]);
  return out;
}

/** What a placeholder reads, once its variant and time are resolved. */
export interface PlaceholderRead {
  variant: string;
  metric: string;
  node?: string;
  t: number;
}

export interface PlaceholderContext {
  /** The variant in focus (placeholders without one read it). */
  focus: string;
  /** The cursor's simulated time (`now`). */
  now: number;
  /** `end` of a variant's run (its durationMs). */
  endOf(variant: string): number;
  /** The metric's value at t in that variant's run, or null when it is undefined there (not yet run, or not defined). */
  read(r: PlaceholderRead): number | null;
}

/**
 * The number a placeholder stands for, or null ("—" on screen) when the run has no value there.
 * Whether a time the run has not reached yet reads null is the reader's choice (the CLI's tests
 * read finished runs; a guided lesson may show only what the play-head has passed).
 */
export function resolvePlaceholder(p: Placeholder, ctx: PlaceholderContext): number | null {
  const variant = p.variant ?? ctx.focus;
  const t = p.t === 'now' ? ctx.now : p.t === 'end' ? ctx.endOf(variant) : p.t;
  return ctx.read({ variant, metric: p.metric, ...(p.node !== undefined ? { node: p.node } : {}), t });
}

/** The text with every placeholder replaced by `format(value)`, or "—" where it has no value. */
export function fillPlaceholders(text: string, value: (p: Placeholder) => number | null, format: (n: number) => string): string {
  let out = '';
  let from = 0;
  for (const p of parsePlaceholders(text)) {
    const v = value(p);
    out += text.slice(from, p.index) + (v === null || !Number.isFinite(v) ? '—' : format(v));
    from = p.index + p.raw.length;
  }
  return out + text.slice(from);
}
