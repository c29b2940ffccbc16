import { describe, expect, it } from 'vitest';
import { strategies, strategySchema, type StrategyConfig } from './index';
import { createStrategy, loadStrategy, strategyLoaded } from './factory';
import type { StrategyContext } from './strategy';

const defaults = (kind: string): StrategyConfig => strategySchema.parse({ kind });

describe('strategy factory', () => {
  it('refuses to build a strategy whose code has not loaded, naming the kind', () => {
    // No test in this file loads paxos-ps before this one (each test file has its own modules).
    expect(strategyLoaded(defaults('paxos-ps'))).toBe(false);
    expect(() => createStrategy(defaults('paxos-ps'), {} as StrategyContext)).toThrow('strategy "paxos-ps" is not loaded: await loadStrategy(cfg)');
  });

  it('loads each implementation once: later calls share the first load', async () => {
    const a = loadStrategy(defaults('ssp'));
    expect(loadStrategy(strategySchema.parse({ kind: 'ssp', staleness: 0 }))).toBe(a);
    await a;
    expect(strategyLoaded(defaults('ssp'))).toBe(true);
  });

  it("loads ps-async's read-modify-write writers apart from its pushes", async () => {
    const rmw = strategySchema.parse({ kind: 'ps-async', writeLock: 'lease' });
    await loadStrategy(defaults('ps-async'));
    expect(strategyLoaded(rmw)).toBe(false);
    expect(() => createStrategy(rmw, {} as StrategyContext)).toThrow('strategy "ps-async" is not loaded');
    await loadStrategy(strategySchema.parse({ kind: 'ps-async', writeMode: 'set' }));
    expect(strategyLoaded(rmw)).toBe(true);
  });

  it('has a loader for every registered strategy', async () => {
    await Promise.all(strategies.map((s) => loadStrategy(defaults(s.kind))));
    expect(strategies.filter((s) => !strategyLoaded(defaults(s.kind))).map((s) => s.kind)).toEqual([]);
  });

  it('rejects an unknown kind by name', async () => {
    await expect(loadStrategy({ kind: 'zab-ps' } as unknown as StrategyConfig)).rejects.toThrow('unknown strategy "zab-ps"');
  });
});
