import type { z } from 'zod/mini';

/**
 * Turns zod issues into one readable line each: `path: message`. Users read these lines when a
 * scenario file or a pasted action is rejected, so they name the field as the user wrote it
 * (`timeline[2].groups[0][1]`), say what was expected and what was given, and never show zod's
 * internal wording or a stack trace.
 */

export type PathKey = PropertyKey;

/** `['timeline', 2, 'groups', 0, 1]` → `timeline[2].groups[0][1]`; odd keys are quoted. */
export function formatPath(path: readonly PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'symbol') out += `[${String(key)}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

/** A short rendering of a given value for "got …" clauses. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return String(value);
}

const typeNames: Record<string, string> = {
  number: 'a number',
  int: 'an integer',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
  // a required field of any type (`z.unknown()`), such as a log entry's action
  nonoptional: 'a value',
};

function typeName(t: string): string {
  return typeNames[t] ?? t;
}

/** What the user wrote, as a JSON type word, for wrong-type messages. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string (${describeValue(value)})`;
  if (typeof value === 'number') return Number.isFinite(value) ? `the number ${value}` : 'a number too large to represent (it reads as infinity)';
  if (typeof value === 'boolean') return String(value);
  return typeof value;
}

/** Words for discriminator fields, so an unknown `do` reads "unknown action". */
const discriminatorWords: Record<string, string> = { do: 'action', kind: 'strategy' };

function quoteList(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join(', ');
}

/** Optional hint source: given an unknown field name, suggest a known one. */
export type FieldSuggester = (unknownKey: string) => string | undefined;

type Issue = z.core.$ZodIssue;

/** The message part (after `path: `) for one issue. */
export function issueMessage(issue: Issue, suggest?: FieldSuggester): string {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return `missing (expected ${typeName(issue.expected)})`;
      if (issue.expected === 'int' && typeof input === 'number') return `expected an integer, got ${input}`;
      return `expected ${typeName(issue.expected)}, got ${jsonType(input)}`;
    }
    case 'unrecognized_keys': {
      return issue.keys
        .map((k) => {
          const hint = suggest?.(k);
          return `unknown field "${k}"${hint ? ` (did you mean "${hint}"?)` : ''}`;
        })
        .join('; ');
    }
    case 'invalid_union': {
      const disc = (issue as { discriminator?: string }).discriminator;
      const options = (issue as { options?: unknown[] }).options;
      if (disc !== undefined && options) {
        const word = discriminatorWords[disc] ?? disc;
        const given = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[disc] : undefined;
        const head = given === undefined ? `missing ${word}` : `unknown ${word} ${describeValue(given)}`;
        return `${head}; valid ${word === disc ? 'values' : `${word === 'strategy' ? 'strategies' : `${word}s`}`}: ${options.join(', ')}`;
      }
      // A plain union (e.g. `at`: a number or "end"): list what each branch expected.
      const wanted: string[] = [];
      for (const branch of issue.errors) {
        const first = branch[0];
        if (!first) continue;
        if (first.code === 'invalid_type') wanted.push(typeName(first.expected));
        else if (first.code === 'invalid_value') wanted.push(quoteList(first.values));
        else if (first.code === 'too_small' || first.code === 'too_big') wanted.push(issueMessage(first, suggest));
      }
      if (wanted.length > 0) return `expected ${wanted.join(' or ')}, got ${jsonType(input)}`;
      return `invalid value ${describeValue(input)}`;
    }
    case 'invalid_value': {
      const vals = issue.values;
      if (vals.length === 1) return `expected ${quoteList(vals)}, got ${describeValue(input)}`;
      return `expected one of ${quoteList(vals)}, got ${describeValue(input)}`;
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'array' || issue.origin === 'set') {
        const n = Array.isArray(input) ? input.length : undefined;
        return `needs at least ${min} item${min === '1' ? '' : 's'}${n === undefined ? '' : ` (got ${n})`}`;
      }
      if (issue.origin === 'string') return `must be at least ${min} characters long`;
      return `must be ${issue.inclusive ? '>=' : '>'} ${min}, got ${describeValue(input)}`;
    }
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'array' || issue.origin === 'set') {
        const n = Array.isArray(input) ? input.length : undefined;
        return `allows at most ${max} item${max === '1' ? '' : 's'}${n === undefined ? '' : ` (got ${n})`}`;
      }
      if (issue.origin === 'string') return `must be at most ${max} characters long`;
      return `must be ${issue.inclusive ? '<=' : '<'} ${max}, got ${describeValue(input)}`;
    }
    case 'invalid_format':
      // Our schemas give regexes a human message ("expected a node id such as …").
      return `${issue.message.startsWith('Invalid') ? `invalid ${issue.format}` : issue.message}, got ${describeValue(input)}`;
    case 'invalid_key': {
      // A record's key failed its schema: say what the key should look like.
      const inner = issue.issues[0];
      return inner ? `invalid key: ${issueMessage(inner, suggest)}` : 'invalid key';
    }
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}, got ${describeValue(input)}`;
    default:
      return issue.message;
  }
}

/** One line per issue, `prefix.path: message`; `root` names the whole value when the path is empty. */
export function formatIssues(
  issues: readonly Issue[],
  opts: { prefix?: readonly PathKey[]; root?: string; suggest?: FieldSuggester; misnomers?: Readonly<Record<string, string>> } = {},
): string[] {
  return issues.map((issue) => {
    // A name people believe exists (e.g. Kafka's "max.message.delay.ms") gets its own correction.
    const myth = issue.code === 'unrecognized_keys' ? issue.keys.find((k) => Object.hasOwn(opts.misnomers ?? {}, k)) : undefined;
    if (myth !== undefined) return `${formatPath([...(opts.prefix ?? []), ...issue.path, myth])}: ${opts.misnomers![myth]}`;
    const path = formatPath([...(opts.prefix ?? []), ...issue.path]);
    const where = path === '' ? (opts.root ?? 'value') : path;
    return `${where}: ${issueMessage(issue, opts.suggest)}`;
  });
}

/** Edit distance, small strings only (field names). */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** Suggests the closest known name (case-insensitive match first, then edit distance ≤ 2). */
export function makeSuggester(known: Iterable<string>): FieldSuggester {
  const names = [...new Set(known)];
  return (key) => {
    const lower = key.toLowerCase();
    // A name valid elsewhere in the file (e.g. a step's "when") is no hint for this place.
    const exact = names.find((n) => n.toLowerCase() === lower && n !== key);
    if (exact) return exact;
    // Short names are too close to everything: only suggest when the typo is small for its length.
    if (key.length < 3) return undefined;
    let best: string | undefined;
    let bestD = key.length < 6 ? 2 : 3;
    for (const n of names) {
      if (n === key) continue;
      const d = distance(lower, n.toLowerCase());
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    return best;
  };
}

interface DefLike {
  type?: string;
  shape?: Record<string, unknown>;
  element?: unknown;
  options?: unknown[];
  left?: unknown;
  right?: unknown;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
}

/** Every object field name reachable in a schema, for "did you mean" hints. */
export function fieldNamesOf(schema: unknown, out = new Set<string>()): Set<string> {
  // zod 4 keeps the definition on `_zod.def`; walk it structurally so this stays version-tolerant.
  const def = (schema as { _zod?: { def?: DefLike } } | undefined)?._zod?.def;
  if (!def) return out;
  if (def.shape) for (const [k, v] of Object.entries(def.shape)) {
    out.add(k);
    fieldNamesOf(v, out);
  }
  for (const child of [def.element, def.left, def.right, def.innerType, def.in, def.out]) if (child) fieldNamesOf(child, out);
  for (const opt of def.options ?? []) fieldNamesOf(opt, out);
  return out;
}
