import { check, createRun, makeTrainer, prepareRun, type Run, type RunTrainer } from './engine';
import type { Scenario } from '../scenario/schema';
import type { ValidationResult } from '../scenario/validate';
import type { DecodeResult } from '../scenario/hashCodec';
import { isBaseId } from '../scenario/variants';
import { fetchBuiltinIds, fetchBuiltinText } from '../scenario/builtinFetch';
import { parseUrlParams } from '../scenario/url';
import { problemLinesOf, urlProblemLine } from './problemTextLoad';
import type { BackendChoice } from '../train/types';
import { driver } from './driver';
import { loadExplain } from './explain';
import { rs } from './i18n/runStrings';
import { s } from './i18n/strings';
import { loadLangOrSay } from './langLoad';
import type { Lang } from './i18n/lang';
import { get, reportError, set, setNotice, type VariantChoice } from './store';
import { clearAddressProblems, reportAddressProblems } from './addressProblems';
import type { EditLeft } from './editNotes';
import { mayShowServers, serverStates } from './views/serverStatesLoad';
import { fashionTile, imageDataset } from './views/fashionTileLoad';
import { loadNoteWords } from './words/noteWords';

/**
 * Getting a scenario onto the screen: from the URL, a built-in, a file, or a form edit. The rule
 * everywhere: a bad input shows its messages in the error panel and changes nothing else — the
 * scenario that was loaded stays loaded (and keeps running).
 */

export const defaultScenarioId = 'allreduce-partition';
const builtinBase = './scenarios/';

/** Each load gets a ticket; a slower, older load that finishes late is thrown away. */
let ticket = 0;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Guided mode (lesson/runtime.ts) registers here how it ends and restarts: loading any other run
 * leaves the lesson (its other variants' trainers are disposed with the old run), and ◀◀ in a
 * lesson restarts the lesson, not just the variant on screen.
 */
export const lessonHooks: {
  /** The lesson is being replaced: clear it, and hand over the trainers it used. */
  leaving?: () => RunTrainer[];
  /** ◀◀ while a lesson is open; false: not in a lesson (restart the scenario). */
  restart?: () => Promise<boolean>;
} = {};

/**
 * Loads the "WHAT YOU SEE" text of a run (explain/index.ts) and the words of its consensus notes
 * (noteWords.ts), so that they are there when the run is shown. Never fails: a run without its text still runs — the line stays empty, and asks again.
 */
export function explainReady(sc: Scenario): Promise<void> {
  return Promise.all([loadExplain(sc.strategy), loadNoteWords(sc)]).then(
    () => undefined,
    () => undefined,
  );
}

/** Starts a load; a newer one makes this one's result stale (see `isCurrentLoad`). */
export function beginLoad(): number {
  set({ loading: true });
  return ++ticket;
}

export function isCurrentLoad(my: number): boolean {
  return my === ticket;
}

/** A load failed: the old run stays; the error panel says why. */
export function loadFailed(my: number, cause: unknown): void {
  if (my === ticket) set({ loading: false });
  const lang = get().lang;
  reportError(s(lang, 'loadFailed', { cause: message(cause) }), get().sim ? [s(lang, 'keptPrevious')] : undefined);
}

/**
 * Makes `sim` (of scenario `sc`) the run on screen: the old run stops, its branches go, and the
 * trainers nobody uses any more — the old run's, a lesson's other variants' — are disposed,
 * except those in `keep` (the new runs').
 */
export async function swapIn(sim: Run, sc: Scenario, keep: readonly RunTrainer[] = [sim.trainer]): Promise<void> {
  const old = get().sim;
  const oldBranches = get().branches.map((b) => b.sim);
  await driver.detach();
  driver.setGuide(null);
  const leaving = lessonHooks.leaving?.() ?? [];
  // A new run: its branches start over (they share the trainer, disposed below with the old run).
  set((st) => ({
    sim,
    scenario: sc,
    status: 'idle',
    progress: 0,
    cursor: null,
    selected: null,
    loading: false,
    branches: [{ id: 1, sim, parent: null }],
    branchId: 1,
    previousBranch: null,
    forking: null,
    menu: null,
    frame: st.frame + 1,
  }));
  driver.attach(sim);
  // The engine's worker lets go of a trainer's runs with it; a kept trainer's old runs go one by one.
  const gone = new Set([...(old ? [old.trainer] : []), ...leaving]);
  for (const t of gone) if (!keep.includes(t)) void t.dispose().catch(() => undefined);
  for (const r of oldBranches) if (r !== sim && keep.includes(r.trainer)) void r.dispose().catch(() => undefined);
}

/**
 * Builds a run of `sc` (in the engine's worker) and swaps it in. The old one keeps running until
 * the new one is ready; its trainer is disposed afterwards. Returns false (old one kept) on failure.
 * `variantChoice`: the variants the scenario menu lists under this run's built-in (null for a run
 * from elsewhere); left as it was when not given (a restart, an edit).
 */
export async function loadScenario(sc: Scenario, opts: { autoplay?: boolean; variantChoice?: VariantChoice | null } = {}): Promise<boolean> {
  const my = beginLoad();
  let trainer: RunTrainer | null = null;
  try {
    // The run's protocol code (in the engine's worker), its explanation and the views' code load
    // while the training workers start, not after them.
    prepareRun(sc);
    if (mayShowServers(sc)) serverStates.preload().catch(() => undefined); // a failure shows in the panel
    if (imageDataset(sc)) fashionTile.preload().catch(() => undefined);
    const text = explainReady(sc);
    trainer = await makeTrainer(sc, get().backend);
    const sim = await createRun(sc, trainer);
    await text;
    if (!isCurrentLoad(my)) {
      await trainer.dispose();
      return false;
    }
    await swapIn(sim, sc);
    if (opts.variantChoice !== undefined) set({ variantChoice: opts.variantChoice });
    if (opts.autoplay) driver.play();
    return true;
  } catch (e) {
    if (trainer) void trainer.dispose().catch(() => undefined);
    loadFailed(my, e);
    return false;
  }
}

/** Same scenario, same seed ⇒ the same run again (a lesson: the lesson from its start). Keeps playing if it was playing. */
export async function restart(): Promise<void> {
  if (await lessonHooks.restart?.()) return;
  const sc = get().scenario;
  if (!sc) return;
  await loadScenario(sc, { autoplay: get().status === 'running' });
}

/**
 * A scenario checked in the engine's worker (app/checks): the validator's answer, or, where the
 * worker could not answer, why (a failed result like any other: the error panel says it).
 */
function checked(asked: Promise<ValidationResult>): Promise<ValidationResult> {
  return asked.catch((e: unknown) => ({ ok: false as const, errors: [message(e)] }));
}

/** A built-in's file, fetched here and checked in the engine's worker (it must carry its own id). */
export async function fetchCheckedBuiltin(id: string, baseUrl = builtinBase): Promise<ValidationResult> {
  const text = await fetchBuiltinText(id, baseUrl);
  return text.ok ? checked(check('builtinText', id, text.text)) : text;
}

/** A scenario file's or link's JSON text, checked in the engine's worker. */
export function checkScenarioText(text: string): Promise<ValidationResult> {
  return checked(check('scenarioText', text));
}

/** Validates an edited scenario (from the form controls) before rebuilding; says what the edit left out. */
export async function applyEdit(candidate: unknown, left?: EditLeft): Promise<void> {
  const r = await checked(check('scenario', candidate));
  const lang = get().lang;
  if (!r.ok) {
    reportError(s(lang, 'invalidScenario'), [...(await problemLinesOf(lang, r)), s(lang, 'keptPrevious')]);
    return;
  }
  const ok = await loadScenario(r.scenario, { autoplay: get().status === 'running' });
  // The scenario menu must not name a variant the edited run no longer is.
  const choice = get().variantChoice;
  if (ok && choice) set({ variantChoice: { ...choice, edited: true } });
  if (ok && left) {
    // What an edit left out is said seldom: its sentences load then (if they cannot, the edit stands unsaid).
    const notes = await import('./editNotes').then((m) => m.leftOutNotes(lang, left), () => []);
    if (notes.length > 0) setNotice(notes.join(lang === 'zh' ? '' : ' '));
  }
}

/**
 * The run a URL's `&variant=` asks for: that variant of `sc` as a run of its own (the base's patch
 * applied, its expectations), or, for an unknown id, the base with the problem reported; and which
 * variant that is (null: the base, also after an unknown id).
 */
async function variantRun(sc: Scenario, variant: string | undefined): Promise<{ run: Scenario; current: string | null }> {
  if (variant === undefined) return { run: sc, current: null };
  let v;
  try {
    v = await check('variant', sc, variant);
  } catch (e) {
    reportAddressProblems([message(e)]);
    return { run: sc, current: null };
  }
  if (v.ok) return { run: v.scenario, current: isBaseId(sc, variant) ? null : variant };
  const lang = get().lang;
  reportAddressProblems('unknown' in v ? [await urlProblemLine(lang, { problem: 'unknown-variant', param: 'variant', value: variant, known: v.unknown })] : await problemLinesOf(lang, v));
  return { run: sc, current: null };
}

/** What the scenario menu lists under a built-in: its variants (null: it has none). */
function choiceOf(sc: Scenario, current: string | null): VariantChoice | null {
  if (!sc.variants?.length) return null;
  return { builtin: sc.id, variants: sc.variants.map((v) => ({ id: v.id, ...(v.title ? { title: v.title } : {}) })), current };
}

/**
 * The built-ins' ids when the page has their list and `id` is not among them, else null. A static
 * host answers an unknown path with the app's own index.html, so the index says it, not a fetch.
 */
export function unknownBuiltin(id: string): readonly string[] | null {
  const known = get().builtins.map((b) => b.id);
  return known.length > 0 && !known.includes(id) ? known : null;
}

/** Opens a built-in; with `variant`, that variant of it (variantRun). */
export async function openBuiltin(id: string, opts: { autoplay?: boolean; variant?: string; onBase?: (sc: Scenario) => void } = {}): Promise<boolean> {
  const lang = get().lang;
  const known = unknownBuiltin(id);
  const r = known
    ? { ok: false as const, errors: [await urlProblemLine(lang, { problem: 'unknown-builtin', param: 'scenario', value: id, known })] }
    : await fetchCheckedBuiltin(id);
  if (!r.ok) {
    reportError(s(lang, 'builtinFailed', { id }), [...(await problemLinesOf(lang, r)), ...(get().sim ? [s(lang, 'keptPrevious')] : [])]);
    return false;
  }
  opts.onBase?.(r.scenario);
  const { run, current } = await variantRun(r.scenario, opts.variant);
  return loadScenario(run, { autoplay: opts.autoplay, variantChoice: choiceOf(r.scenario, current) });
}

export async function openFile(file: File): Promise<void> {
  const lang = get().lang;
  let text: string;
  try {
    text = await file.text();
  } catch (e) {
    reportError(s(lang, 'fileFailed', { file: file.name }), [message(e), s(lang, 'keptPrevious')]);
    return;
  }
  const r = await checkScenarioText(text);
  if (!r.ok) {
    reportError(s(lang, 'fileFailed', { file: file.name }), [...(await problemLinesOf(lang, r)), ...(get().sim ? [s(lang, 'keptPrevious')] : [])]);
    return;
  }
  await loadScenario(r.scenario, { variantChoice: null });
}

export async function setBackend(backend: BackendChoice): Promise<void> {
  set({ backend });
  await restart();
}

/** The scenario picker's list: the ids (returned); `loadBuiltinTitles` fills in the rest. */
export async function loadBuiltinList(): Promise<readonly string[]> {
  const r = await fetchBuiltinIds(builtinBase);
  if (!r.ok) {
    const lang = get().lang;
    reportError(s(lang, 'indexFailed'), await problemLinesOf(lang, { errors: [], problems: r.problems }));
    return [];
  }
  set({ builtins: r.ids.map((id) => ({ id })) });
  return r.ids;
}

/** Each built-in's title and lesson facts, filled into the picker's list as its file arrives. */
export async function loadBuiltinTitles(ids: readonly string[]): Promise<void> {
  await Promise.all(
    ids.map(async (id) => {
      const one = await fetchCheckedBuiltin(id);
      if (!one.ok) return;
      const sc = one.scenario;
      const lesson = sc.lesson ? { number: sc.lesson.number, minutes: sc.lesson.minutes, prerequisites: sc.lesson.prerequisites } : undefined;
      const guided = guidedOf(sc);
      set((st) => ({ builtins: st.builtins.map((b) => (b.id === id ? { id, title: sc.title, ...(lesson ? { lesson } : {}), guided } : b)) }));
    }),
  );
}

/** A `#scenario=` value decoded; the codec loads with the first link that carries a scenario. */
async function decodeScenarioHashAny(value: string): Promise<DecodeResult> {
  return (await import('../scenario/hashCodec')).decodeScenarioHashAny(value);
}

/** Opens a `#scenario=` value; on any problem shows it and keeps what is loaded. */
async function openHash(value: string, autoplay: boolean, variant?: string): Promise<boolean> {
  const lang = get().lang;
  const decoded = await decodeScenarioHashAny(value);
  const r = decoded.ok ? await checkScenarioText(decoded.json) : { ok: false as const, errors: [await urlProblemLine(lang, decoded.problem)] };
  if (!r.ok) {
    reportAddressProblems([...(await problemLinesOf(lang, r)), ...(get().sim ? [s(lang, 'keptPrevious')] : [])]);
    return false;
  }
  return loadScenario((await variantRun(r.scenario, variant)).run, { autoplay, variantChoice: null });
}

/**
 * A pasted share link in the same tab changes only the hash (no reload): load what it names.
 * Returns the unsubscribe function.
 */
export function followHashChanges(): () => void {
  const onHash = (): void => {
    const p = parseUrlParams(location.search, location.hash, { lang: get().lang });
    if (!p.scenarioHash) return;
    clearAddressProblems();
    void openHash(p.scenarioHash, get().status === 'running');
  };
  window.addEventListener('hashchange', onHash);
  return () => window.removeEventListener('hashchange', onHash);
}

/** The language a page starts in: an explicit `?lang=`, else the browser's (public/theme.js follows the same rule). */
export function startLang(): Lang {
  return parseUrlParams(location.search, location.hash, { lang: browserLang() }).lang;
}
export function browserLang(): Lang {
  return typeof navigator !== 'undefined' && navigator.language?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** Start-up: URL → language, speed, backend, scenario; falls back to the default scenario. */
export async function boot(): Promise<void> {
  const p = parseUrlParams(location.search, location.hash, { lang: browserLang() });
  // main.tsx loaded this language's catalog before the first render: at once, unless it failed.
  const lang = await loadLangOrSay(p.lang);
  set({
    lang,
    speed: p.speed,
    backend: p.backend,
    pendingAt: p.at ?? null,
    ...(p.present ? { presenter: true, showSettings: false } : {}),
    indexOpen: p.lessons,
    // A link that asked for something it could not have gets its errors, not the welcome's doors
    // (they covered the error panel at 1280×720).
    landing: !p.scenarioId && !p.scenarioHash && !p.lessonId && !p.lessons && p.problems.length === 0,
  });
  if (p.problems.length > 0) reportAddressProblems(await Promise.all(p.problems.map((x) => urlProblemLine(lang, x))));
  // Guided mode's keys and hooks come with the lesson controller, loaded only when a lesson opens
  // (lesson/open.ts wires them then); the presenter's keys are the app's own (keys.ts).
  const ids = await loadBuiltinList();

  await openFromUrl(p);
  // The picker's titles (a fetch per scenario) after the first run is on screen: fetched before,
  // they queue the scenario being opened behind twenty others on the browser's few connections.
  void loadBuiltinTitles(ids);
  const { sim, pendingAt } = get();
  if (sim && pendingAt !== null && pendingAt > sim.durationMs) {
    set({ pendingAt: null });
    reportAddressProblems([rs(lang, 'atAfterEnd', { at: pendingAt, end: sim.durationMs })]);
  }
}

async function openFromUrl(p: ReturnType<typeof parseUrlParams>): Promise<void> {
  const lessonOpts = { mode: p.mode, variant: p.variant, step: p.step, autoplay: p.autoplay };
  if (p.lessonId) {
    // `?lesson=<id>`, and a link may carry that lesson itself (`#scenario=`, e.g. one not shipped yet).
    const carried = p.scenarioHash ? await decodeScenarioHashAny(p.scenarioHash) : null;
    const parsed = carried?.ok ? await checkScenarioText(carried.json) : null;
    const { openLessonById } = await import('./lesson/open');
    if (await openLessonById(p.lessonId, lessonOpts, parsed?.ok ? parsed.scenario : undefined)) return;
  } else if (p.scenarioHash && p.mode === 'guided') {
    const decoded = await decodeScenarioHashAny(p.scenarioHash);
    const r = decoded.ok ? await checkScenarioText(decoded.json) : null;
    const { openLesson } = await import('./lesson/open');
    if (r?.ok && (await openLesson(r.scenario, lessonOpts))) return;
  }
  // `step=` and `mode=guided` belong to a lesson: asked of a plain scenario, they are named, not
  // dropped (a built-in lesson opened with scenario= plays freely from 0 s).
  const triedLesson = p.lessonId !== undefined || (p.scenarioHash !== undefined && p.mode === 'guided');
  const lessonOnly = triedLesson ? null : p.step !== undefined ? { param: 'step' as const, value: p.step } : p.mode === 'guided' ? { param: 'mode' as const, value: p.mode } : null;
  let lesson: string | undefined;
  const sayLessonOnly = (): void => {
    if (lessonOnly) void urlProblemLine(get().lang, { problem: 'lesson-only', ...lessonOnly, ...(lesson ? { lesson } : {}) }).then((line) => reportAddressProblems([line]));
  };
  if (p.scenarioHash && (await openHash(p.scenarioHash, p.autoplay, p.variant))) return sayLessonOnly();
  const id = p.scenarioId ?? defaultScenarioId;
  const onBase = (sc: Scenario): void => void (lesson = guidedOf(sc) ? sc.id : undefined);
  if (await openBuiltin(id, { autoplay: p.autoplay, variant: p.variant, onBase })) return sayLessonOnly();
  if (id !== defaultScenarioId) await openBuiltin(defaultScenarioId, { autoplay: p.autoplay });
}

/** Whether a scenario is a lesson: it has acts or narration to walk. */
function guidedOf(sc: Scenario): boolean {
  return (sc.acts?.length ?? 0) > 0 || (sc.narration?.length ?? 0) > 0;
}
