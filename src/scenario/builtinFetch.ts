import type { JsonResult } from './json';
import type { ProblemFact, ScenarioProblem } from './problems';

/**
 * Fetching the built-in scenarios' files: `public/scenarios/<id>.json`, listed by
 * `public/scenarios/index.json` (an array of ids). Their text only: the page has the engine's
 * worker check it (app/checks), loader.ts checks it where the validator is at hand.
 */

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

/**
 * JSON text → its value, as json.ts's parseJson reads it (a byte-order mark dropped); only a
 * broken file loads the scanner that says where it breaks, which the page's first load does not carry.
 */
async function parseJsonLazily(text: string): Promise<JsonResult> {
  try {
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch {
    return (await import('./json')).parseJson(text);
  }
}

function joinUrl(baseUrl: string, file: string): string {
  return baseUrl.endsWith('/') ? `${baseUrl}${file}` : `${baseUrl}/${file}`;
}

/** Browser: the list of built-in ids from `<baseUrl>/index.json`. */
export async function fetchBuiltinIds(baseUrl = './scenarios/'): Promise<IndexResult> {
  try {
    const res = await fetch(joinUrl(baseUrl, 'index.json'));
    if (!res.ok) return indexProblem({ kind: 'httpStatus', id: 'index', status: res.status });
    const json = await parseJsonLazily(await res.text());
    return json.ok ? parseIndex(json.value) : { ok: false, problems: [{ json: json.problem }] };
  } catch (e) {
    return indexProblem({ kind: 'unreachable', id: 'index', cause: e instanceof Error ? e.message : String(e) });
  }
}

/**
 * A failed fetch, as the validator's results are: facts, which each language words (the page
 * loads its wording when there is a problem to say); no English lines here (`fetchBuiltin` adds them).
 */
export type FetchFailure = { ok: false; errors: string[]; problems: ScenarioProblem[] };

/** Browser: the text of `<baseUrl>/<id>.json` (baseUrl e.g. `./scenarios/`), unchecked. */
export async function fetchBuiltinText(id: string, baseUrl = './scenarios/'): Promise<{ ok: true; text: string } | FetchFailure> {
  const fail = (fact: ProblemFact): FetchFailure => ({ ok: false, errors: [], problems: [{ path: [], root: 'scenario', fact }] });
  if (!builtinIdPattern.test(id)) return fail({ kind: 'notAnId', id });
  try {
    const res = await fetch(joinUrl(baseUrl, `${id}.json`));
    if (res.status === 404) return fail({ kind: 'noBuiltin', id });
    if (!res.ok) return fail({ kind: 'httpStatus', id, status: res.status });
    return { ok: true, text: await res.text() };
  } catch (e) {
    return fail({ kind: 'unreachable', id, cause: e instanceof Error ? e.message : String(e) });
  }
}
