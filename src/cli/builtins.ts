import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtinIdPattern, parseIndex } from '../scenario/builtinFetch';
import { checkBuiltinId, parseScenarioText } from '../scenario/loader';
import { parseJson } from '../scenario/json';
import type { ValidationResult } from '../scenario/validate';

/**
 * Node-only access to scenarios: built-ins from `public/scenarios/` (the same files the browser
 * fetches) and user files from disk. Everything returns a result; nothing throws to the user.
 */

const scenarioDir = new URL('../../public/scenarios/', import.meta.url);

function readText(url: URL): string | undefined {
  try {
    return readFileSync(url, 'utf8');
  } catch {
    return undefined;
  }
}

export function builtinIds(): string[] {
  const text = readText(new URL('index.json', scenarioDir));
  if (text === undefined) return [];
  const json = parseJson(text);
  if (!json.ok) return [];
  const index = parseIndex(json.value);
  return index.ok ? index.ids : [];
}

export function loadBuiltin(id: string): ValidationResult {
  if (!builtinIdPattern.test(id)) return { ok: false, errors: [`"${id}" is not a scenario id`] };
  const text = readText(new URL(`${id}.json`, scenarioDir));
  if (text === undefined) {
    return { ok: false, errors: [`no built-in scenario "${id}" (built-ins: ${builtinIds().join(', ') || 'none'})`] };
  }
  const result = parseScenarioText(text);
  return checkBuiltinId(id, result.ok ? result : { ok: false, errors: result.errors.map((m) => `${id}.json: ${m}`) });
}

/** Absolute path of a built-in's file, for messages. */
export function builtinPath(id: string): string {
  return fileURLToPath(new URL(`${id}.json`, scenarioDir));
}

export function loadScenarioFile(path: string): ValidationResult {
  let text: string;
  try {
    if (statSync(path).isDirectory()) return { ok: false, errors: [`${path}: is a directory, not a scenario file`] };
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    return { ok: false, errors: [`${path}: ${why}`] };
  }
  const result = parseScenarioText(text);
  return result.ok ? result : { ok: false, errors: result.errors.map((m) => `${path}: ${m}`) };
}

/**
 * The CLI's positional argument: a path if it looks like one or exists, else a built-in id.
 * `foo.json` that does not exist is reported as a missing file, not as an unknown id.
 */
export function resolveScenario(target: string): ValidationResult {
  const looksLikePath = /[/\\]/.test(target) || target.endsWith('.json');
  if (looksLikePath) return loadScenarioFile(target);
  if (builtinIds().includes(target)) return loadBuiltin(target);
  if (existsSync(target)) return loadScenarioFile(target);
  return loadBuiltin(target); // reports "no built-in scenario …" with the list
}
