import { describeNodeIds } from './nodes';
import { jsonProblemLine, type JsonProblem } from './json';

/**
 * A scenario file's problems as typed facts (the style rule: facts, not prose, cross a module
 * boundary). The checker builds these; `problemLine` words one in English — the line the CLI, the
 * tests and a room's log read — and the app words the same fact in the reader's language
 * (app/scenarioProblemText.ts). Field paths stay as the file spells them in every language.
 */

export type PathKey = PropertyKey;

/** A value the file gave, kept as a fact so each language can quote it. */
export type Given =
  | { t: 'nothing' }
  | { t: 'null' }
  | { t: 'array' }
  | { t: 'object' }
  | { t: 'string'; v: string }
  | { t: 'number'; v: number }
  | { t: 'boolean'; v: boolean }
  | { t: 'other'; v: string };

/** Formats our schemas check with a pattern, each with the English the schema gives zod. */
export const formatMessages = {
  'node-id': 'expected a node id such as "w0", "s0", "b0" or "c0"',
  'action-node': 'expected a node id such as "w0", or "@leader" / "@crashed"',
  'training-worker': 'expected a worker id such as "w0" (only a worker computes gradients)',
  'worker-id': 'expected a worker id such as "w0"',
  'coord-node': 'expected a coordination node such as "c0"',
  'ps-replica': 'expected a PS replica id such as "s0"',
  'server-id': 'expected a server id such as "s0"',
  'lower-id': 'use lowercase letters, digits and "-"',
  focus: 'expected topology, timeline, node:<id>, link:<a>-<b>, chart:<name> or panel:<name>, optionally after "<variant>/"',
} as const;
export type FormatId = keyof typeof formatMessages;

const formatIds = new Map<string, FormatId>(Object.entries(formatMessages).map(([id, m]) => [m, id as FormatId]));

/** The format a pattern's message names (a schema's own message), or null for zod's default. */
export function formatIdOf(message: string): FormatId | null {
  return formatIds.get(message) ?? null;
}

/** What a union's branch wanted. */
export type Wanted = { t: 'type'; expected: string } | { t: 'values'; values: readonly unknown[] } | { t: 'bound'; fact: BoundFact };

type BoundFact =
  | { kind: 'tooFewItems'; min: string; got?: number }
  | { kind: 'tooManyItems'; max: string; got?: number }
  | { kind: 'tooShort'; min: string }
  | { kind: 'tooLong'; max: string }
  | { kind: 'tooSmall'; min: string; inclusive: boolean; got: Given }
  | { kind: 'tooBig'; max: string; inclusive: boolean; got: Given };

export type ProblemFact =
  | BoundFact
  | { kind: 'missing'; expected: string }
  | { kind: 'notInteger'; got: number }
  | { kind: 'wrongType'; expected: string; got: Given }
  | { kind: 'unknownFields'; fields: ReadonlyArray<{ key: string; hint?: string }> }
  /** An unknown or missing discriminator: `do` (an action), `kind` (a strategy) or another field. */
  | { kind: 'unknownOption'; field: string; given: Given | null; options: readonly string[] }
  | { kind: 'noBranch'; wanted: readonly Wanted[]; got: Given }
  | { kind: 'invalidValue'; got: Given }
  | { kind: 'notOneOf'; values: readonly unknown[]; got: Given }
  | { kind: 'badFormat'; format: FormatId | null; zodFormat: string; message: string; got: Given }
  | { kind: 'invalidKey'; inner: ProblemFact | null }
  | { kind: 'notMultipleOf'; divisor: string; got: Given }
  | { kind: 'schemaVersion'; got: number }
  | { kind: 'afterEnd'; t: number; durationMs: number; variant?: string }
  | { kind: 'unknownNode'; id: string; known: readonly string[]; variant?: string }
  | { kind: 'strategyNeeds'; strategy: string; min: number; role: 'workers' | 'servers' | 'brokers'; got: number }
  /** A rule worded where it is checked (a protocol's own knobs, lessons): English only, for now. */
  | { kind: 'other'; text: string };

/**
 * One problem: where (`path`, or `root` when the path is empty) and what. `variant` marks a problem
 * of a variant's patched run that the patch did not write (`variants[1] ("async"): cluster.workers: …`);
 * `file` a built-in's file name.
 */
export type ScenarioProblem =
  | { path: readonly PathKey[]; root: string; fact: ProblemFact; variant?: { index: number; id: string }; file?: string }
  /** `… and N more problems` after the first ones. */
  | { more: number }
  /** The text is not JSON: where and why. */
  | { json: JsonProblem };

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

export function givenOf(value: unknown): Given {
  if (value === undefined) return { t: 'nothing' };
  if (value === null) return { t: 'null' };
  if (Array.isArray(value)) return { t: 'array' };
  switch (typeof value) {
    case 'object':
      return { t: 'object' };
    case 'string':
      return { t: 'string', v: value };
    case 'number':
      return { t: 'number', v: value };
    case 'boolean':
      return { t: 'boolean', v: value };
    default:
      return { t: 'other', v: String(value) };
  }
}

/** A string as "got …" quotes it: JSON, cut at 40 characters. */
export function shortString(v: string): string {
  return JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v);
}

/** A short rendering of a given value for "got …" clauses. */
export function describeGiven(g: Given): string {
  switch (g.t) {
    case 'nothing':
      return 'nothing';
    case 'null':
      return 'null';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    case 'string':
      return shortString(g.v);
    case 'number':
      return String(g.v);
    case 'boolean':
      return String(g.v);
    case 'other':
      return g.v;
  }
}

export function describeValue(value: unknown): string {
  return describeGiven(givenOf(value));
}

/** What the user wrote, as a JSON type word, for wrong-type messages. */
function jsonType(g: Given): string {
  switch (g.t) {
    case 'string':
      return `a string (${describeGiven(g)})`;
    case 'number':
      return Number.isFinite(g.v) ? `the number ${g.v}` : 'a number too large to represent (it reads as infinity)';
    case 'nothing':
      return 'undefined';
    default:
      return describeGiven(g);
  }
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

/** Words for discriminator fields, so an unknown `do` reads "unknown action". */
const discriminatorWords: Record<string, [string, string]> = { do: ['action', 'actions'], kind: ['strategy', 'strategies'] };

export function quoteList(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join(', ');
}

function items(n: string, got: number | undefined): string {
  return `item${n === '1' ? '' : 's'}${got === undefined ? '' : ` (got ${got})`}`;
}

/** The message part (after `path: `), in English. */
export function problemMessage(f: ProblemFact): string {
  switch (f.kind) {
    case 'missing':
      return `missing (expected ${typeName(f.expected)})`;
    case 'notInteger':
      return `expected an integer, got ${f.got}`;
    case 'wrongType':
      return `expected ${typeName(f.expected)}, got ${jsonType(f.got)}`;
    case 'unknownFields':
      return f.fields.map(({ key, hint }) => `unknown field "${key}"${hint ? ` (did you mean "${hint}"?)` : ''}`).join('; ');
    case 'unknownOption': {
      const [one, many] = discriminatorWords[f.field] ?? [f.field, 'values'];
      const head = f.given === null ? `missing ${one}` : `unknown ${one} ${describeGiven(f.given)}`;
      return `${head}; valid ${many}: ${f.options.join(', ')}`;
    }
    case 'noBranch':
      return `expected ${f.wanted.map((w) => (w.t === 'type' ? typeName(w.expected) : w.t === 'values' ? quoteList(w.values) : problemMessage(w.fact))).join(' or ')}, got ${jsonType(f.got)}`;
    case 'invalidValue':
      return `invalid value ${describeGiven(f.got)}`;
    case 'notOneOf':
      return f.values.length === 1 ? `expected ${quoteList(f.values)}, got ${describeGiven(f.got)}` : `expected one of ${quoteList(f.values)}, got ${describeGiven(f.got)}`;
    case 'tooFewItems':
      return `needs at least ${f.min} ${items(f.min, f.got)}`;
    case 'tooManyItems':
      return `allows at most ${f.max} ${items(f.max, f.got)}`;
    case 'tooShort':
      return `must be at least ${f.min} characters long`;
    case 'tooLong':
      return `must be at most ${f.max} characters long`;
    case 'tooSmall':
      return `must be ${f.inclusive ? '>=' : '>'} ${f.min}, got ${describeGiven(f.got)}`;
    case 'tooBig':
      return `must be ${f.inclusive ? '<=' : '<'} ${f.max}, got ${describeGiven(f.got)}`;
    case 'badFormat':
      return `${f.format ? formatMessages[f.format] : f.message.startsWith('Invalid') ? `invalid ${f.zodFormat}` : f.message}, got ${describeGiven(f.got)}`;
    case 'invalidKey':
      return f.inner ? `invalid key: ${problemMessage(f.inner)}` : 'invalid key';
    case 'notMultipleOf':
      return `must be a multiple of ${f.divisor}, got ${describeGiven(f.got)}`;
    case 'schemaVersion':
      return `unsupported schema version ${f.got}; this version of CAP Playground reads schema 1`;
    case 'afterEnd':
      return `${f.t} is after the end of the run (durationMs ${f.durationMs})${f.variant === undefined ? '' : ` of variant "${f.variant}"`}`;
    case 'unknownNode':
      return `node "${f.id}" does not exist (cluster has ${describeNodeIds(f.known)})${f.variant === undefined ? '' : ` in variant "${f.variant}"`}`;
    case 'strategyNeeds':
      return `strategy "${f.strategy}" needs at least ${f.min} ${f.min === 1 ? f.role.slice(0, -1) : f.role} (got ${f.got})`;
    case 'other':
      return f.text;
  }
}

/**
 * How one language words problems: each fact's message and the frame around it. English is here
 * (the CLI's, the tests' and the fallback); another language's table comes with that language's
 * lazy chunk (app/words).
 */
export interface ProblemWords {
  message(f: ProblemFact): string;
  /** `path: message`. */
  line(where: string, message: string): string;
  /** A problem of a variant's run that its patch did not write: `variants[1] ("async"): line`. */
  inVariant(variant: string, id: string, line: string): string;
  inFile(file: string, line: string): string;
  more(n: number): string;
  json(p: JsonProblem): string;
  /** The whole file, where a problem has no path (`scenario`). */
  root(root: string): string;
}

export const englishProblemWords: ProblemWords = {
  message: problemMessage,
  line: (where, message) => `${where}: ${message}`,
  inVariant: (variant, id, line) => `${variant} ("${id}"): ${line}`,
  inFile: (file, line) => `${file}: ${line}`,
  more: (n) => `… and ${n} more problems`,
  json: jsonProblemLine,
  root: (root) => root,
};

/** One problem as one line, in `w`'s language. */
export function problemLineIn(w: ProblemWords, p: ScenarioProblem): string {
  if ('more' in p) return w.more(p.more);
  if ('json' in p) return w.json(p.json);
  const line = w.line(p.path.length === 0 ? w.root(p.root) : formatPath(p.path), w.message(p.fact));
  const inVariant = p.variant ? w.inVariant(formatPath(['variants', p.variant.index]), p.variant.id, line) : line;
  return p.file ? w.inFile(p.file, inVariant) : inVariant;
}

/** One problem as one English line, `path: message`. */
export function problemLine(p: ScenarioProblem): string {
  return problemLineIn(englishProblemWords, p);
}

/** A problem at `path` under the scenario. */
export function at(path: readonly PathKey[], fact: ProblemFact): ScenarioProblem {
  return { path, root: 'scenario', fact };
}

/** An English-only rule's message at `path`. */
export function otherAt(path: readonly PathKey[], text: string): ScenarioProblem {
  return at(path, { kind: 'other', text });
}
