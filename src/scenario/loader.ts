import { fetchBuiltinText } from './builtinFetch';
import { parseJson } from './json';
import { failed } from './problems';
import { validateScenario, type ValidationResult } from './validate';

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

/** A built-in's file must also carry its own id, so `?scenario=x` never opens a file named otherwise. */
export function checkBuiltinId(id: string, result: ValidationResult): ValidationResult {
  if (result.ok && result.scenario.id !== id) {
    return { ok: false, errors: [`id: built-in file "${id}.json" has id "${result.scenario.id}"`] };
  }
  return result;
}

/** Browser: fetch and validate `<baseUrl>/<id>.json` (baseUrl e.g. `./scenarios/`). */
export async function fetchBuiltin(id: string, baseUrl = './scenarios/'): Promise<ValidationResult> {
  const r = await fetchBuiltinText(id, baseUrl);
  return r.ok ? checkBuiltinText(id, r.text) : failed(r.problems);
}

/** A built-in's text (`<id>.json`) → its scenario, which must carry that id; each problem names the file. */
export function checkBuiltinText(id: string, text: string): ValidationResult {
  const result = parseScenarioText(text);
  if (result.ok) return checkBuiltinId(id, result);
  // Every line names the file, so a built-in's problem is found where it is.
  return result.problems ? failed(result.problems.map((p) => ('path' in p ? { ...p, file: `${id}.json` } : p))) : { ok: false, errors: result.errors.map((m) => `${id}.json: ${m}`) };
}
