import './zodConfig'; // the same parser everywhere (the app's entry imports it before anything else)
import { z } from 'zod/mini';
import { localizedText } from './text';
import { actSchema, comparisonFields, lessonMetaSchema, shapeExpectationSchema, stepSchema } from './lesson';
import { strategySchema } from '../protocols';
import { coordinationSchema as coordinationSchemaLocal } from '../protocols/coord/config';
import { byzantineAttacks, tamperAttacks } from '../sim/types';

/**
 * Scenario file, schema 1 (CONTRACTS.md §1). Structural rules live here; rules that need the
 * whole file (node ids that must exist, ordering) live in validate.ts.
 */

const nodeId = z.string().check(z.regex(/^[wsbc]\d+$/, 'expected a node id such as "w0", "s0", "b0" or "c0"'));
/** Where an action takes one node, a selector resolved when it fires may stand instead (CURRICULUM §C.1). */
export const nodeSelectors = ['@leader', '@crashed'] as const;
const actionNode = z.string().check(z.regex(/^([wsbc]\d+|@leader|@crashed)$/, 'expected a node id such as "w0", or "@leader" / "@crashed"'));
const workerId = z.string().check(z.regex(/^w\d+$/, 'expected a worker id such as "w0" (only a worker computes gradients)'));
const text = localizedText(z.string());
const nonNeg = z.number().check(z.nonnegative());
const prob = z.number().check(z.minimum(0), z.maximum(1));
const positive = z.number().check(z.positive());
/** A number in [lo, hi]; `int` for whole numbers. */
const between = (lo: number, hi: number) => z.number().check(z.minimum(lo), z.maximum(hi));
const intBetween = (lo: number, hi: number) => z.int().check(z.minimum(lo), z.maximum(hi));
/** A positive number of at most `hi`. */
const positiveMax = (hi: number) => z.number().check(z.positive(), z.maximum(hi));
/** The seeded 2-D datasets (src/train/datasets.ts). */
export const toyDatasetKinds = ['spiral', 'circles', 'xor', 'gaussians'] as const;
/** Every dataset a scenario may name: the 2-D ones, and a 5 000-image Fashion-MNIST subset (784 inputs, 10 classes). */
export const datasetKinds = [...toyDatasetKinds, 'fashion-mnist'] as const;
export type ToyDatasetKind = (typeof toyDatasetKinds)[number];
/** Training images in the committed Fashion-MNIST subset: the most `model.samples` may ask for. */
export const FASHION_TRAIN_IMAGES = 5000;

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

const linkFields = {
  from: actionNode,
  to: actionNode,
  oneWay: z.optional(z.boolean()),
};
/** An attack's strength: a multiplier or a standard deviation (bounded, so no run overflows float32 by accident). */
const attackScale = positiveMax(1e6);

export const actionSchemas = {
  partition: z.strictObject({ do: z.literal('partition'), groups: z.array(z.array(actionNode).check(z.minLength(1))).check(z.minLength(2)) }),
  heal: z.strictObject({ do: z.literal('heal') }),
  cut: z.strictObject({ do: z.literal('cut'), ...linkFields }),
  restore: z.strictObject({ do: z.literal('restore'), ...linkFields }),
  crash: z.strictObject({ do: z.literal('crash'), node: actionNode }),
  restart: z.strictObject({ do: z.literal('restart'), node: actionNode }),
  slow: z.strictObject({ do: z.literal('slow'), node: actionNode, factor: positiveMax(1000) }),
  timeout: z.strictObject({ do: z.literal('timeout'), node: actionNode }),
  link: z.strictObject({
    do: z.literal('link'),
    ...linkFields,
    latencyMs: z.optional(nonNeg),
    jitterMs: z.optional(nonNeg),
    bandwidthMbps: z.optional(positive),
    loss: z.optional(prob),
    duplicate: z.optional(prob),
  }),
  pause: z.strictObject({ do: z.literal('pause'), node: actionNode, ms: positiveMax(600_000) }),
  putMeta: z.strictObject({
    do: z.literal('putMeta'),
    key: z.string().check(z.regex(/^\/[\w./-]*$/, 'expected a key such as "/ckpt/latest"')),
    value: z.string().check(z.maxLength(1024)),
  }),
  tamper: z.strictObject({
    do: z.literal('tamper'),
    from: nodeId,
    to: nodeId,
    attack: z.enum(tamperAttacks),
    scale: z.optional(attackScale),
    count: z.optional(intBetween(1, 10000)),
  }),
  untamper: z.strictObject({ do: z.literal('untamper'), from: nodeId, to: nodeId }),
  byzantine: z.strictObject({ do: z.literal('byzantine'), node: workerId, attack: z.enum(byzantineAttacks), scale: z.optional(attackScale) }),
  honest: z.strictObject({ do: z.literal('honest'), node: workerId }),
  submit: z.strictObject({ do: z.literal('submit'), node: workerId, count: z.optional(intBetween(1, 100)) }),
  network: z.strictObject({
    do: z.literal('network'),
    latencyMs: z.optional(nonNeg),
    jitterMs: z.optional(nonNeg),
    bandwidthMbps: z.optional(positive),
    loss: z.optional(prob),
  }),
} as const;

export const actionSchema = z.discriminatedUnion('do', [
  actionSchemas.partition,
  actionSchemas.heal,
  actionSchemas.cut,
  actionSchemas.restore,
  actionSchemas.crash,
  actionSchemas.restart,
  actionSchemas.slow,
  actionSchemas.timeout,
  actionSchemas.link,
  actionSchemas.pause,
  actionSchemas.putMeta,
  actionSchemas.tamper,
  actionSchemas.untamper,
  actionSchemas.byzantine,
  actionSchemas.honest,
  actionSchemas.submit,
  actionSchemas.network,
]);

/** Action kinds in table order (the action table in actions.ts lists the same kinds). */
export const actionKinds = Object.keys(actionSchemas) as Array<keyof typeof actionSchemas>;

/**
 * `on` in place of `at` (CURRICULUM §C.1): the action fires at the first history event that
 * matches — a note's name (`2pc.prepareSent`), or `action:<do>` — at or after `after` ms, on `node`
 * if given. Deterministic, because the schedule is. validate.ts checks the event name.
 */
export const triggerSchema = z.strictObject({
  event: z.string().check(z.minLength(1)),
  node: z.optional(nodeId),
  after: z.optional(nonNeg),
});

/**
 * A timeline entry is an action plus when it fires: `at` (ms) or `on` (an event); validate.ts
 * requires exactly one. Built as one strict object per action (not an intersection with
 * `{ at }`): an intersection lets unknown keys through, because the non-strict `{ at }` side
 * accepts whatever the strict action side rejects.
 */
const whenFields = {
  at: z.optional(nonNeg),
  on: z.optional(triggerSchema),
  /**
   * `by: "user"` marks an action a user applied in a run that was then shared or exported
   * (CONTRACTS §5): it replays after everything else due at its time, as it did live.
   */
  by: z.optional(z.literal('user')),
  /**
   * In guided mode the play-head stops at `at` and waits for the learner to perform exactly this
   * action, or to press "do it for me" (CURRICULUM §C.1). Either way it applies at the same
   * simulated time, so the engine ignores the flag.
   */
  interactive: z.optional(z.boolean()),
  /**
   * `who` names the person who applied it (a live room's export: "Ana (w2)", "teacher"); a label
   * for people, ignored by the engine.
   */
  who: z.optional(z.string().check(z.minLength(1), z.maxLength(80))),
};
export const timelineEntrySchema = z.discriminatedUnion('do', [
  z.extend(actionSchemas.partition, whenFields),
  z.extend(actionSchemas.heal, whenFields),
  z.extend(actionSchemas.cut, whenFields),
  z.extend(actionSchemas.restore, whenFields),
  z.extend(actionSchemas.crash, whenFields),
  z.extend(actionSchemas.restart, whenFields),
  z.extend(actionSchemas.slow, whenFields),
  z.extend(actionSchemas.timeout, whenFields),
  z.extend(actionSchemas.link, whenFields),
  z.extend(actionSchemas.pause, whenFields),
  z.extend(actionSchemas.putMeta, whenFields),
  z.extend(actionSchemas.tamper, whenFields),
  z.extend(actionSchemas.untamper, whenFields),
  z.extend(actionSchemas.byzantine, whenFields),
  z.extend(actionSchemas.honest, whenFields),
  z.extend(actionSchemas.submit, whenFields),
  z.extend(actionSchemas.network, whenFields),
]);

/** Metrics the engine defines for every strategy (CONTRACTS.md §1). */
export const coreMetricNames = [
  'divergence',
  'relDivergence',
  'versionConflicts',
  'staleness',
  'version',
  'steps',
  'loss',
  'accuracy',
  'availability',
  'lostUpdates',
  'duplicateUpdates',
  'bytes',
  'messages',
  'dropped',
  'leaders',
  'meanGradStaleness',
  'violations',
] as const;

/** Metrics some strategies define (CURRICULUM §C.4); null where the strategy does not. */
export const strategyMetricNames = [
  'term',
  'commitIndex',
  'logLength',
  'maxCommitGapMs',
  'overwrittenEntries',
  'staleReads',
  'consumerLag',
  'serverConflicts',
  'isrSize',
  'rejectedWrites',
  'uncleanElections',
  'degradedWorkers',
  'lostWork',
  'mergeLossSpike',
  'fencedWrites',
  'staleWritesAccepted',
  'maxClockGap',
  'waitFraction',
  'delayedRounds',
  'timeToTarget',
  'stepsToTarget',
  'lastFencedToken',
  'inDoubt',
  'tamperedAccepted',
  'tamperedRejected',
  'replayRejected',
  'sentPerRound',
  'syncMs',
] as const;

export const metricNames = [...coreMetricNames, ...strategyMetricNames] as const;

/** Metrics with a per-node form (CONTRACTS §1, CURRICULUM §C.4/§C.5): the engine samples these per node. */
export const nodeMetricNames = [
  'version',
  'steps',
  'staleness',
  'loss',
  'accuracy',
  'availability',
  'bytes',
  'meanGradStaleness',
  'leaders',
  'term',
  'commitIndex',
  'logLength',
  'overwrittenEntries',
  'staleReads',
  'consumerLag',
  'waitFraction',
  'sentPerRound',
] as const satisfies readonly (typeof coreMetricNames[number] | typeof strategyMetricNames[number])[];
export type MetricName = (typeof metricNames)[number];

export const comparisonOps = ['==', '!=', '<', '<=', '>', '>='] as const;
export type ComparisonOp = (typeof comparisonOps)[number];

export const expectationSchema = z
  .strictObject({
    at: z.union([nonNeg, z.literal('end')]),
    metric: z.enum(metricNames),
    node: z.optional(nodeId),
    op: z.enum(comparisonOps),
    /** The number compared with; absent exactly when the expectation compares with another run (`than`) or time (`thanAt`). */
    value: z.optional(z.number()),
    tolerance: z.optional(nonNeg),
    /** The variant it holds for (CURRICULUM §C.7): an id, or "*" for the base and every variant; absent = the base only. */
    variant: z.optional(z.string().check(z.minLength(1))),
    /** Comparison (CURRICULUM §C.7): holds iff actual op factor × (the same metric in `than` / at `thanAt`) + offset. */
    ...comparisonFields,
  })
  .check(
    z.superRefine((e, ctx) => {
      const comparison = e.than !== undefined || e.thanAt !== undefined;
      if (!comparison && e.value === undefined) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'missing (expected a number); only a comparison with another variant ("than") or another time ("thanAt") leaves it out' });
      }
      if (comparison && e.value !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'a comparison ("than"/"thanAt") has no "value": it holds iff actual op factor × other + offset (give "factor" and "offset")' });
      }
      if (!comparison) {
        for (const k of ['factor', 'offset'] as const) {
          if (e[k] !== undefined) ctx.addIssue({ code: 'custom', path: [k], message: `only a comparison uses "${k}": give "than" (a variant) or "thanAt" (a time)` });
        }
      }
    }),
  );

/** An expectation against a fixed number: what the engine checks itself while it runs. */
export type PlainExpectation = Omit<Expectation, 'value' | 'than' | 'thanAt' | 'factor' | 'offset'> & { value: number };

/** True for an expectation that compares with another run or time (evaluated after the runs, engine/lessonVerdict.ts). */
export function isComparison(e: Pick<Expectation, 'than' | 'thanAt'>): boolean {
  return e.than !== undefined || e.thanAt !== undefined;
}

/** Variant ids: what `variant` in an expectation and `&variant=` name. */
export const variantIdPattern = /^[a-z0-9-]+$/;

/**
 * A named JSON merge patch of the base scenario (RFC 7386; CURRICULUM §C.1): objects merge, arrays
 * and other values replace, `null` deletes. One exception, so a patch can switch strategy without
 * listing the old one's knobs as nulls: a patch whose `strategy.kind` differs from the base's
 * replaces the strategy whole. Variants run with the base seed; variants.ts applies the patches.
 */
export const variantSchema = z.strictObject({
  id: z.string().check(z.regex(variantIdPattern, 'use lowercase letters, digits and "-"')),
  title: z.optional(text),
  patch: z.record(z.string(), z.unknown()),
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

// Strategy knobs are declared by each strategy module (DESIGN rule 6); the registry unites them.
export { strategySchema, allreduceKnobs, psAsyncKnobs } from '../protocols';

/**
 * How workers use the coordination service (CURRICULUM §C.1): which service the `coord` nodes run,
 * the lease (etcd) or session (ZooKeeper) timeout, how reads are served, which server each worker's
 * session is bound to, the modelled disk sync, the request limit, and a metadata key every worker
 * reads periodically. Fencing tokens are the etcd revision or the ZooKeeper zxid of a lock grant.
 */
export { coordinationSchema } from '../protocols/coord/config';


export const scenarioSchema = z.strictObject({
  schema: z.literal(1),
  id: z.string().check(z.regex(/^[a-z0-9-]+$/, 'use lowercase letters, digits and "-"')),
  title: z._default(text, { en: 'Untitled scenario', zh: '未命名场景' }),
  description: z.optional(text),
  seed: z.int(),
  durationMs: positiveMax(3_600_000),
  cluster: z.strictObject({
    workers: intBetween(1, 64),
    servers: z._default(intBetween(0, 7), 0),
    brokers: z._default(intBetween(0, 7), 0),
    /** Coordination-service nodes c0… (a majority-replicated metadata service; c0 starts as its leader). */
    coord: z._default(intBetween(0, 7), 0),
  }),
  model: z._default(modelSchema, modelSchema.parse({})),
  compute: z._default(computeSchema, computeSchema.parse({})),
  network: z._default(networkSchema, networkSchema.parse({})),
  strategy: strategySchema,
  coordination: z.optional(coordinationSchemaLocal),
  security: z.optional(securitySchema),
  timeline: z._default(z.array(timelineEntrySchema), []),
  expect: z._default(z.array(expectationSchema), []),
  variants: z.optional(z.array(variantSchema)),
  /**
   * The name the base goes by among its variants (CURRICULUM names it: L1's "ring", L5's "ssp-4"):
   * `variant`, `than`, shapes, acts' `show` and placeholders may use it; "base" always works too.
   */
  base: z.optional(z.strictObject({ id: z.string().check(z.regex(variantIdPattern, 'use lowercase letters, digits and "-"')), title: z.optional(text) })),
  /** Shape expectations over ordered variants (CURRICULUM §C.7): "u" holds iff the minimum is strictly inside. */
  shapes: z.optional(z.array(shapeExpectationSchema)),
  /**
   * Extra simulated times (ms) at which the engine samples every metric, beyond every 250 ms,
   * every expectation time and the end. A variant resolved from a lesson carries the times its
   * lesson reads (resolveVariant), so every run of the lesson is sampled at the same times.
   */
  sampleAt: z.optional(z.array(nonNeg)),
  /** The lesson script (CURRICULUM §C.7; lesson.ts): acts of steps, or a one-act `narration`. */
  acts: z.optional(z.array(actSchema)),
  narration: z.optional(z.array(stepSchema)),
  lesson: z.optional(lessonMetaSchema),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type { StrategyConfig } from '../protocols';
export type Expectation = z.infer<typeof expectationSchema>;
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export type TimelineTrigger = z.infer<typeof triggerSchema>;
export type Variant = z.infer<typeof variantSchema>;
export type ModelSpec = z.infer<typeof modelSchema>;
export type CoordinationSpec = z.infer<typeof coordinationSchemaLocal>;
