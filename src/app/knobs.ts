import { z } from 'zod';
import { issueMessage } from '../scenario/issues';
import { strategySchema, type StrategyConfig } from '../scenario/schema';

/**
 * Strategy knobs, read from the zod schema so a new strategy gets its controls for free
 * (DESIGN rule 6). Each option of `strategySchema` is an object whose fields (besides `kind`)
 * are the knobs; a field's type picks the control: number → number input, boolean → checkbox,
 * enum → select, anything else → a JSON text field checked by the same schema.
 */

export type KnobControl =
  | { key: string; type: 'number'; default?: number; min?: number; max?: number; integer: boolean }
  | { key: string; type: 'boolean'; default?: boolean }
  | { key: string; type: 'enum'; default?: string; options: string[] }
  | { key: string; type: 'json'; default?: unknown };

type AnySchema = z.ZodType;

/** Every strategy kind the schema accepts, in schema order. */
export function strategyKindsFromSchema(): string[] {
  return strategySchema.options.map((o) => String(o.shape.kind.value));
}

function optionFor(kind: string): z.ZodObject | undefined {
  return strategySchema.options.find((o) => o.shape.kind.value === kind) as z.ZodObject | undefined;
}

/** Strips default/optional wrappers, remembering the default. */
function unwrap(field: AnySchema): { inner: AnySchema; def?: unknown } {
  let inner: AnySchema = field;
  let def: unknown;
  for (;;) {
    if (inner instanceof z.ZodDefault) {
      if (def === undefined) def = inner.def.defaultValue;
      inner = inner.def.innerType as AnySchema;
    } else if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) {
      inner = inner.def.innerType as AnySchema;
    } else return { inner, def };
  }
}

function finiteOrUndef(v: number | null | undefined): number | undefined {
  return v === null || v === undefined || !Number.isFinite(v) ? undefined : v;
}

/** The controls for one strategy kind (empty for an unknown kind). */
export function knobControls(kind: string): KnobControl[] {
  const option = optionFor(kind);
  if (!option) return [];
  const out: KnobControl[] = [];
  for (const [key, field] of Object.entries(option.shape as Record<string, AnySchema>)) {
    if (key === 'kind') continue;
    const { inner, def } = unwrap(field);
    if (inner instanceof z.ZodNumber) {
      out.push({
        key,
        type: 'number',
        default: typeof def === 'number' ? def : undefined,
        min: finiteOrUndef(inner.minValue),
        max: finiteOrUndef(inner.maxValue),
        integer: inner.isInt === true,
      });
    } else if (inner instanceof z.ZodBoolean) {
      out.push({ key, type: 'boolean', default: typeof def === 'boolean' ? def : undefined });
    } else if (inner instanceof z.ZodEnum) {
      out.push({ key, type: 'enum', default: typeof def === 'string' ? def : undefined, options: inner.options.map(String) });
    } else {
      out.push({ key, type: 'json', default: def });
    }
  }
  return out;
}

/** The strategy with every knob at its default. */
export function defaultStrategy(kind: string): StrategyConfig | null {
  const r = strategySchema.safeParse({ kind });
  return r.success ? r.data : null;
}

export type KnobResult = { ok: true; strategy: StrategyConfig } | { ok: false; knob: string; message: string };

/**
 * Applies a raw form value (the input's text, or a checkbox's boolean) to one knob. On any
 * problem the caller keeps the old strategy and shows `knob: message`.
 */
export function applyKnob(current: StrategyConfig, key: string, raw: string | boolean): KnobResult {
  const control = knobControls(current.kind).find((c) => c.key === key);
  if (!control) return { ok: false, knob: key, message: `no such knob for strategy ${current.kind}` };
  let value: unknown = raw;
  if (control.type === 'number') {
    const text = String(raw).trim();
    const n = text === '' ? NaN : Number(text);
    if (!Number.isFinite(n)) return { ok: false, knob: key, message: 'enter a number' };
    value = n;
  } else if (control.type === 'boolean') {
    value = raw === true || raw === 'true';
  } else if (control.type === 'json') {
    const parsed = parseLenient(String(raw));
    if (parsed === undefined) return { ok: false, knob: key, message: 'enter a number, "inf", a range such as 150–300, or a JSON value' };
    value = parsed;
  }
  // reportInput lets the shared issue wording say what was given ("must be > 0, got -5").
  const r = strategySchema.safeParse({ ...current, [key]: value }, { reportInput: true });
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, knob: key, message: issue ? issueMessage(issue) : 'invalid value' };
  }
  return { ok: true, strategy: r.data };
}

/**
 * The text shown for a knob that is not a plain number/boolean/enum: SSP's `staleness` reads
 * "inf" (not "\"inf\""), Raft's `electionTimeoutMs` reads "150–300" (not "[150,300]").
 */
export function formatKnobText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number')) return `${value[0]}–${value[1]}`;
  return JSON.stringify(value);
}

/** Reads what formatKnobText writes (and plain JSON); undefined when it is none of them. */
export function parseLenient(text: string): unknown {
  const t = text.trim();
  if (t === '') return undefined;
  if (/^(inf|∞|infinity)$/i.test(t)) return 'inf';
  const range = /^\[?\s*(-?\d+(?:\.\d+)?)\s*(?:–|-|,|\.\.)\s*(-?\d+(?:\.\d+)?)\s*\]?$/.exec(t);
  if (range) return [Number(range[1]), Number(range[2])];
  try {
    return JSON.parse(t);
  } catch {
    return /^[a-z][\w.-]*$/i.test(t) ? t : undefined;
  }
}
