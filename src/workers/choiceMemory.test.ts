import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BackendSelection } from '../train/backend';
import { recallChoice, rememberChoice } from './choiceMemory';

/** A Map-backed Storage; `full` makes setItem throw as a full quota does. */
function fakeStorage(full = false): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => {
      if (full) throw new Error('QuotaExceededError');
      m.set(k, v);
    },
  };
}

const wasmWins: BackendSelection = {
  backend: 'wasm',
  fallbacks: ['webgl: software renderer (SwiftShader)'],
  measured: [
    { backend: 'wasm', msPerStep: 0.3, steps: 60, spentMs: 120 },
    { backend: 'cpu', msPerStep: 0.5, steps: 60, spentMs: 90 },
  ],
};
const day = 24 * 3600 * 1000;
const t0 = Date.UTC(2026, 11, 1);

afterEach(() => vi.unstubAllGlobals());

function onDevice(userAgent: string, storage: Storage = fakeStorage()): Storage {
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('navigator', { userAgent, hardwareConcurrency: 4 });
  return storage;
}

describe('auto backend memory', () => {
  it('recalls a measurement for the same model shape on the same device, saying when it was taken', () => {
    onDevice('Chromium/142');
    rememberChoice('["2d",[8],32,false]', wasmWins, t0);
    expect(recallChoice('["2d",[8],32,false]', t0 + day)).toEqual({ ...wasmWins, measuredAt: t0 });
    expect(recallChoice('["images",[64],32,false]', t0 + day)).toBeNull();
  });

  it('measures afresh on another browser version, after a month, or from a clock set back', () => {
    const store = onDevice('Chromium/142');
    rememberChoice('m', wasmWins, t0);
    expect(recallChoice('m', t0 + 29 * day)).not.toBeNull();
    expect(recallChoice('m', t0 + 31 * day)).toBeNull();
    expect(recallChoice('m', t0 - day)).toBeNull();
    onDevice('Chromium/143', store);
    expect(recallChoice('m', t0 + day)).toBeNull();
  });

  it('ignores what does not read as a selection, and survives storage that is full or absent', () => {
    const store = onDevice('Chromium/142');
    store.setItem('cap-playground.auto-backend.v1', '{"m":{"device":"Chromium/142|4","at":0,"selection":{"backend":"tpu","fallbacks":[]}}}');
    expect(recallChoice('m', day)).toBeNull();
    store.setItem('cap-playground.auto-backend.v1', 'not json');
    expect(recallChoice('m', day)).toBeNull();
    onDevice('Chromium/142', fakeStorage(true));
    expect(() => rememberChoice('m', wasmWins, t0)).not.toThrow();
    expect(recallChoice('m', t0)).toBeNull();
    vi.stubGlobal('localStorage', undefined);
    expect(recallChoice('m', t0)).toBeNull();
  });
});
