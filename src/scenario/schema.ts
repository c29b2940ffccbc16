import './zodConfig'; // the same parser everywhere (the app's entry imports it before anything else)
import { z } from 'zod';
import { localizedText } from './text';
import { actSchema, comparisonFields, lessonMetaSchema, shapeExpectationSchema, stepSchema } from './lesson';
import { strategySchema } from '../protocols';
import { coordinationSchema as coordinationSchemaLocal } from '../protocols/coord/config';
import { byzantineAttacks, tamperAttacks } from '../sim/types';

/**
 * Scenario file, schema 1 (CONTRACTS.md §1). Structural rules live here; rules that need the
 * whole file (node ids that must exist, ordering) live in validate.ts.
 */

const nodeId = z.string().regex(/^[wsbc]\d+$/, 'expected a node id such as "w0", "s0", "b0" or "c0"');
/** Where an action takes one node, a selector resolved when it fires may stand instead (CURRICULUM §C.1). */
export const nodeSelectors = ['@leader', '@crashed'] as const;
const actionNode = z.string().regex(/^([wsbc]\d+|@leader|@crashed)$/, 'expected a node id such as "w0", or "@leader" / "@crashed"');
const workerId = z.string().regex(/^w\d+$/, 'expected a worker id such as "w0" (only a worker computes gradients)');
const text = localizedText(z.string());
const nonNeg = z.number().finite().nonnegative();
const prob = z.number().min(0).max(1);

/** The seeded 2-D datasets (src/train/datasets.ts). */
export const toyDatasetKinds = ['spiral', 'circles', 'xor', 'gaussians'] as const;
/** Every dataset a scenario may name: the 2-D ones, and a 5 000-image Fashion-MNIST subset (784 inputs, 10 classes). */
export const datasetKinds = [...toyDatasetKinds, 'fashion-mnist'] as const;
export type ToyDatasetKind = (typeof toyDatasetKinds)[number];
/** Training images in the committed Fashion-MNIST subset: the most `model.samples` may ask for. */
export const FASHION_TRAIN_IMAGES = 5000;

export const modelSchema = z
  .object({
    dataset: z.enum(datasetKinds).default('spiral'),
    hidden: z.array(z.number().int().min(1).max(256)).max(6).default([8, 8]),
    batchSize: z.number().int().min(1).max(1024).default(16),
    learningRate: z.number().positive().max(10).default(0.03),
    samples: z.number().int().min(20).max(20000).default(600),
    noise: z.number().min(0).max(1).default(0.1),
    /** Target for timeToTarget / stepsToTarget (CURRICULUM §C.1). */
    targetLoss: z.number().positive().optional(),
    /**
     * Messages are charged as if the model had this many float32 parameters (the "modelled size");
     * the real model is unchanged. At least the real parameter count (checked by the validator).
     */
    virtualParams: z.number().int().positive().max(1e10).optional(),
  })
  .strict();

export const computeSchema = z
  .object({
    stepMs: z.number().positive().default(200),
    jitter: z.number().min(0).max(0.99).default(0.1),
    stragglers: z.array(z.object({ node: nodeId, slowdown: z.number().positive() }).strict()).default([]),
    /** Transient stragglers: per step and worker, with probability p the step is slowdown× longer (seeded). */
    transient: z.object({ p: prob, slowdown: z.number().min(1).max(1000) }).strict().optional(),
  })
  .strict();

export const networkSchema = z
  .object({
    latencyMs: nonNeg.default(10),
    jitterMs: nonNeg.default(2),
    bandwidthMbps: z.number().positive().default(100),
    loss: prob.default(0),
    duplicate: prob.default(0),
    /**
     * Per-node NIC capacity (CURRICULUM §C.1): a node's outgoing links share it, and so, separately,
     * do its incoming ones. Absent: no NIC limit, every link has its own `bandwidthMbps`.
     */
    nicMbps: z.number().positive().optional(),
  })
  .strict();

const linkFields = {
  from: actionNode,
  to: actionNode,
  oneWay: z.boolean().optional(),
};
/** An attack's strength: a multiplier or a standard deviation (bounded, so no run overflows float32 by accident). */
const attackScale = z.number().positive().max(1e6);

export const actionSchemas = {
  partition: z.object({ do: z.literal('partition'), groups: z.array(z.array(actionNode).min(1)).min(2) }).strict(),
  heal: z.object({ do: z.literal('heal') }).strict(),
  cut: z.object({ do: z.literal('cut'), ...linkFields }).strict(),
  restore: z.object({ do: z.literal('restore'), ...linkFields }).strict(),
  crash: z.object({ do: z.literal('crash'), node: actionNode }).strict(),
  restart: z.object({ do: z.literal('restart'), node: actionNode }).strict(),
  slow: z.object({ do: z.literal('slow'), node: actionNode, factor: z.number().positive().max(1000) }).strict(),
  timeout: z.object({ do: z.literal('timeout'), node: actionNode }).strict(),
  link: z
    .object({
      do: z.literal('link'),
      ...linkFields,
      latencyMs: nonNeg.optional(),
      jitterMs: nonNeg.optional(),
      bandwidthMbps: z.number().positive().optional(),
      loss: prob.optional(),
      duplicate: prob.optional(),
    })
    .strict(),
  pause: z.object({ do: z.literal('pause'), node: actionNode, ms: z.number().positive().max(600_000) }).strict(),
  putMeta: z.object({ do: z.literal('putMeta'), key: z.string().regex(/^\/[\w./-]*$/, 'expected a key such as "/ckpt/latest"'), value: z.string().max(1024) }).strict(),
  tamper: z
    .object({
      do: z.literal('tamper'),
      from: nodeId,
      to: nodeId,
      attack: z.enum(tamperAttacks),
      scale: attackScale.optional(),
      count: z.number().int().min(1).max(10000).optional(),
    })
    .strict(),
  untamper: z.object({ do: z.literal('untamper'), from: nodeId, to: nodeId }).strict(),
  byzantine: z.object({ do: z.literal('byzantine'), node: workerId, attack: z.enum(byzantineAttacks), scale: attackScale.optional() }).strict(),
  honest: z.object({ do: z.literal('honest'), node: workerId }).strict(),
  submit: z.object({ do: z.literal('submit'), node: workerId, count: z.number().int().min(1).max(100).optional() }).strict(),
  network: z
    .object({
      do: z.literal('network'),
      latencyMs: nonNeg.optional(),
      jitterMs: nonNeg.optional(),
      bandwidthMbps: z.number().positive().optional(),
      loss: prob.optional(),
    })
    .strict(),
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
export const triggerSchema = z
  .object({
    event: z.string().min(1),
    node: nodeId.optional(),
    after: nonNeg.optional(),
  })
  .strict();

/**
 * A timeline entry is an action plus when it fires: `at` (ms) or `on` (an event); validate.ts
 * requires exactly one. Built as one strict object per action (not an intersection with
 * `{ at }`): an intersection lets unknown keys through, because the non-strict `{ at }` side
 * accepts whatever the strict action side rejects.
 */
const whenFields = {
  at: nonNeg.optional(),
  on: triggerSchema.optional(),
  /**
   * `by: "user"` marks an action a user applied in a run that was then shared or exported
   * (CONTRACTS §5): it replays after everything else due at its time, as it did live.
   */
  by: z.literal('user').optional(),
  /**
   * In guided mode the play-head stops at `at` and waits for the learner to perform exactly this
   * action, or to press "do it for me" (CURRICULUM §C.1). Either way it applies at the same
   * simulated time, so the engine ignores the flag.
   */
  interactive: z.boolean().optional(),
  /**
   * `who` names the person who applied it (a live room's export: "Ana (w2)", "teacher"); a label
   * for people, ignored by the engine.
   */
  who: z.string().min(1).max(80).optional(),
};
export const timelineEntrySchema = z.discriminatedUnion('do', [
  actionSchemas.partition.extend(whenFields),
  actionSchemas.heal.extend(whenFields),
  actionSchemas.cut.extend(whenFields),
  actionSchemas.restore.extend(whenFields),
  actionSchemas.crash.extend(whenFields),
  actionSchemas.restart.extend(whenFields),
  actionSchemas.slow.extend(whenFields),
  actionSchemas.timeout.extend(whenFields),
  actionSchemas.link.extend(whenFields),
  actionSchemas.pause.extend(whenFields),
  actionSchemas.putMeta.extend(whenFields),
  actionSchemas.tamper.extend(whenFields),
  actionSchemas.untamper.extend(whenFields),
  actionSchemas.byzantine.extend(whenFields),
  actionSchemas.honest.extend(whenFields),
  actionSchemas.submit.extend(whenFields),
  actionSchemas.network.extend(whenFields),
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
  .object({
    at: z.union([nonNeg, z.literal('end')]),
    metric: z.enum(metricNames),
    node: nodeId.optional(),
    op: z.enum(comparisonOps),
    /** The number compared with; absent exactly when the expectation compares with another run (`than`) or time (`thanAt`). */
    value: z.number().optional(),
    tolerance: nonNeg.optional(),
    /** The variant it holds for (CURRICULUM §C.7): an id, or "*" for the base and every variant; absent = the base only. */
    variant: z.string().min(1).optional(),
    /** Comparison (CURRICULUM §C.7): holds iff actual op factor × (the same metric in `than` / at `thanAt`) + offset. */
    ...comparisonFields,
  })
  .strict()
  .superRefine((e, ctx) => {
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
  });

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
export const variantSchema = z
  .object({
    id: z.string().regex(variantIdPattern, 'use lowercase letters, digits and "-"'),
    title: text.optional(),
    patch: z.record(z.string(), z.unknown()),
  })
  .strict();

/**
 * Per-message protection (CURRICULUM §C.1 `security`; the engine's security layer applies it to
 * every strategy's protected messages). `sha256` attaches an unkeyed digest, which anyone on the
 * path can recompute; `hmac` an HMAC-SHA-256 tag (RFC 2104) under a key the attacker lacks, over
 * the values and — with `replayProtection` — the whole message with (worker, step) and a sequence
 * number; `tls` authenticates every record (with sequence numbers), so tampering becomes loss.
 */
export const securitySchema = z
  .object({
    integrity: z.enum(['none', 'sha256', 'hmac', 'tls']).default('none'),
    replayProtection: z.boolean().default(false),
    /** per-worker: each worker shares its own key with the servers; shared: one key for everyone. */
    keys: z.enum(['shared', 'per-worker']).default('per-worker'),
  })
  .strict();
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


export const scenarioSchema = z
  .object({
    schema: z.literal(1),
    id: z.string().regex(/^[a-z0-9-]+$/, 'use lowercase letters, digits and "-"'),
    title: text.default({ en: 'Untitled scenario', zh: '未命名场景' }),
    description: text.optional(),
    seed: z.number().int(),
    durationMs: z.number().positive().max(3_600_000),
    cluster: z
      .object({
        workers: z.number().int().min(1).max(64),
        servers: z.number().int().min(0).max(7).default(0),
        brokers: z.number().int().min(0).max(7).default(0),
        /** Coordination-service nodes c0… (a majority-replicated metadata service; c0 starts as its leader). */
        coord: z.number().int().min(0).max(7).default(0),
      })
      .strict(),
    model: modelSchema.default(modelSchema.parse({})),
    compute: computeSchema.default(computeSchema.parse({})),
    network: networkSchema.default(networkSchema.parse({})),
    strategy: strategySchema,
    coordination: coordinationSchemaLocal.optional(),
    security: securitySchema.optional(),
    timeline: z.array(timelineEntrySchema).default([]),
    expect: z.array(expectationSchema).default([]),
    variants: z.array(variantSchema).optional(),
    /**
     * The name the base goes by among its variants (CURRICULUM names it: L1's "ring", L5's "ssp-4"):
     * `variant`, `than`, shapes, acts' `show` and placeholders may use it; "base" always works too.
     */
    base: z.object({ id: z.string().regex(variantIdPattern, 'use lowercase letters, digits and "-"'), title: text.optional() }).strict().optional(),
    /** Shape expectations over ordered variants (CURRICULUM §C.7): "u" holds iff the minimum is strictly inside. */
    shapes: z.array(shapeExpectationSchema).optional(),
    /**
     * Extra simulated times (ms) at which the engine samples every metric, beyond every 250 ms,
     * every expectation time and the end. A variant resolved from a lesson carries the times its
     * lesson reads (resolveVariant), so every run of the lesson is sampled at the same times.
     */
    sampleAt: z.array(nonNeg).optional(),
    /** The lesson script (CURRICULUM §C.7; lesson.ts): acts of steps, or a one-act `narration`. */
    acts: z.array(actSchema).optional(),
    narration: z.array(stepSchema).optional(),
    lesson: lessonMetaSchema.optional(),
  })
  .strict();

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type { StrategyConfig } from '../protocols';
export type Expectation = z.infer<typeof expectationSchema>;
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export type TimelineTrigger = z.infer<typeof triggerSchema>;
export type Variant = z.infer<typeof variantSchema>;
export type ModelSpec = z.infer<typeof modelSchema>;
export type CoordinationSpec = z.infer<typeof coordinationSchemaLocal>;
