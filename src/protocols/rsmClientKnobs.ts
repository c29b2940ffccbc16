import { z } from 'zod';

/** The knobs of a replicated parameter server's clients (rsmClient.ts), shared by paxos-ps and 2pc-ps. */
export const clientKnobShape = {
  clientRetryMs: z.number().positive().default(100),
  /** A worker abandons an update not acknowledged within this time and reads fresh parameters. */
  updateTimeoutMs: z.number().positive().default(1000),
};
