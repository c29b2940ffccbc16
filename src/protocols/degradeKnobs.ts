import { z } from 'zod/mini';

/** Knobs of `degrade` (the strategy, and where its rules come from: degrade.ts). */
export const degradeKnobs = z.strictObject({
  kind: z.literal('degrade'),
  /** The strong strategy used while healthy. */
  base: z._default(z.enum(['allreduce']), 'allreduce'),
  detectTimeoutMs: z._default(z.number().check(z.positive()), 600),
  healStableMs: z._default(z.number().check(z.nonnegative()), 1000),
  merge: z._default(z.enum(['discard', 'average', 'replay']), 'average'),
  averageWeights: z._default(z.enum(['size', 'equal']), 'size'),
  replayLr: z._default(z.enum(['none', 'inverse']), 'inverse'),
  /** Replayed gradients staler than this many versions are dropped (and counted in lostWork). */
  replayMaxStaleness: z._default(z.int().check(z.minimum(0)), 500),
  fencing: z._default(z.boolean(), true),
  checkpointEveryMs: z._default(z.number().check(z.positive()), 1000),
  /** The ring's retransmission timeout and linear scaling rule (as in allreduce). */
  rtoMs: z._default(z.number().check(z.positive()), 200),
  lrLinearScaling: z._default(z.boolean(), true),
});
export type DegradeConfig = z.infer<typeof degradeKnobs>;
