import { z } from 'zod/mini';

/** The knobs of a replicated parameter server's clients (rsmClient.ts), shared by paxos-ps and 2pc-ps. */
export const clientKnobShape = {
  clientRetryMs: z._default(z.number().check(z.positive()), 100),
  /** A worker abandons an update not acknowledged within this time and reads fresh parameters. */
  updateTimeoutMs: z._default(z.number().check(z.positive()), 1000),
};
