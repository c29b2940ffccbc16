import { create } from 'zustand';
import type { Lang } from './i18n/lang';
import type { Scenario } from '../scenario/schema';
import type { Run } from './engine';
import type { BackendChoice } from '../train/types';
import type { FrameSource } from './views/hooks';

/**
 * The app's one store. It holds what the UI shows and chooses; the Run itself is mutable
 * and lives here by reference — `frame` is bumped whenever it changed, which is what re-renders
 * the views (they read the sim directly, as functions of (sim, t)).
 */

export type RunStatus = 'idle' | 'running' | 'paused' | 'done' | 'error';
export type Speed = number | 'max';
export const speeds: readonly Speed[] = [0.1, 0.5, 1, 2, 5, 10, 100, 'max'];
export type Theme = 'light' | 'dark';

export interface AppError {
  id: number;
  /** Heading line, e.g. "Could not open foo.json:" */
  text: string;
  /** One line each: the validator's messages. */
  details?: string[];
  /** Dedup key, e.g. "failed:w2", so a failed node is reported once. */
  key?: string;
}

export interface BuiltinEntry {
  id: string;
  title?: { en: string; zh: string };
  /** A lesson's metadata (its file's `lesson`), and whether it has a script to walk (acts or narration). */
  lesson?: { number: number; minutes: number; prerequisites: string[] };
  guided?: boolean;
}

export type ToolTab = 'node' | 'partition' | 'links' | 'meta';
export type Side = 'A' | 'B';

/**
 * One run of the loaded scenario. Acting while scrubbed back forks a new branch at that time; the
 * branches share one trainer (same model and seed) and each keeps its own Run.
 */
export interface Branch {
  id: number;
  sim: Run;
  /** The branch it left and the simulated time it left it at; null for the first run. */
  parent: { id: number; t: number } | null;
}

/** The built-in on screen's variants (free play): which one runs (`current`, null: the base) and their names. */
export interface VariantChoice {
  builtin: string;
  variants: Array<{ id: string; title?: { en: string; zh: string } }>;
  current: string | null;
  /** A knob, the strategy or the cluster was changed since: the run is none of them any more. */
  edited?: boolean;
}

export interface AppState {
  builtins: BuiltinEntry[];
  scenario: Scenario | null;
  /** Set by opening a built-in that has variants; the scenario menu lists them while its run is on screen. */
  variantChoice: VariantChoice | null;
  sim: Run | null;
  /** True while a new Run is being built (trainer workers start). */
  loading: boolean;
  status: RunStatus;
  speed: Speed;
  /** Fraction done, shown as a progress bar in max mode. */
  progress: number;
  lang: Lang;
  theme: Theme;
  presenter: boolean;
  /** The strategy/cluster settings row; folded away in presenter mode to give the views room. */
  showSettings: boolean;
  /** From `prefers-reduced-motion`: views draw discrete steps instead of animating. */
  reducedMotion: boolean;
  backend: BackendChoice;
  selected: string | null;
  /** Scrub cursor in simulated ms; null = follow now. */
  cursor: number | null;
  errors: AppError[];
  toolTab: ToolTab;
  /** The partition tool's draft: node → group. */
  partitionDraft: Record<string, Side>;
  /** Info line (e.g. the shared link). */
  notice: string | null;
  frame: number;
  /**
   * `frame` at most ten times a second while a run goes, and at once otherwise (paused, done, a
   * scrub, a user's action): what text panels re-render on. Numbers that change 60 times a second
   * cannot be read anyway, and re-rendering every panel each frame cost the main thread a third
   * of its time (issue 9).
   */
  panelFrame: number;
  /** Every run of the loaded scenario; `sim` is the current branch's. */
  branches: Branch[];
  branchId: number;
  /** The branch shown before the current one (the B key returns to it). */
  previousBranch: number | null;
  /** A fork in progress: its time and how much of the prefix has been replayed (0…1). */
  forking: { t: number; progress: number } | null;
  /** From `&at=`: put the cursor there once the run has reached it. */
  pendingAt: number | null;
  /** The open context menu: where, and on which node or link (a selection id). */
  menu: { x: number; y: number; sel: string } | null;
  shareOpen: boolean;
  /** The lesson index (the landing page's second door) is open. */
  indexOpen: boolean;
  /** Opened with no scenario or lesson named: the landing page offers its two doors. */
  landing: boolean;
}

let nextErrorId = 1;

/** index.html picks the theme from prefers-color-scheme before the first paint; start from it. */
function initialTheme(): Theme {
  return typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

export const useApp = create<AppState>()(() => ({
  builtins: [],
  scenario: null,
  variantChoice: null,
  sim: null,
  loading: false,
  status: 'idle',
  speed: 1,
  progress: 0,
  lang: 'en',
  theme: initialTheme(),
  presenter: false,
  showSettings: true,
  reducedMotion: false,
  backend: 'auto',
  selected: null,
  cursor: null,
  errors: [],
  toolTab: 'node',
  partitionDraft: {},
  notice: null,
  frame: 0,
  panelFrame: 0,
  branches: [],
  branchId: 0,
  previousBranch: null,
  forking: null,
  pendingAt: null,
  menu: null,
  shareOpen: false,
  indexOpen: false,
  landing: false,
}));

export const set = useApp.setState;
export const get = useApp.getState;

/** How often text panels follow a running run, in wall ms… */
export const PANEL_MS = 100;
/**
 * …and at speed max, where the run is a blur and every redraw is CPU the training workers do not
 * get: the charts, the servers panel and the metrics of a 16-worker run drew in ~10 % of the main
 * thread's samples there, more with their renders and layouts.
 */
export const MAX_SPEED_PANEL_MS = 250;
const panelMs = (): number => (get().speed === 'max' ? MAX_SPEED_PANEL_MS : PANEL_MS);
let lastPanelWall = -Infinity;
let panelTimer: ReturnType<typeof setTimeout> | null = null;

/** The panels are being brought up to date: the trailing timer, if any, is no longer needed. */
function panelsShown(): void {
  if (panelTimer !== null) clearTimeout(panelTimer);
  panelTimer = null;
  lastPanelWall = performance.now();
}

/** Panels show the current frame now. */
export function flushPanels(): void {
  panelsShown();
  set((st) => (st.panelFrame === st.frame ? st : { panelFrame: st.frame }));
}

/**
 * The sim changed: views redraw on the next render; panels follow within PANEL_MS while running
 * (a trailing timer shows the last state) and at once when `urgent` (a user's action) or when
 * the run is not running.
 */
export function bumpFrame(urgent = false): void {
  const period = panelMs();
  const panels = urgent || get().status !== 'running' || performance.now() - lastPanelWall >= period;
  if (panels) panelsShown();
  // One update: views drawing on this frame already see the panels' new frame (the topology's
  // labels follow it), so their text changes and the panels' land in one layout, not two.
  set((st) => (panels ? { frame: st.frame + 1, panelFrame: st.frame + 1 } : { frame: st.frame + 1 }));
  if (!panels) panelTimer ??= setTimeout(flushPanels, period - (performance.now() - lastPanelWall));
}

/**
 * Engine frames for animated views, which redraw on them without a React render, showing the
 * time `t()` gives (the main view's cursor or now; a lesson's play-head).
 */
export function frameSource(t: () => number): FrameSource {
  return {
    subscribe: (onFrame) =>
      useApp.subscribe((st, prev) => {
        if (st.frame !== prev.frame) onFrame();
      }),
    t,
    textClock: () => get().panelFrame * PANEL_MS,
  };
}

// Status, run, language or a scrub while paused: panels follow at once.
useApp.subscribe((st, prev) => {
  if (st.status !== prev.status || st.sim !== prev.sim || st.lang !== prev.lang || (st.cursor !== prev.cursor && st.status !== 'running')) flushPanels();
});

/** Shows an error (deduplicated by key); nothing else in the app changes. */
export function reportError(text: string, details?: string[], key?: string): void {
  set((st) => {
    if (key && st.errors.some((e) => e.key === key)) return st;
    return { errors: [...st.errors, { id: nextErrorId++, text, details, key }] };
  });
}

/**
 * Adds `details` to the open error with this key (lines it lists already are not repeated), or
 * opens one headed `text`: one box for one thing that has several problems found at different times.
 */
export function addErrorDetails(key: string, text: string, details: readonly string[]): void {
  set((st) => {
    const open = st.errors.find((e) => e.key === key);
    if (!open) return { errors: [...st.errors, { id: nextErrorId++, text, details: [...details], key }] };
    const known = open.details ?? [];
    const more = details.filter((d) => !known.includes(d));
    if (more.length === 0) return st;
    return { errors: st.errors.map((e) => (e === open ? { ...e, details: [...known, ...more] } : e)) };
  });
}

/** Takes away the error with this key, if one is open. */
export function dismissErrorKey(key: string): void {
  set((st) => (st.errors.some((e) => e.key === key) ? { errors: st.errors.filter((e) => e.key !== key) } : st));
}

export function dismissError(id: number): void {
  set((st) => ({ errors: st.errors.filter((e) => e.id !== id) }));
}

export function setNotice(notice: string | null): void {
  set({ notice });
}
