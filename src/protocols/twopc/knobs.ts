import { z } from 'zod/mini';
import { clientKnobShape } from '../rsmClientKnobs';
import { formatMessages } from '../../scenario/problems';

/** Knobs of `2pc-ps` (the strategy, and where its rules come from: twoPcPs.ts). */
export const twoPcPsKnobs = z.strictObject({
  kind: z.literal('2pc-ps'),
  /** The server that runs the coordinator (it is a participant too). */
  coordinator: z._default(z.string().check(z.regex(/^s\d+$/, formatMessages['server-id'])), 's0'),
  /** How long the coordinator waits for every vote before it aborts; a prepared participant waits twice this for the decision before it asks around. */
  voteTimeoutMs: z._default(z.number().check(z.positive()), 300),
  ...clientKnobShape,
  /**
   * A worker abandons an update not decided within this time. Longer than raft-ps's 1 s: the
   * coordinator runs one transaction at a time, so with a participant down an update waits behind
   * the others' vote timeouts (4 workers × 300 ms) and would be abandoned while it is still about
   * to be decided — its outcome then unknown to the worker, for no gain.
   */
  updateTimeoutMs: z._default(z.number().check(z.positive()), 2000),
});
export type TwoPcPsConfig = z.infer<typeof twoPcPsKnobs>;
