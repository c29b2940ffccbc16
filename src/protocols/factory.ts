import type { StrategyConfig, StrategyKind } from './index';
import { loadOnce } from './loadOnce';
import type { Strategy, StrategyContext } from './strategy';

/**
 * Strategy implementations, loaded when a run needs one (issue 9): the page's first load carries
 * the registry (index.ts: knobs, names, classes) but no protocol code, and the bundler gives each
 * loader below a chunk of its own. `Simulation.create` awaits `loadStrategy(cfg)`; the engine's
 * constructor then calls the synchronous `createStrategy`. Loading only adds a module to the
 * table: what a run does never depends on when or in which order modules loaded.
 */

type Factory<K extends StrategyKind> = (cfg: Extract<StrategyConfig, { kind: K }>, ctx: StrategyContext) => Strategy;
// Each factory is stored under its module's key and called only with a configuration that key stands for.
type AnyFactory = (cfg: StrategyConfig, ctx: StrategyContext) => Strategy;
const typed = <K extends StrategyKind>(_kind: K, f: Factory<K>): AnyFactory => f as AnyFactory;

/** The module that builds a configuration: ps-async's read-modify-write writers (a lock, or whole-vector writes) have their own. */
type ModuleKey = StrategyKind | 'ps-async/rmw';
function moduleOf(cfg: StrategyConfig): ModuleKey {
  return cfg.kind === 'ps-async' && (cfg.writeLock === 'lease' || cfg.writeMode === 'set') ? 'ps-async/rmw' : cfg.kind;
}

const loaders: Record<ModuleKey, () => Promise<AnyFactory>> = {
  allreduce: async () => {
    const { AllreduceStrategy } = await import('./allreduce');
    return typed('allreduce', (cfg, ctx) => new AllreduceStrategy(ctx, cfg));
  },
  'ps-async': async () => {
    const { PsAsyncStrategy } = await import('./psAsync');
    return typed('ps-async', (cfg, ctx) => new PsAsyncStrategy(ctx, cfg));
  },
  'ps-async/rmw': async () => {
    const { PsRmwStrategy } = await import('./psAsyncRmw');
    return typed('ps-async', (cfg, ctx) => new PsRmwStrategy(ctx, cfg));
  },
  'ps-sync': async () => {
    const { PsSyncStrategy } = await import('./psSync');
    return typed('ps-sync', (cfg, ctx) => new PsSyncStrategy(ctx, cfg));
  },
  ssp: async () => {
    const { SspStrategy } = await import('./ssp');
    return typed('ssp', (cfg, ctx) => new SspStrategy(ctx, cfg));
  },
  degrade: async () => {
    const { DegradeStrategy } = await import('./degrade');
    return typed('degrade', (cfg, ctx) => new DegradeStrategy(ctx, cfg));
  },
  'kafka-ps': async () => {
    const { createKafkaPs } = await import('./kafka');
    return typed('kafka-ps', (cfg, ctx) => createKafkaPs(cfg, ctx));
  },
  'raft-ps': async () => {
    const { RaftPsStrategy } = await import('./raft/raftPs');
    return typed('raft-ps', (cfg, ctx) => new RaftPsStrategy(ctx, cfg));
  },
  'paxos-ps': async () => {
    const { PaxosPsStrategy } = await import('./paxos/paxosPs');
    return typed('paxos-ps', (cfg, ctx) => new PaxosPsStrategy(ctx, cfg));
  },
  '2pc-ps': async () => {
    const { TwoPcPsStrategy } = await import('./twopc/twoPcPs');
    return typed('2pc-ps', (cfg, ctx) => new TwoPcPsStrategy(ctx, cfg));
  },
};

const modules = loadOnce((key: ModuleKey) => loaders[key]());

/** Loads the implementation that builds this configuration (once; later calls share the first). */
export function loadStrategy(cfg: StrategyConfig): Promise<void> {
  const key = moduleOf(cfg);
  if (!Object.hasOwn(loaders, key)) return Promise.reject(new Error(`unknown strategy "${cfg.kind}"`));
  return modules.load(key);
}

/** Whether `createStrategy` can build this configuration now. */
export function strategyLoaded(cfg: StrategyConfig): boolean {
  return modules.get(moduleOf(cfg)) !== undefined;
}

/** Builds the strategy of a configuration; its implementation must have been loaded (`loadStrategy`). */
export function createStrategy(cfg: StrategyConfig, ctx: StrategyContext): Strategy {
  const f = modules.get(moduleOf(cfg));
  if (!f) throw new Error(`strategy "${cfg.kind}" is not loaded: await loadStrategy(cfg) before building it (Simulation.create does)`);
  return f(cfg, ctx);
}
