/**
 * URL parameters (CONTRACTS §3). The shareable scenario hash's codec is hashCodec.ts: a page
 * loads it only where a link carries a scenario or one is shared.
 */

import type { Lang } from './i18n';
import type { UrlProblem } from './urlProblems';
import { makeSuggester } from './suggest';

// ---------------------------------------------------------------------------------------------
// Query parameters

export const backends = ['auto', 'webgpu', 'webgl', 'wasm', 'cpu'] as const;
export type BackendChoice = (typeof backends)[number];
export type { Lang };
export type Speed = number | 'max';

export const SPEED_MIN = 0.1;
export const SPEED_MAX = 100;

export interface UrlParams {
  scenarioId?: string;
  /** The raw value after `#scenario=` (either form); decode with decodeScenarioHashAny. */
  scenarioHash?: string;
  autoplay: boolean;
  speed: Speed;
  lang: Lang;
  backend: BackendChoice;
  /** `at=<ms>`: put the scrub cursor at this simulated time once the run has reached it. */
  at?: number;
  /** `lesson=<id>`: open a built-in lesson in guided mode (CURRICULUM §C.8). */
  lessonId?: string;
  /** `step=<act>.<n>`: the step to open the lesson at (checked against its acts when it loads). */
  step?: string;
  /** `variant=<id>`: the variant in focus (checked against the lesson's variants when it loads). */
  variant?: string;
  /** `mode=guided|free`: walk the lesson's steps, or play freely; default guided with `lesson=`. */
  mode?: 'guided' | 'free';
  /** `present=1`: presenter mode (large type, lesson keys). */
  present: boolean;
  /** `lessons=1`: open the lesson index (the landing page's second door). */
  lessons: boolean;
  /** One per bad parameter; the default is kept for it. */
  problems: UrlProblem[];
}

export interface UrlDefaults {
  speed: Speed;
  lang: Lang;
  backend: BackendChoice;
}

/**
 * Reads `location.search` and `location.hash`. `defaults` lets the app pass, e.g., a language
 * derived from navigator.language; an explicit `lang=` always wins.
 */
export function parseUrlParams(search: string, hash: string, defaults: Partial<UrlDefaults> = {}): UrlParams {
  const q = new URLSearchParams(search.replace(/^\?/, ''));
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  const out: UrlParams = {
    autoplay: false,
    speed: defaults.speed ?? 1,
    lang: defaults.lang ?? 'en',
    backend: defaults.backend ?? 'auto',
    present: false,
    lessons: false,
    problems: [],
  };

  const id = q.get('scenario');
  if (id !== null) {
    if (/^[a-z0-9-]+$/.test(id)) out.scenarioId = id;
    else out.problems.push({ problem: 'not-id', param: 'scenario', value: id });
  }
  const packed = h.get('scenario');
  if (packed !== null && packed !== '') out.scenarioHash = packed;

  const autoplay = q.get('autoplay');
  if (autoplay !== null) {
    if (autoplay === '1' || autoplay === 'true' || autoplay === '') out.autoplay = true;
    else if (autoplay === '0' || autoplay === 'false') out.autoplay = false;
    else out.problems.push({ problem: 'not-flag', param: 'autoplay', value: autoplay });
  }

  const speed = q.get('speed');
  if (speed !== null) {
    const parsed = parseSpeed(speed);
    if (typeof parsed === 'object') out.problems.push(parsed);
    else out.speed = parsed;
  }

  const lang = q.get('lang');
  if (lang !== null) {
    // Accept region tags (zh-CN, en-US): only the language matters here.
    const base = lang.toLowerCase().split(/[-_]/)[0];
    if (base === 'en' || base === 'zh') out.lang = base;
    else out.problems.push({ problem: 'not-choice', param: 'lang', value: lang, choices: ['en', 'zh'] });
  }

  // In the query, or after the scenario in the hash (`#scenario=…&at=6900`): a shared moment.
  const at = q.get('at') ?? h.get('at');
  if (at !== null) {
    const n = at.trim() === '' ? NaN : Number(at);
    if (!Number.isFinite(n) || n < 0) out.problems.push({ problem: 'not-time', param: 'at', value: at });
    else out.at = n;
  }

  const lesson = q.get('lesson');
  if (lesson !== null) {
    if (/^[a-z0-9-]+$/.test(lesson)) out.lessonId = lesson;
    else out.problems.push({ problem: 'not-id', param: 'lesson', value: lesson });
  }
  const step = q.get('step');
  if (step !== null) {
    if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+$/.test(step)) out.step = step;
    else out.problems.push({ problem: 'not-step', param: 'step', value: step, example: 'partition.3' });
  }
  const variant = q.get('variant');
  if (variant !== null) {
    if (/^[a-z0-9-]+$/.test(variant)) out.variant = variant;
    else out.problems.push({ problem: 'not-id', param: 'variant', value: variant });
  }
  const mode = q.get('mode');
  if (mode !== null) {
    if (mode === 'guided' || mode === 'free') out.mode = mode;
    else out.problems.push({ problem: 'not-choice', param: 'mode', value: mode, choices: ['guided', 'free'] });
  }
  for (const name of ['present', 'lessons'] as const) {
    const v = q.get(name);
    if (v === null) continue;
    if (v === '1' || v === 'true' || v === '') out[name] = true;
    else if (v !== '0' && v !== 'false') out.problems.push({ problem: 'not-flag', param: name, value: v });
  }

  const backend = q.get('backend');
  if (backend !== null) {
    const b = backend.toLowerCase();
    if ((backends as readonly string[]).includes(b)) out.backend = b as BackendChoice;
    else out.problems.push({ problem: 'not-choice', param: 'backend', value: backend, choices: backends });
  }
  for (const [name, value] of q) {
    const p = strangerParam(name, value);
    if (p) out.problems.push(p);
  }
  return out;
}

/** Every parameter a page address may carry (the live room's `room`, `role` and `key` too). */
export const PAGE_PARAMS = ['scenario', 'lesson', 'step', 'variant', 'mode', 'autoplay', 'speed', 'lang', 'backend', 'at', 'present', 'lessons', 'room', 'role', 'key'] as const;
/**
 * A scenario's settings (schema.ts, setupSchemas.ts) that a reader may try to set in the address
 * (`workers=8`): set on the page or in a scenario file instead.
 */
export const SCENARIO_SETTINGS = [
  ...['seed', 'durationMs', 'cluster', 'model', 'compute', 'network', 'strategy', 'coordination', 'security', 'timeline', 'expect'],
  ...['workers', 'servers', 'brokers', 'coord'],
  ...['dataset', 'hidden', 'batchSize', 'learningRate', 'samples', 'noise'],
  ...['stepMs', 'jitter', 'latencyMs', 'jitterMs', 'bandwidthMbps', 'loss', 'duplicate'],
] as const;
/** The settings the page's own form changes (Workers, Strategy, Dataset). */
const ON_PAGE: ReadonlySet<string> = new Set(['workers', 'strategy', 'dataset']);
const suggestParam = makeSuggester(PAGE_PARAMS);

/**
 * A parameter the page does not read, where it looks meant for the page: a misspelt one (`sped`,
 * `Speed`) or a scenario's setting. Any other is left alone — a link passed through a messenger or
 * a newsletter gains parameters of theirs (`from`, `utm_source`, `fbclid`) that are not the
 * reader's mistake.
 */
function strangerParam(name: string, value: string): UrlProblem | null {
  if ((PAGE_PARAMS as readonly string[]).includes(name)) return null;
  const setting = SCENARIO_SETTINGS.find((k) => k.toLowerCase() === name.toLowerCase());
  if (setting) return { problem: 'scenario-setting', param: name, value, setting, onPage: ON_PAGE.has(setting) };
  const hint = suggestParam(name);
  return hint ? { problem: 'unknown-param', param: name, value, hint } : null;
}

export function parseSpeed(s: string): Speed | Extract<UrlProblem, { param: 'speed' }> {
  if (s === 'max') return 'max';
  const n = s.trim() === '' ? NaN : Number(s);
  if (!Number.isFinite(n)) return { problem: 'not-speed', param: 'speed', value: s };
  if (n < SPEED_MIN || n > SPEED_MAX) return { problem: 'speed-range', param: 'speed', value: s, min: SPEED_MIN, max: SPEED_MAX };
  return n;
}
