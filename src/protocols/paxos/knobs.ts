import { z } from 'zod/mini';
import { ruleIssue } from '../../scenario/problems';
import { clientKnobShape } from '../rsmClientKnobs';

/** Knobs of `paxos-ps` (the strategy, and where its rules come from: paxosPs.ts). */
export const paxosPsKnobs = z.strictObject({
  kind: z.literal('paxos-ps'),
  /** Election timeout drawn uniformly from [min, max] ms each time it is reset (as raft-ps). */
  electionTimeoutMs: z._default(
    z.tuple([z.number().check(z.positive()), z.number().check(z.positive())]).check(z.refine(([lo, hi]) => lo <= hi, ruleIssue({ kind: 'rangeOrder' }))),
    [150, 300],
  ),
  heartbeatMs: z._default(z.number().check(z.positive()), 50),
  ...clientKnobShape,
});
export type PaxosPsConfig = z.infer<typeof paxosPsKnobs>;
