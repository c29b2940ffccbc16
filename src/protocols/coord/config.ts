import { z } from 'zod/mini';
import { formatMessages, type ProblemFact } from '../../scenario/problems';
import { clusterNodeIds, type ClusterSize } from '../../scenario/nodes';

/**
 * The `coordination` block of a scenario (CURRICULUM §C.1): how the `coord` nodes c0… serve the
 * workers. Names follow the real systems where they have one (etcd's --max-request-bytes is
 * 1572864 by default; ZooKeeper's session timeout is a lease by another name).
 */
export const coordinationSchema = z.strictObject({
  /** etcd-like (Raft, flat keys with revisions, leases) or ZooKeeper-like (Zab, sessions, znodes). */
  service: z._default(z.enum(['etcd', 'zookeeper']), 'etcd'),
  /** Lease TTL (etcd) or session timeout (ZooKeeper): a client not heard from this long loses its locks. */
  leaseTtlMs: z._default(z.number().check(z.positive(), z.maximum(600_000)), 2000),
  /**
   * etcd: "linearizable" (default; ReadIndex through the leader) or "serializable" (the member's
   * own state, possibly stale). ZooKeeper: "local" (default; the session's server) or
   * "sync-then-local" (sync() first: it narrows the gap but is still not strictly linearizable).
   */
  reads: z.optional(z.enum(['linearizable', 'serializable', 'local', 'sync-then-local'])),
  /** The server each worker's session (or etcd client connection) starts on; unlisted: round robin. */
  sessions: z._default(
    z.record(
      z.string().check(z.regex(/^w\d+$/, formatMessages['worker-id'])),
      z.string().check(z.regex(/^c\d+$/, formatMessages['coord-node'])),
    ),
    {},
  ),
  /** Modelled fdatasync of each log append (ms): a write commits after a round trip plus a disk sync. */
  fsyncMs: z._default(z.number().check(z.nonnegative(), z.maximum(1000)), 1),
  /** Largest request a server accepts, in bytes (etcd's default 1.5 MiB; larger: "request is too large"). */
  maxRequestBytes: z._default(z.int().check(z.positive()), 1_572_864),
  /** Every worker reads this metadata key every `everyMs` through its session's server. */
  readMeta: z.optional(
    z.strictObject({
      key: z.string().check(z.regex(/^\/[\w./-]*$/, 'expected a key such as "/ckpt/latest"')),
      everyMs: z.number().check(z.positive(), z.maximum(600_000)),
    }),
  ),
});

export type CoordinationConfig = z.infer<typeof coordinationSchema>;
export type CoordService = CoordinationConfig['service'];
export type ReadMode = NonNullable<CoordinationConfig['reads']>;


/** Problems with the block against the cluster, as [path, message] pairs (the validator prefixes them). */
export function coordinationProblems(cfg: CoordinationConfig, cluster: ClusterSize & { coord: number }): Array<[Array<string | number>, ProblemFact]> {
  const out: Array<[Array<string | number>, ProblemFact]> = [];
  // Without coordination nodes the block is unused (a variant may set cluster.coord to 0); what
  // needs the service (a lease lock) says so where it is asked for.
  if (cluster.coord < 1) return out;
  const etcdReads = ['linearizable', 'serializable'];
  if (cfg.reads !== undefined) {
    const ok = cfg.service === 'etcd' ? etcdReads.includes(cfg.reads) : !etcdReads.includes(cfg.reads);
    if (!ok) out.push([['reads'], { kind: 'otherServiceRead', service: cfg.service, reads: cfg.reads }]);
  }
  const known = clusterNodeIds(cluster);
  for (const [w, c] of Object.entries(cfg.sessions)) {
    for (const id of [w, c]) if (!known.includes(id)) out.push([['sessions', w], { kind: 'unknownNode', id, known }]);
  }
  return out;
}
