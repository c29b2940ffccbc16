import type { z } from 'zod/mini';
import type { FieldSuggester } from './suggest';
import { formatIdOf, givenOf, misnomers, problemLine, type PathKey, type Misnomer, type ProblemFact, type RuleFact, type ScenarioProblem, type Wanted } from './problems';

export { formatPath, type PathKey } from './problems';

/**
 * Turns zod issues into one readable line each: `path: message`. Users read these lines when a
 * scenario file or a pasted action is rejected, so they name the field as the user wrote it
 * (`timeline[2].groups[0][1]`), say what was expected and what was given, and never show zod's
 * internal wording or a stack trace.
 */

/** Optional hint source: given an unknown field name, suggest a known one. */

type Issue = z.core.$ZodIssue;

/** The fact one zod issue reports (the part after `path: `). */
export function issueFact(issue: Issue, suggest?: FieldSuggester): ProblemFact {
  const input = (issue as { input?: unknown }).input;
  const got = givenOf(input);
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return { kind: 'missing', expected: issue.expected };
      if (issue.expected === 'int' && typeof input === 'number') return { kind: 'notInteger', got: input };
      return { kind: 'wrongType', expected: issue.expected, got };
    }
    case 'unrecognized_keys':
      return { kind: 'unknownFields', fields: issue.keys.map((key) => ({ key, ...(suggest?.(key) ? { hint: suggest(key) } : {}) })) };
    case 'invalid_union': {
      const disc = (issue as { discriminator?: string }).discriminator;
      const options = (issue as { options?: unknown[] }).options;
      if (disc !== undefined && options) {
        const given = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[disc] : undefined;
        return { kind: 'unknownOption', field: disc, given: given === undefined ? null : givenOf(given), options: options.map(String) };
      }
      // A plain union (e.g. `at`: a number or "end"): list what each branch expected.
      const wanted: Wanted[] = [];
      for (const branch of issue.errors) {
        const first = branch[0];
        if (!first) continue;
        if (first.code === 'invalid_type') wanted.push({ t: 'type', expected: first.expected });
        else if (first.code === 'invalid_value') wanted.push({ t: 'values', values: first.values });
        else if (first.code === 'too_small' || first.code === 'too_big') wanted.push({ t: 'bound', fact: issueFact(first, suggest) as Extract<Wanted, { t: 'bound' }>['fact'] });
      }
      // Two branches may want the same (a number ≥ 0 here, a whole number there): say it once.
      const once = wanted.filter((w, i) => wanted.findIndex((x) => JSON.stringify(x) === JSON.stringify(w)) === i);
      if (once.length > 0) return { kind: 'noBranch', wanted: once, got };
      return { kind: 'invalidValue', got };
    }
    case 'invalid_value':
      return { kind: 'notOneOf', values: issue.values, got };
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'array' || issue.origin === 'set') return { kind: 'tooFewItems', min, ...(Array.isArray(input) ? { got: input.length } : {}) };
      if (issue.origin === 'string') return { kind: 'tooShort', min };
      return { kind: 'tooSmall', min, inclusive: issue.inclusive === true, got };
    }
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'array' || issue.origin === 'set') return { kind: 'tooManyItems', max, ...(Array.isArray(input) ? { got: input.length } : {}) };
      if (issue.origin === 'string') return { kind: 'tooLong', max };
      return { kind: 'tooBig', max, inclusive: issue.inclusive === true, got };
    }
    case 'invalid_format':
      // Our schemas give patterns a message of their own (problems.ts formatMessages).
      return { kind: 'badFormat', format: formatIdOf(issue.message), zodFormat: issue.format, message: issue.message, got };
    case 'invalid_key': {
      // A record's key failed its schema: say what the key should look like.
      const inner = issue.issues[0];
      return { kind: 'invalidKey', inner: inner ? issueFact(inner, suggest) : null };
    }
    case 'not_multiple_of':
      return { kind: 'notMultipleOf', divisor: String(issue.divisor), got };
    case 'custom': {
      // Our refines carry their fact (problems.ts ruleIssue).
      const fact = (issue.params as { fact?: RuleFact } | undefined)?.fact;
      // A range says what was given (the form has already put its field back).
      if (fact?.kind === 'rangeOrder' && Array.isArray(input) && input.length === 2 && input.every((x) => typeof x === 'number')) return { ...fact, got: [input[0], input[1]] };
      return fact ?? { kind: 'other', text: issue.message };
    }
    default:
      return { kind: 'other', text: issue.message };
  }
}

export interface IssueOptions {
  prefix?: readonly PathKey[];
  /** Names the whole value when the path is empty. */
  root?: string;
  suggest?: FieldSuggester;
  /** Name the fields people believe exist (problems.ts `misnomers`, e.g. Kafka's "max.message.delay.ms") for what they are. */
  misnomers?: boolean;
}

/**
 * For a union of object shapes (a lesson step's `when`) given an object: the one branch that fits
 * it best — fewest fields it does not know, then fewest problems — so the reader hears what that
 * shape still needs ("delayMs: missing") rather than every shape's first wish at once. Null when
 * two branches fit equally well.
 */
function closestBranch(issue: Issue): readonly Issue[] | null {
  if (issue.code !== 'invalid_union' || (issue as { discriminator?: string }).discriminator !== undefined) return null;
  const input = (issue as { input?: unknown }).input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return null;
  let best: readonly Issue[] | null = null;
  let bestScore: [number, number] = [Infinity, Infinity];
  let tie = false;
  for (const branch of issue.errors) {
    // A branch that wanted something other than an object says nothing about this one.
    if (branch.length === 0 || branch.some((i) => i.path.length === 0 && i.code === 'invalid_type')) continue;
    const unknown = branch.reduce((n, i) => n + (i.code === 'unrecognized_keys' ? i.keys.length : 0), 0);
    const score: [number, number] = [unknown, branch.length];
    if (score[0] < bestScore[0] || (score[0] === bestScore[0] && score[1] < bestScore[1])) {
      best = branch;
      bestScore = score;
      tie = false;
    } else if (score[0] === bestScore[0] && score[1] === bestScore[1]) tie = true;
  }
  return tie ? null : best;
}

/** One problem per issue (an object that fits no shape of a union: the closest shape's problems). */
export function issueProblems(issues: readonly Issue[], opts: IssueOptions = {}): ScenarioProblem[] {
  const prefix = opts.prefix ?? [];
  const root = opts.root ?? 'value';
  return issues.flatMap((issue): ScenarioProblem[] => {
    const myth = issue.code === 'unrecognized_keys' ? issue.keys.find((k): k is Misnomer => opts.misnomers === true && Object.hasOwn(misnomers, k)) : undefined;
    if (myth !== undefined) return [{ path: [...prefix, ...issue.path, myth], root, fact: { kind: 'misnomer', key: myth } }];
    const branch = closestBranch(issue);
    if (branch) return issueProblems(branch, { ...opts, prefix: [...prefix, ...issue.path] });
    return [{ path: [...prefix, ...issue.path], root, fact: issueFact(issue, opts.suggest) }];
  });
}

/** One line per issue, `prefix.path: message`; `root` names the whole value when the path is empty. */
export function formatIssues(issues: readonly Issue[], opts: IssueOptions = {}): string[] {
  return issueProblems(issues, opts).map(problemLine);
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
