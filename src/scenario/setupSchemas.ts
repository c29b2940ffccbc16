import './zodConfig'; // the same parser everywhere (the engine worker's entry imports it before anything else)
import { z } from 'zod/mini';
import { datasetKinds } from './datasetKinds';
import { between, intBetween, nodeId, nonNeg, positive, positiveMax, prob } from './schemaFields';

/**
 * The simulated setup a scenario runs on (part of schema.ts): the model and its dataset, the
 * workers' compute, the network, and per-message security.
 */

export { toyDatasetKinds, datasetKinds, FASHION_TRAIN_IMAGES, type ToyDatasetKind } from './datasetKinds';

export const modelSchema = z.strictObject({
  dataset: z._default(z.enum(datasetKinds), 'spiral'),
  hidden: z._default(z.array(intBetween(1, 256)).check(z.maxLength(6)), [8, 8]),
  batchSize: z._default(intBetween(1, 1024), 16),
  learningRate: z._default(positiveMax(10), 0.03),
  samples: z._default(intBetween(20, 20000), 600),
  noise: z._default(between(0, 1), 0.1),
  /** Target for timeToTarget / stepsToTarget (CURRICULUM §C.1). */
  targetLoss: z.optional(positive),
  /**
   * Messages are charged as if the model had this many float32 parameters (the "modelled size");
   * the real model is unchanged. At least the real parameter count (checked by the validator).
   */
  virtualParams: z.optional(z.int().check(z.positive(), z.maximum(1e10))),
});

export const computeSchema = z.strictObject({
  stepMs: z._default(positive, 200),
  jitter: z._default(between(0, 0.99), 0.1),
  stragglers: z._default(z.array(z.strictObject({ node: nodeId, slowdown: positive })), []),
  /** Transient stragglers: per step and worker, with probability p the step is slowdown× longer (seeded). */
  transient: z.optional(z.strictObject({ p: prob, slowdown: between(1, 1000) })),
});

export const networkSchema = z.strictObject({
  latencyMs: z._default(nonNeg, 10),
  jitterMs: z._default(nonNeg, 2),
  bandwidthMbps: z._default(positive, 100),
  loss: z._default(prob, 0),
  duplicate: z._default(prob, 0),
  /**
   * Per-node NIC capacity (CURRICULUM §C.1): a node's outgoing links share it, and so, separately,
   * do its incoming ones. Absent: no NIC limit, every link has its own `bandwidthMbps`.
   */
  nicMbps: z.optional(positive),
});

/**
 * Per-message protection (CURRICULUM §C.1 `security`; the engine's security layer applies it to
 * every strategy's protected messages). `sha256` attaches an unkeyed digest, which anyone on the
 * path can recompute; `hmac` an HMAC-SHA-256 tag (RFC 2104) under a key the attacker lacks, over
 * the values and — with `replayProtection` — the whole message with (worker, step) and a sequence
 * number; `tls` authenticates every record (with sequence numbers), so tampering becomes loss.
 */
export const securitySchema = z.strictObject({
  integrity: z._default(z.enum(['none', 'sha256', 'hmac', 'tls']), 'none'),
  replayProtection: z._default(z.boolean(), false),
  /** per-worker: each worker shares its own key with the servers; shared: one key for everyone. */
  keys: z._default(z.enum(['shared', 'per-worker']), 'per-worker'),
});
export type SecurityConfig = z.infer<typeof securitySchema>;
export type ModelSpec = z.infer<typeof modelSchema>;
