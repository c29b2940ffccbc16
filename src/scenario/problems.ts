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

/**
 * Fields a variant's patch may not touch, with the reason. A variant is the same experiment with
 * one thing changed: it keeps the base's identity and seed, and its expectations live in the
 * base's `expect` (with `variant`), so one list says what every variant must show.
 */
export const fixedFieldMessages = {
  schema: 'a variant has the schema version of its base',
  id: 'a variant is named by its own "id", not the scenario\'s',
  seed: 'variants run with the base seed, so they differ only by the patch',
  variants: 'a variant cannot have variants',
  expect: 'a variant\'s expectations go in the base "expect" with "variant": "<id>" (or "*" for all)',
  shapes: 'shape expectations compare the variants of the lesson; they live in the base',
  base: 'the base\'s name belongs to the base',
  sampleAt: 'every run of a lesson is sampled at the same times (the base\'s)',
} as const;
export type FixedField = keyof typeof fixedFieldMessages;

/**
 * Settings people believe exist but do not, each with what to use instead: the checker answers them
 * with this rather than a "did you mean" (`max.message.delay.ms` appears in popular interview answers).
 */
export const misnomers = {
  'max.message.delay.ms': 'no such Kafka setting; producer latency is set by linger.ms and batch.size, durability by acks',
} as const;
export type Misnomer = keyof typeof misnomers;

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
  /** `variant`: the node is missing in that variant's run; `run`: in that lesson run. */
  | { kind: 'unknownNode'; id: string; known: readonly string[]; variant?: string; run?: string }
  | { kind: 'strategyNeeds'; strategy: string; min: number; role: 'workers' | 'servers' | 'brokers'; got: number }
  /** An id used twice; `first` is where it is first (`variants[0]`, `acts[1]`). */
  | { kind: 'duplicateId'; id: string; first: string }
  | { kind: 'duplicateStep'; id: string }
  /** A variant id that is the base's own (`named`: the file gives `base.id`; else "base", reserved). */
  | { kind: 'namesBase'; id: string; named: boolean }
  | { kind: 'fixedField'; field: FixedField }
  /** An expectation names a variant the file does not have. */
  | { kind: 'noVariant'; id: string; variants: readonly string[]; baseId: string }
  /** An expectation on a metric no part of the run measures (measured.ts); `own`: what it measures beyond the engine's metrics. */
  | { kind: 'notMeasured'; metric: string; strategy: string; own: readonly string[]; variant?: string }
  | { kind: 'fashionImages'; max: number; got: number }
  /** The strategy sends no parameter-server updates for integrity settings to protect or a tamper to alter. */
  | { kind: 'noWire'; strategy: string; purpose: 'protect' | 'alter'; withWire: readonly string[] }
  /** A tamper on a coordination-service link: no updates there to alter. */
  | { kind: 'coordLink'; id: string }
  | { kind: 'leaseNeedsCoord' }
  | { kind: 'fencingNeedsLease' }
  /** A timeline entry with neither `at` nor `on`, or both. */
  | { kind: 'atOrOn' }
  | { kind: 'atAndOn' }
  | { kind: 'unknownEvent'; event: string; hint?: string }
  | { kind: 'listedTwice'; id: string }
  | { kind: 'sameNode'; id: string }
  // Fetching a built-in (loader.ts): the page's own files, so the reader's language too.
  | { kind: 'notAnId'; id: string }
  | { kind: 'noBuiltin'; id: string }
  | { kind: 'httpStatus'; id: string; status: number }
  /** The fetch itself failed; `cause` is the browser's own message (its words, untranslated). */
  | { kind: 'unreachable'; id: string; cause: string }
  /** index.json is not a list of scenario ids. */
  | { kind: 'notAnIndex' }
  // A protocol's own rules (protocols/…):
  /** A name people believe exists (Kafka's "max.message.delay.ms"), with the right ones (`misnomers`). */
  | { kind: 'misnomer'; key: Misnomer }
  | { kind: 'replicasNeedBrokers'; rf: number; brokers: number }
  /** A read mode of the other coordination service. */
  | { kind: 'otherServiceRead'; service: 'etcd' | 'zookeeper'; reads: string }
  /** Krum on too few gradients (Blanchard et al. 2017: n > 2f + 2); `backup`: n is workers − backupWorkers. */
  | { kind: 'krumTooFew'; rule: string; f: number; n: number; backup: boolean }
  // A lesson's script (lessonValidate.ts):
  /** A lesson names a run the file does not have; `baseAlias`: "base" names the base too. */
  | { kind: 'noRun'; id: string; runs: readonly string[]; baseAlias: boolean }
  | { kind: 'afterRunEnd'; t: number; durationMs: number; run: string }
  | { kind: 'unknownMetric'; metric: string; hint?: string }
  | { kind: 'lessonEvent'; event: string }
  | { kind: 'shapeListedTwice' }
  | { kind: 'noStep'; id: string; steps: readonly string[] }
  | { kind: 'notAnOption'; answer: number; options: number }
  | { kind: 'badPlaceholder'; raw: string }
  /** A placeholder `{{…}}` in a text names something that is not there. */
  | { kind: 'inPlaceholder'; raw: string; inner: ProblemFact }
  | RuleFact
  /** A message no fact describes (a zod issue of a kind our schemas do not produce): English only. */
  | { kind: 'other'; text: string };

/** A schema's own rule (a refine): the schema puts the fact in the issue's params (`ruleIssue`). */
export type RuleFact =
  /** A localized text's key that is not a language tag. */
  | { kind: 'langTag'; key: string }
  /** An expectation without `value` that compares with nothing. */
  | { kind: 'valueMissing' }
  /** A comparison (`than`/`thanAt`) that gives a `value`. */
  | { kind: 'comparisonValue' }
  /** `factor`/`offset` outside a comparison. */
  | { kind: 'comparisonOnly'; field: string }
  /** A lesson step's `try.action` without `do`. */
  | { kind: 'actionNeedsDo' }
  /** A [min, max] range whose minimum exceeds its maximum (election timeouts); `got`, the range given. */
  | { kind: 'rangeOrder'; got?: readonly [number, number] };

/**
 * A refine's message and params for `fact`: zod keeps the params on the issue, and issueFact
 * (issues.ts) reads the fact back, so each language words the rule (problemMessage is the English).
 */
export function ruleIssue(fact: RuleFact): { message: string; params: { fact: RuleFact } } {
  return { message: problemMessage(fact), params: { fact } };
}

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

function quoteList(values: readonly unknown[]): string {
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
      return `node "${f.id}" does not exist (cluster has ${describeNodeIds(f.known)})${f.variant === undefined ? '' : ` in variant "${f.variant}"`}${f.run === undefined ? '' : ` in run "${f.run}"`}`;
    case 'strategyNeeds':
      return `strategy "${f.strategy}" needs at least ${f.min} ${f.min === 1 ? f.role.slice(0, -1) : f.role} (got ${f.got})`;
    case 'duplicateId':
      return `"${f.id}" is used by ${f.first} already`;
    case 'duplicateStep':
      return `"${f.id}" is used by another step already (step ids are unique in a lesson)`;
    case 'namesBase':
      return `"${f.id}" names the base (${f.named ? '"base.id"' : 'reserved'}); give the variant another id`;
    case 'fixedField':
      return fixedFieldMessages[f.field];
    case 'noVariant':
      return `no variant "${f.id}" (${f.variants.length ? `variants: ${f.variants.join(', ')}` : 'the scenario has no variants'}; "*" means all, "${f.baseId}" the base)`;
    case 'notMeasured':
      return `a run of strategy "${f.strategy}"${f.variant === undefined ? '' : ` in variant "${f.variant}"`} does not measure "${f.metric}" (${f.own.length ? `beyond the engine's metrics it measures ${f.own.join(', ')}` : "it measures the engine's metrics only"})`;
    case 'fashionImages':
      return `fashion-mnist has ${f.max} training images (got ${f.got})`;
    case 'noWire': {
      const what = f.purpose === 'protect' ? 'protect with a digest, a tag or a sequence number; "tls" covers every record' : 'alter';
      return `strategy "${f.strategy}" sends no parameter-server updates to ${what} (only ${f.withWire.join(', ')} do)`;
    }
    case 'coordLink':
      return `"${f.id}" is a node of the coordination service: its messages (locks, leases, metadata) carry no parameter-server updates to alter`;
    case 'leaseNeedsCoord':
      return '"lease" takes its locks from a coordination service: set cluster.coord (3 is usual)';
    case 'fencingNeedsLease':
      return 'fencing checks the tokens of lock grants: it needs writeLock "lease"';
    case 'atOrOn':
      return 'give "at" (a time in ms) or "on" (an event to fire on)';
    case 'atAndOn':
      return 'give either "at" or "on", not both';
    case 'unknownEvent':
      return `unknown event "${f.event}"${f.hint ? ` (did you mean "${f.hint}"?)` : ''}; an event is a history note such as "leaderElected" or "2pc.prepareSent", or "action:<do>" such as "action:crash"`;
    case 'listedTwice':
      return `node "${f.id}" is listed more than once`;
    case 'sameNode':
      return `"from" and "to" are the same node ("${f.id}"); a link joins two nodes`;
    case 'notAnId':
      return `"${f.id}" is not a scenario id`;
    case 'noBuiltin':
      return `no built-in scenario "${f.id}"`;
    case 'httpStatus':
      return `could not load "${f.id}" (HTTP ${f.status})`;
    case 'unreachable':
      return `could not load "${f.id}": the request got no answer from the server (the browser says: ${f.cause})`;
    case 'notAnIndex':
      return 'expected an array of scenario ids';
    case 'noRun':
      return `no variant "${f.id}" (runs: ${f.runs.join(', ')}${f.baseAlias ? ' ("base" names the base too)' : ''})`;
    case 'afterRunEnd':
      return `${f.t} is after the end of the run "${f.run}" (durationMs ${f.durationMs})`;
    case 'unknownMetric':
      return `unknown metric "${f.metric}"${f.hint ? ` (did you mean "${f.hint}"?)` : ''}`;
    case 'lessonEvent':
      return `unknown event "${f.event}"; an event is a history note such as "leaderElected", or "action:<do>" such as "action:partition"`;
    case 'shapeListedTwice':
      return 'a variant is listed twice';
    case 'noStep':
      return `no step "${f.id}" (steps: ${f.steps.join(', ')})`;
    case 'notAnOption':
      return `${f.answer} is not an option: answers count from 0 and there are ${f.options} options`;
    case 'badPlaceholder':
      return `placeholder ${f.raw} is not {{variant:metric[node]@t}} (t = ms, now or end)`;
    case 'inPlaceholder':
      return `placeholder ${f.raw}: ${problemMessage(f.inner)}`;
    case 'misnomer':
      return misnomers[f.key];
    case 'replicasNeedBrokers':
      return `${f.rf} replicas need at least ${f.rf} brokers (cluster has ${f.brokers})`;
    case 'otherServiceRead':
      return f.service === 'etcd'
        ? `"${f.reads}" is a ZooKeeper read; etcd reads are "linearizable" or "serializable"`
        : `"${f.reads}" is an etcd read; ZooKeeper reads are "local" or "sync-then-local"`;
    case 'krumTooFew':
      return `${f.rule} needs n > 2f + 2 gradients per round (Blanchard et al. 2017); with f = ${f.f} that is at least ${2 * f.f + 3}, got n = ${f.n}${f.backup ? ' (n = workers − backupWorkers)' : ''}`;
    case 'langTag':
      return `"${f.key}" is not a language tag such as "en", "zh" or "ja"`;
    case 'valueMissing':
      return 'missing (expected a number); only a comparison with another variant ("than") or another time ("thanAt") leaves it out';
    case 'comparisonValue':
      return 'a comparison ("than"/"thanAt") has no "value": it holds iff actual op factor × other + offset (give "factor" and "offset")';
    case 'comparisonOnly':
      return `only a comparison uses "${f.field}": give "than" (a variant) or "thanAt" (a time)`;
    case 'actionNeedsDo':
      return 'an action needs "do"';
    case 'rangeOrder':
      return `the minimum must not exceed the maximum${f.got ? `, got ${f.got[0]}–${f.got[1]}` : ''}`;
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
/** A failed check's result from its problems: each also as its English line. */
export function failed(problems: ScenarioProblem[]): { ok: false; errors: string[]; problems: ScenarioProblem[] } {
  return { ok: false, errors: problems.map(problemLine), problems };
}

export function at(path: readonly PathKey[], fact: ProblemFact): ScenarioProblem {
  return { path, root: 'scenario', fact };
}
