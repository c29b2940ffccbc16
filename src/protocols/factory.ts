import type { StrategyConfig, StrategyKind } from './index';
import type { Strategy, StrategyContext } from './strategy';

/**
 * Strategy implementations, loaded when a run needs one (issue 9): the page's first load carries
 * the registry (index.ts: knobs, names, classes) but no protocol code, and the bundler gives each
 * loader below a chunk of its own. `Simulation.create` awaits `loadStrategy(kind)`; the engine's
 * constructor then calls the synchronous `createStrategy`. Loading only adds a module to the
 * table: what a run does never depends on when or in which order modules loaded.
 */

type Factory<K extends StrategyKind> = (cfg: Extract<StrategyConfig, { kind: K }>, ctx: StrategyContext) => Strategy;

const loaders: { [K in StrategyKind]: () => Promise<Factory<K>> } = {
  allreduce: async () => {
    const { AllreduceStrategy } = await import('./allreduce');
    return (cfg, ctx) => new AllreduceStrategy(ctx, cfg);
  },
  'ps-async': async () => {
    const [{ PsAsyncStrategy }, { PsRmwStrategy }] = await Promise.all([import('./psAsync'), import('./psAsyncRmw')]);
    // Read-modify-write writers (under a lock, or writing whole vectors) follow their own recipe.
    return (cfg, ctx) => (cfg.writeLock === 'lease' || cfg.writeMode === 'set' ? new PsRmwStrategy(ctx, cfg) : new PsAsyncStrategy(ctx, cfg));
  },
  'ps-sync': async () => {
    const { PsSyncStrategy } = await import('./psSync');
    return (cfg, ctx) => new PsSyncStrategy(ctx, cfg);
  },
  ssp: async () => {
    const { SspStrategy } = await import('./ssp');
    return (cfg, ctx) => new SspStrategy(ctx, cfg);
  },
  degrade: async () => {
    const { DegradeStrategy } = await import('./degrade');
    return (cfg, ctx) => new DegradeStrategy(ctx, cfg);
  },
  'kafka-ps': async () => {
    const { createKafkaPs } = await import('./kafka');
    return (cfg, ctx) => createKafkaPs(cfg, ctx);
  },
  'raft-ps': async () => {
    const { RaftPsStrategy } = await import('./raft/raftPs');
    return (cfg, ctx) => new RaftPsStrategy(ctx, cfg);
  },
  'paxos-ps': async () => {
    const { PaxosPsStrategy } = await import('./paxos/paxosPs');
    return (cfg, ctx) => new PaxosPsStrategy(ctx, cfg);
  },
  '2pc-ps': async () => {
    const { TwoPcPsStrategy } = await import('./twopc/twoPcPs');
    return (cfg, ctx) => new TwoPcPsStrategy(ctx, cfg);
  },
};

// Each factory is stored under its own kind and called only with a configuration of that kind.
type AnyFactory = (cfg: StrategyConfig, ctx: StrategyContext) => Strategy;
const loaded = new Map<StrategyKind, AnyFactory>();
const pending = new Map<StrategyKind, Promise<void>>();

/** Loads a strategy's implementation (once; later calls share the first). */
export function loadStrategy(kind: StrategyKind): Promise<void> {
  const loader = loaders[kind] as (() => Promise<AnyFactory>) | undefined;
  if (!loader) return Promise.reject(new Error(`unknown strategy "${kind}"`));
  let p = pending.get(kind);
  if (!p) {
    p = loader().then(
      (f) => void loaded.set(kind, f),
      (e: unknown) => {
        // A failed fetch (the page went offline) may succeed on the next try.
        pending.delete(kind);
        throw e;
      },
    );
    pending.set(kind, p);
  }
  return p;
}

/** Whether `createStrategy` can build this kind now. */
export function strategyLoaded(kind: StrategyKind): boolean {
  return loaded.has(kind);
}

/** Builds the strategy of a configuration; its implementation must have been loaded (`loadStrategy`). */
export function createStrategy(cfg: StrategyConfig, ctx: StrategyContext): Strategy {
  const f = loaded.get(cfg.kind);
  if (!f) throw new Error(`strategy "${cfg.kind}" is not loaded: await loadStrategy("${cfg.kind}") before building it (Simulation.create does)`);
  return f(cfg, ctx);
}
