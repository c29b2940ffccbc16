import { z } from 'zod';
import { clientKnobShape } from '../rsmClientKnobs';

/** Knobs of `paxos-ps` (the strategy, and where its rules come from: paxosPs.ts). */
export const paxosPsKnobs = z
  .object({
    kind: z.literal('paxos-ps'),
    /** Election timeout drawn uniformly from [min, max] ms each time it is reset (as raft-ps). */
    electionTimeoutMs: z
      .tuple([z.number().positive(), z.number().positive()])
      .refine(([lo, hi]) => lo <= hi, 'the minimum must not exceed the maximum')
      .default([150, 300]),
    heartbeatMs: z.number().positive().default(50),
    ...clientKnobShape,
  })
  .strict();
export type PaxosPsConfig = z.infer<typeof paxosPsKnobs>;
