import type { BackendSelection } from '../train/backend';
import type { BackendName } from '../train/types';

/**
 * 'auto' choices measured on this device in an earlier visit (localStorage). Timing every backend
 * on the model costs a few hundred ms of start-up; a page that opens the same model shape again
 * takes the backend it measured then. Keyed by the model's shape and the browser (user agent and
 * core count), so another browser version or machine measures afresh, and a month-old measurement
 * is taken again. Storage that is absent, full or refused just means measuring every visit.
 */

const STORAGE_KEY = 'cap-playground.auto-backend.v1';
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;
const BACKENDS: readonly BackendName[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

interface Entry {
  device: string;
  /** When it was measured (ms since the epoch). */
  at: number;
  selection: BackendSelection;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // a sandboxed frame may throw on access
  }
}

function device(): string {
  return typeof navigator === 'undefined' ? '' : `${navigator.userAgent}|${navigator.hardwareConcurrency}`;
}

function readAll(store: Storage): Record<string, Entry> {
  try {
    const v: unknown = JSON.parse(store.getItem(STORAGE_KEY) ?? '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Entry>) : {};
  } catch {
    return {};
  }
}

/** The selection measured for `shape` on this device, unless there is none, it is stale, or it does not read as one. */
export function recallChoice(shape: string, now: number = Date.now()): BackendSelection | null {
  const store = storage();
  if (!store) return null;
  const e = readAll(store)[shape];
  if (!e || e.device !== device() || typeof e.at !== 'number' || !(now - e.at >= 0 && now - e.at < MAX_AGE_MS)) return null;
  const sel = e.selection;
  if (!sel || !BACKENDS.includes(sel.backend) || !Array.isArray(sel.fallbacks)) return null;
  return { ...sel, measuredAt: e.at };
}

/** Keeps `selection` for `shape` on this device. */
export function rememberChoice(shape: string, selection: BackendSelection, now: number = Date.now()): void {
  const store = storage();
  if (!store) return;
  const all = readAll(store);
  all[shape] = { device: device(), at: now, selection };
  try {
    store.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // Full or refused: the next visit measures again.
  }
}
