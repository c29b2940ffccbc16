import { z } from 'zod/mini';
import { issueFact } from '../scenario/issues';
import { givenOf, type ProblemFact } from '../scenario/problems';
import { strategySchema, type StrategyConfig } from '../scenario/schema';
import { parseLenient } from './knobText';

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

type AnySchema = z.core.$ZodType;

/** Every strategy kind the schema accepts, in schema order. */
export function strategyKindsFromSchema(): string[] {
  return strategySchema.def.options.map((o) => String(o.shape.kind.def.values[0]));
}

function optionFor(kind: string) {
  return strategySchema.def.options.find((o) => o.shape.kind.def.values[0] === kind);
}

/**
 * Strips default/optional wrappers, remembering the default. The schema's definition is read by
 * its `type` (zod's documented `_zod.def`), so zod/mini's classes need not be imported to test them.
 */
function unwrap(field: AnySchema): { inner: AnySchema; def?: unknown } {
  let inner = field;
  let def: unknown;
  for (;;) {
    const d = inner._zod.def;
    if (d.type === 'default') {
      if (def === undefined) def = (d as z.core.$ZodDefaultDef).defaultValue;
      inner = (d as z.core.$ZodDefaultDef).innerType;
    } else if (d.type === 'optional' || d.type === 'nullable') {
      inner = (d as z.core.$ZodOptionalDef | z.core.$ZodNullableDef).innerType;
    } else return { inner, def };
  }
}

/**
 * The bounds a number schema's checks set: `minimum`/`positive` (greater_than), `maximum`
 * (less_than), and an integer format (`z.int()`), which is itself the schema's first check and
 * bounds it to the safe integers.
 */
function numberBounds(schema: AnySchema): { min: number; max: number; integer: boolean } {
  let min = -Infinity;
  let max = Infinity;
  let integer = false;
  const own = schema._zod.def as z.core.$ZodTypeDef & Partial<z.core.$ZodCheckDef>;
  const checks = [...(own.check ? [schema as unknown as z.core.$ZodCheck] : []), ...(own.checks ?? [])];
  for (const ch of checks) {
    const d = ch._zod.def as z.core.$ZodChecks['_zod']['def'];
    if (d.check === 'greater_than') min = Math.max(min, Number(d.value));
    else if (d.check === 'less_than') max = Math.min(max, Number(d.value));
    else if (d.check === 'number_format') {
      integer ||= d.format.includes('int');
      const [lo, hi] = z.util.NUMBER_FORMAT_RANGES[d.format];
      min = Math.max(min, lo);
      max = Math.min(max, hi);
    }
  }
  return { min, max, integer };
}

function finiteOrUndef(v: number | undefined): number | undefined {
  return v === undefined || !Number.isFinite(v) ? undefined : v;
}

/** The controls for one strategy kind (empty for an unknown kind). */
export function knobControls(kind: string): KnobControl[] {
  const option = optionFor(kind);
  if (!option) return [];
  const out: KnobControl[] = [];
  for (const [key, field] of Object.entries(option.shape as Record<string, AnySchema>)) {
    if (key === 'kind') continue;
    const { inner, def } = unwrap(field);
    const type = inner._zod.def.type;
    if (type === 'number') {
      const { min, max, integer } = numberBounds(inner);
      out.push({ key, type: 'number', default: typeof def === 'number' ? def : undefined, min: finiteOrUndef(min), max: finiteOrUndef(max), integer });
    } else if (type === 'boolean') {
      out.push({ key, type: 'boolean', default: typeof def === 'boolean' ? def : undefined });
    } else if (type === 'enum') {
      out.push({ key, type: 'enum', default: typeof def === 'string' ? def : undefined, options: Object.values((inner as z.core.$ZodEnum)._zod.def.entries).map(String) });
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

/**
 * Why a knob's value was refused, as facts the form words in the reader's language
 * (knobProblemText.ts). `other` carries the scenario checker's fact for the rare issue the form
 * has no words of its own for (worded as a scenario file's problem is).
 */
export type KnobProblem =
  | { problem: 'unknown-knob'; kind: string }
  | { problem: 'not-number' }
  | { problem: 'not-json' }
  | { problem: 'not-integer'; got: number }
  | { problem: 'too-small'; min: number; inclusive: boolean; got: unknown }
  | { problem: 'too-big'; max: number; inclusive: boolean; got: unknown }
  | { problem: 'not-one-of'; values: readonly unknown[]; got: unknown }
  /** None of a union's branches took it: each wanted a JSON type (`types`, zod's names) or a value. */
  | { problem: 'not-any-of'; types: readonly string[]; values: readonly unknown[]; got: unknown }
  | { problem: 'other'; fact: ProblemFact };

export type KnobResult = { ok: true; strategy: StrategyConfig } | { ok: false; knob: string; problem: KnobProblem };

/**
 * Applies a raw form value (the input's text, or a checkbox's boolean) to one knob. On any
 * problem the caller keeps the old strategy and shows the knob and the problem.
 */
export function applyKnob(current: StrategyConfig, key: string, raw: string | boolean): KnobResult {
  const control = knobControls(current.kind).find((c) => c.key === key);
  if (!control) return { ok: false, knob: key, problem: { problem: 'unknown-knob', kind: current.kind } };
  let value: unknown = raw;
  if (control.type === 'number') {
    const text = String(raw).trim();
    const n = text === '' ? NaN : Number(text);
    if (!Number.isFinite(n)) return { ok: false, knob: key, problem: { problem: 'not-number' } };
    value = n;
  } else if (control.type === 'boolean') {
    value = raw === true || raw === 'true';
  } else if (control.type === 'json') {
    const parsed = parseLenient(String(raw));
    if (parsed === undefined) return { ok: false, knob: key, problem: { problem: 'not-json' } };
    value = parsed;
  }
  // reportInput: the issue carries what was given, so the sentence can say it ("got -5").
  const r = strategySchema.safeParse({ ...current, [key]: value }, { reportInput: true });
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, knob: key, problem: issue ? knobProblem(issue) : { problem: 'other', fact: { kind: 'invalidValue', got: givenOf(value) } } };
  }
  return { ok: true, strategy: r.data };
}

/**
 * A schema issue as a knob problem: the bounds and choices a number or enum knob has, read from
 * the scenario checker's own fact (issues.ts), which is kept whole for anything else.
 */
function knobProblem(issue: z.core.$ZodIssue): KnobProblem {
  const got = (issue as { input?: unknown }).input;
  const fact = issueFact(issue);
  switch (fact.kind) {
    case 'notInteger':
      return { problem: 'not-integer', got: fact.got };
    case 'tooSmall':
      return { problem: 'too-small', min: Number(fact.min), inclusive: fact.inclusive, got };
    case 'tooBig':
      return { problem: 'too-big', max: Number(fact.max), inclusive: fact.inclusive, got };
    case 'notOneOf':
      return { problem: 'not-one-of', values: fact.values, got };
    case 'noBranch': {
      // staleness: a number or "inf"; electionTimeoutMs: a number or a [min, max] range.
      const types: string[] = [];
      const values: unknown[] = [];
      for (const w of fact.wanted) {
        if (w.t === 'type') types.push(w.expected);
        else if (w.t === 'values') values.push(...w.values);
        else return { problem: 'other', fact };
      }
      return { problem: 'not-any-of', types, values, got };
    }
    default:
      return { problem: 'other', fact };
  }
}

