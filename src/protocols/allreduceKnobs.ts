import { z } from 'zod/mini';

/** Knobs of `allreduce` (the strategy, and where its rules come from: allreduce.ts). */
export const allreduceKnobs = z.strictObject({
  kind: z.literal('allreduce'),
  /** Retransmission timeout for a missing chunk. */
  rtoMs: z._default(z.number().check(z.positive()), 200),
  /** Linear scaling rule (Goyal et al.): apply the sum, i.e. lr × N on the mean gradient. */
  lrLinearScaling: z._default(z.boolean(), true),
});
export type AllreduceConfig = z.infer<typeof allreduceKnobs>;
