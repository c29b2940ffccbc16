import { afterEach, describe, expect, it, vi } from 'vitest';
import { strategies, strategySchema, type StrategyConfig } from '../../protocols';
import { runBuiltin, explainAt } from '../testing/runs';
import { explain, explainLoaded, explainSentence, loadExplain, type ExplainState } from './index';

/**
 * The per-strategy texts load on demand (issue 9), as protocol code does: once, shared by every
 * caller, tried again after a failed fetch, and a sentence asked for before its module arrived
 * is an error naming the kind — never another strategy's text.
 */

const defaults = (kind: string): StrategyConfig => strategySchema.parse({ kind });

afterEach(() => {
  vi.doUnmock('./kafka');
});

describe('loadExplain', () => {
  it('refuses a sentence whose module has not loaded, naming the kind', () => {
    // No test in this file loads paxos-ps's text before this one (each test file has its own modules).
    expect(explainLoaded(defaults('paxos-ps'))).toBe(false);
    const st = { cfg: defaults('paxos-ps') } as ExplainState;
    expect(() => explainSentence(st)).toThrow('the explanation of strategy "paxos-ps" is not loaded: await loadExplain(cfg)');
  });

  it('loads each module once: later calls share the first load', async () => {
    const a = loadExplain(defaults('ssp'));
    expect(loadExplain(strategySchema.parse({ kind: 'ssp', staleness: 0 }))).toBe(a);
    expect(explainLoaded(defaults('ssp'))).toBe(false);
    await a;
    expect(explainLoaded(defaults('ssp'))).toBe(true);
    expect(loadExplain(defaults('ssp'))).toBe(a);
  });

  it('tries a failed load again, and then speaks', async () => {
    let fail = true;
    vi.doMock('./kafka', async (importOriginal) => {
      if (fail) throw new Error('offline');
      return importOriginal();
    });
    const kafka = defaults('kafka-ps');
    // Vitest wraps the factory's error in its own; what matters is that the load rejects.
    const first = loadExplain(kafka);
    await expect(first).rejects.toThrow(Error);
    expect(explainLoaded(kafka)).toBe(false);
    fail = false;
    const again = loadExplain(kafka);
    expect(again).not.toBe(first);
    await again;
    expect(explainLoaded(kafka)).toBe(true);
    const sim = await runBuiltin('kafka-acks-isr');
    expect(explain(explainAt(sim, sim.durationMs).st, 'en')).toMatch(/ISR|in-sync/);
  });

  it("loads ps-async's lock recipe apart from its plain pushes", async () => {
    const locked = strategySchema.parse({ kind: 'ps-async', writeLock: 'lease' });
    await loadExplain(defaults('ps-async'));
    expect(explainLoaded(defaults('ps-async'))).toBe(true);
    expect(explainLoaded(locked)).toBe(false);
    await loadExplain(locked);
    expect(explainLoaded(locked)).toBe(true);
  });

  it('has a module for every registered strategy', async () => {
    await Promise.all(strategies.map((s) => loadExplain(defaults(s.kind))));
    expect(strategies.filter((s) => !explainLoaded(defaults(s.kind))).map((s) => s.kind)).toEqual([]);
  });

  it('gives a kind without a tailored text the generic reading, with nothing to load', async () => {
    const odd = { kind: 'zab-ps' } as unknown as StrategyConfig;
    expect(explainLoaded(odd)).toBe(true);
    await expect(loadExplain(odd)).resolves.toBeUndefined();
    const sim = await runBuiltin('raft-ps-majority');
    const { st } = explainAt(sim, sim.durationMs);
    const text = explain({ ...st, cfg: odd, cap: null }, 'en');
    // The generic line names the kind and reads the metrics; it claims no protocol's story.
    expect(text).toMatch(/^Run finished\. zab-ps: availability /);
  });
});
