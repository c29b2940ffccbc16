import { z } from 'zod';

/** Knobs of `degrade` (the strategy, and where its rules come from: degrade.ts). */
export const degradeKnobs = z
  .object({
    kind: z.literal('degrade'),
    /** The strong strategy used while healthy. */
    base: z.enum(['allreduce']).default('allreduce'),
    detectTimeoutMs: z.number().positive().default(600),
    healStableMs: z.number().nonnegative().default(1000),
    merge: z.enum(['discard', 'average', 'replay']).default('average'),
    averageWeights: z.enum(['size', 'equal']).default('size'),
    replayLr: z.enum(['none', 'inverse']).default('inverse'),
    /** Replayed gradients staler than this many versions are dropped (and counted in lostWork). */
    replayMaxStaleness: z.number().int().min(0).default(500),
    fencing: z.boolean().default(true),
    checkpointEveryMs: z.number().positive().default(1000),
    /** The ring's retransmission timeout and linear scaling rule (as in allreduce). */
    rtoMs: z.number().positive().default(200),
    lrLinearScaling: z.boolean().default(true),
  })
  .strict();
export type DegradeConfig = z.infer<typeof degradeKnobs>;
