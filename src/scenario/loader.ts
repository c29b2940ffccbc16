import { parseJson } from './json';
import { at, type ProblemFact, type ScenarioProblem } from './problems';
import { failed, validateScenario, type ValidationResult } from './validate';

/**
 * Loading scenarios from text and from the built-in set. Browser-safe: no node:* imports (the
 * CLI reads built-ins from disk in src/cli/builtins.ts). Built-ins live in
 * `public/scenarios/<id>.json`, listed by `public/scenarios/index.json` (an array of ids).
 */

/** JSON text → validated scenario; a syntax error is one line `line L, column C: …`. */
export function parseScenarioText(text: string): ValidationResult {
  const json = parseJson(text);
  if (!json.ok) return failed([{ json: json.problem }]);
  return validateScenario(json.value);
}

export const builtinIdPattern = /^[a-z0-9-]+$/;

/** The index's problems, as facts about scenarios/index.json (the app words them). */
export type IndexResult = { ok: true; ids: string[] } | { ok: false; problems: ScenarioProblem[] };

const INDEX = 'scenarios/index.json';
const indexProblem = (fact: ProblemFact): IndexResult => ({ ok: false, problems: [{ path: [], root: INDEX, fact }] });

/** Checks the index file's shape: a list of scenario ids. */
export function parseIndex(value: unknown): IndexResult {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && builtinIdPattern.test(v))) return indexProblem({ kind: 'notAnIndex' });
  return { ok: true, ids: value as string[] };
}

/** A built-in's file must also carry its own id, so `?scenario=x` never opens a file named otherwise. */
export function checkBuiltinId(id: string, result: ValidationResult): ValidationResult {
  if (result.ok && result.scenario.id !== id) {
    return { ok: false, errors: [`id: built-in file "${id}.json" has id "${result.scenario.id}"`] };
  }
  return result;
}

function joinUrl(baseUrl: string, file: string): string {
  return baseUrl.endsWith('/') ? `${baseUrl}${file}` : `${baseUrl}/${file}`;
}

/** Browser: fetch and validate `<baseUrl>/<id>.json` (baseUrl e.g. `./scenarios/`). */
export async function fetchBuiltin(id: string, baseUrl = './scenarios/'): Promise<ValidationResult> {
  // Facts, not English (each language words them): the same lines as before in English.
  const fail = (fact: ProblemFact): ValidationResult => failed([at([], fact)]);
  if (!builtinIdPattern.test(id)) return fail({ kind: 'notAnId', id });
  let text: string;
  try {
    const res = await fetch(joinUrl(baseUrl, `${id}.json`));
    if (res.status === 404) return fail({ kind: 'noBuiltin', id });
    if (!res.ok) return fail({ kind: 'httpStatus', id, status: res.status });
    text = await res.text();
  } catch (e) {
    return fail({ kind: 'unreachable', id, cause: e instanceof Error ? e.message : String(e) });
  }
  const result = parseScenarioText(text);
  if (result.ok) return checkBuiltinId(id, result);
  // Every line names the file, so a built-in's problem is found where it is.
  return result.problems ? failed(result.problems.map((p) => ('path' in p ? { ...p, file: `${id}.json` } : p))) : { ok: false, errors: result.errors.map((m) => `${id}.json: ${m}`) };
}

/** Browser: the list of built-in ids from `<baseUrl>/index.json`. */
export async function fetchBuiltinIds(baseUrl = './scenarios/'): Promise<IndexResult> {
  try {
    const res = await fetch(joinUrl(baseUrl, 'index.json'));
    if (!res.ok) return indexProblem({ kind: 'httpStatus', id: 'index', status: res.status });
    const json = parseJson(await res.text());
    return json.ok ? parseIndex(json.value) : { ok: false, problems: [{ json: json.problem }] };
  } catch (e) {
    return indexProblem({ kind: 'unreachable', id: 'index', cause: e instanceof Error ? e.message : String(e) });
  }
}
