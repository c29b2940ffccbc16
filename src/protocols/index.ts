import '../scenario/zodConfig'; // the same parser everywhere
import { z } from 'zod/mini';
import { allreduceKnobs } from './allreduceKnobs';
import { psAsyncKnobs } from './psAsyncKnobs';
import { psSyncKnobs } from './psSyncKnobs';
import { sspKnobs } from './sspKnobs';
import { degradeKnobs } from './degradeKnobs';
import { kafkaPsKnobs } from './kafka/knobs';
import { raftPsKnobs } from './raft/knobs';
import { twoPcPsKnobs } from './twopc/knobs';
import { paxosPsKnobs } from './paxos/knobs';

/**
 * Strategy registry (DESIGN rule 6): adding a strategy is adding a module, one entry here and one in registry.ts.
 * Each declares its knobs as a zod schema, so the scenario schema, the validator and the UI's
 * generated controls all come from one declaration.
 *
 * The registry's facts (names, classes, needs) are in registry.ts, which imports no schema: the
 * page reads them, and leaves the schemas to the engine's worker (app/checks, issue 9).
 */
export const strategySchema = z.discriminatedUnion('kind', [allreduceKnobs, psAsyncKnobs, kafkaPsKnobs, raftPsKnobs, psSyncKnobs, sspKnobs, degradeKnobs, paxosPsKnobs, twoPcPsKnobs]);
export type StrategyConfig = z.infer<typeof strategySchema>;
export type StrategyKind = StrategyConfig['kind'];

export * from './registry';
export { psSyncKnobs, sspKnobs, degradeKnobs };
export { allreduceKnobs, psAsyncKnobs, kafkaPsKnobs, raftPsKnobs, paxosPsKnobs, twoPcPsKnobs };
export type { Strategy, StrategyContext, CapClass } from './strategy';
