import { z } from 'zod';

/** Knobs of `allreduce` (the strategy, and where its rules come from: allreduce.ts). */
export const allreduceKnobs = z
  .object({
    kind: z.literal('allreduce'),
    /** Retransmission timeout for a missing chunk. */
    rtoMs: z.number().positive().default(200),
    /** Linear scaling rule (Goyal et al.): apply the sum, i.e. lr × N on the mean gradient. */
    lrLinearScaling: z.boolean().default(true),
  })
  .strict();
export type AllreduceConfig = z.infer<typeof allreduceKnobs>;
