import type { Expectation, Scenario } from './schema';

/**
 * Scenario variants (CURRICULUM §C.1): named JSON merge patches of the base scenario (RFC 7386).
 * Pure functions only; validate.ts validates the patched scenarios and names the fields.
 */

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * RFC 7386 JSON Merge Patch: a patch object merges into the target key by key (`null` deletes the
 * key, an object merges recursively, anything else — arrays included — replaces); a patch that is
 * not an object replaces the target whole. Neither input is modified. Keys are defined as own data
 * properties, so a key such as "__proto__" in a file stays a (rejected) field, never a prototype.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = {};
  if (isPlainObject(target)) for (const [k, v] of Object.entries(target)) define(out, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else define(out, k, mergePatch(Object.hasOwn(out, k) ? out[k] : undefined, v));
  }
  return out;
}

function define(o: Record<string, unknown>, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}


/** The name the base goes by among the variants: its `base.id`, else "base" ("base" always works too). */
export function baseIdOf(s: Pick<Scenario, 'base'>): string {
  return s.base?.id ?? 'base';
}

/** Whether `id` names the base run of scenario `s`. */
export function isBaseId(s: Pick<Scenario, 'base'>, id: string): boolean {
  return id === 'base' || id === s.base?.id;
}

/**
 * The base scenario with a variant's patch applied, as unvalidated input: variants and
 * expectations are left out (the caller adds the variant's own). A patch that switches
 * `strategy.kind` replaces the strategy whole, so the old strategy's knobs do not linger as
 * unknown knobs of the new one.
 */
export function patchedInput(base: Scenario, patch: Record<string, unknown>): Record<string, unknown> {
  const { variants: _variants, expect: _expect, ...rest } = base;
  const merged = mergePatch(rest, patch) as Record<string, unknown>;
  const ps = patch.strategy;
  if (isPlainObject(ps) && typeof ps.kind === 'string' && ps.kind !== base.strategy.kind) define(merged, 'strategy', mergePatch({}, ps));
  return merged;
}

/**
 * Whether an expectation holds for the run `variant` (null: the base). `baseId` is the base's own
 * name (scenario `base.id`), which names the base like "base" does.
 */
export function expectationApplies(e: Pick<Expectation, 'variant'>, variant: string | null, baseId = 'base'): boolean {
  if (e.variant === undefined || e.variant === 'base' || e.variant === baseId) return variant === null;
  return e.variant === '*' || e.variant === variant;
}

/** The expectations of one run (null: the base), without their `variant` field. */
export function expectationsFor(expect: readonly Expectation[], variant: string | null, baseId = 'base'): Expectation[] {
  return expect.filter((e) => expectationApplies(e, variant, baseId)).map(({ variant: _v, ...e }) => e);
}
