import { z } from 'zod';

/** Knobs of `ssp` (the strategy, and where its rules come from: ssp.ts). */
export const sspKnobs = z
  .object({
    kind: z.literal('ssp'),
    /** s: clocks a worker may run ahead of the slowest. 0 = BSP, "inf" = ASP. */
    staleness: z.union([z.number().int().min(0), z.literal('inf')]).default(3),
    /** Scale each update's learning rate by 1/max(1, τ), τ its staleness in versions (Zhang et al. 2016). */
    lrStaleness: z.enum(['none', 'inverse']).default('none'),
    rtoMs: z.number().positive().default(300),
  })
  .strict();
export type SspConfig = z.infer<typeof sspKnobs>;
