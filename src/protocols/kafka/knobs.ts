import { z } from 'zod/mini';
import { formatMessages, type ProblemFact } from '../../scenario/problems';
import { clusterNodeIds, type ClusterSize } from '../../scenario/nodes';

/**
 * Knobs of `kafka-ps`, under Kafka's own names and with Kafka 4.0's defaults (TRUTHS.md):
 * producer settings (acks, linger.ms, batch.size, enable.idempotence,
 * max.in.flight.requests.per.connection, request.timeout.ms), topic/broker settings
 * (replication.factor, num.partitions, min.insync.replicas, replica.lag.time.max.ms,
 * unclean.leader.election.enable) and KRaft's broker.session.timeout.ms. `consumerPollMs` and
 * `readFrom` are the playground's own (how the PS replicas consume and who reads from whom).
 * `replication.factor` defaults to min(3, brokers), resolved when the strategy starts.
 */
const positive = z.number().check(z.positive());

export const kafkaPsKnobs = z.strictObject({
  kind: z.literal('kafka-ps'),
  /** "0": fire and forget; "1": the leader's local append; "all": every in-sync replica. Strings, as in Kafka's properties. */
  acks: z._default(z.enum(['0', '1', 'all']), 'all'),
  'min.insync.replicas': z._default(z.int().check(z.minimum(1)), 1),
  'replica.lag.time.max.ms': z._default(positive, 30000),
  'unclean.leader.election.enable': z._default(z.boolean(), false),
  'linger.ms': z._default(z.number().check(z.nonnegative()), 5),
  'batch.size': z._default(z.int().check(z.positive()), 16384),
  'enable.idempotence': z._default(z.boolean(), true),
  'max.in.flight.requests.per.connection': z._default(z.int().check(z.minimum(1)), 5),
  'request.timeout.ms': z._default(positive, 30000),
  'replication.factor': z.optional(z.int().check(z.minimum(1), z.maximum(7))),
  'num.partitions': z._default(z.int().check(z.minimum(1), z.maximum(16)), 1),
  'broker.session.timeout.ms': z._default(positive, 9000),
  /** How often each PS replica polls the log. */
  consumerPollMs: z._default(positive, 50),
  /** Worker → PS replica it reads parameters from (default round-robin w_i → s_(i mod servers)). */
  readFrom: z.optional(
    z.record(
      z.string().check(z.regex(/^w\d+$/, formatMessages['worker-id'])),
      z.string().check(z.regex(/^s\d+$/, formatMessages['ps-replica'])),
    ),
  ),
});
export type KafkaPsConfig = z.infer<typeof kafkaPsKnobs>;


/** Problems that need the cluster as well as the knobs (the validator reports them under `strategy`). */
export function kafkaPsProblems(cfg: KafkaPsConfig, cluster: ClusterSize): Array<[string[], ProblemFact]> {
  const out: Array<[string[], ProblemFact]> = [];
  const rf = cfg['replication.factor'];
  if (rf !== undefined && rf > (cluster.brokers ?? 0)) out.push([['replication.factor'], { kind: 'replicasNeedBrokers', rf, brokers: cluster.brokers ?? 0 }]);
  const known = clusterNodeIds(cluster);
  for (const [w, s] of Object.entries(cfg.readFrom ?? {})) {
    for (const id of [w, s]) if (!known.includes(id)) out.push([['readFrom', w], { kind: 'unknownNode', id, known }]);
  }
  return out;
}
