import { describe, expect, it } from 'vitest';
import { strategies, strategySchema, type StrategyKind } from './index';
import { createStrategy, loadStrategy, strategyLoaded } from './factory';
import type { StrategyContext } from './strategy';

describe('strategy factory', () => {
  it('refuses to build a strategy whose code has not loaded, naming the kind', () => {
    // No test in this file loads paxos-ps before this one (each test file has its own modules).
    expect(strategyLoaded('paxos-ps')).toBe(false);
    expect(() => createStrategy(strategySchema.parse({ kind: 'paxos-ps' }), {} as StrategyContext)).toThrow('strategy "paxos-ps" is not loaded: await loadStrategy("paxos-ps")');
  });

  it('loads each kind once: later calls share the first load', async () => {
    const a = loadStrategy('ssp');
    expect(loadStrategy('ssp')).toBe(a);
    await a;
    expect(strategyLoaded('ssp')).toBe(true);
  });

  it('has a loader for every registered strategy', async () => {
    await Promise.all(strategies.map((s) => loadStrategy(s.kind)));
    expect(strategies.filter((s) => !strategyLoaded(s.kind)).map((s) => s.kind)).toEqual([]);
  });

  it('rejects an unknown kind by name', async () => {
    await expect(loadStrategy('zab-ps' as StrategyKind)).rejects.toThrow('unknown strategy "zab-ps"');
  });
});
