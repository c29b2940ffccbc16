import { z } from 'zod/mini';

/** Knobs of `ssp` (the strategy, and where its rules come from: ssp.ts). */
export const sspKnobs = z.strictObject({
  kind: z.literal('ssp'),
  /** s: clocks a worker may run ahead of the slowest. 0 = BSP, "inf" = ASP. */
  staleness: z._default(z.union([z.int().check(z.minimum(0)), z.literal('inf')]), 3),
  /** Scale each update's learning rate by 1/max(1, τ), τ its staleness in versions (Zhang et al. 2016). */
  lrStaleness: z._default(z.enum(['none', 'inverse']), 'none'),
  rtoMs: z._default(z.number().check(z.positive()), 300),
});
export type SspConfig = z.infer<typeof sspKnobs>;
