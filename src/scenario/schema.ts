import './zodConfig'; // the same parser everywhere (the engine worker's entry imports it before anything else)
import { z } from 'zod/mini';
import { actSchema, lessonMetaSchema, shapeExpectationSchema, stepSchema } from './lesson';
import { strategySchema } from '../protocols';
import { coordinationSchema as coordinationSchemaLocal } from '../protocols/coord/config';
import { intBetween, nonNeg, positiveMax, text } from './schemaFields';
import { computeSchema, modelSchema, networkSchema, securitySchema } from './setupSchemas';
import { timelineEntrySchema } from './actionSchemas';
import { expectationSchema } from './expectationSchema';
import { formatMessages } from './problems';

/**
 * Scenario file, schema 1 (CONTRACTS.md §1). Structural rules live here; rules that need the
 * whole file (node ids that must exist, ordering) live in validate.ts. The parts live in sibling
 * modules — the setup (setupSchemas.ts), actions and the timeline (actionSchemas.ts), metric
 * names (metricNames.ts), expectations (expectationSchema.ts) — and are exported from here too,
 * the one place the app, the engine and the CLI import a scenario's types from.
 */

export { nodeSelectors } from './schemaFields';
export { toyDatasetKinds, datasetKinds, FASHION_TRAIN_IMAGES, modelSchema, computeSchema, networkSchema, securitySchema } from './setupSchemas';
export type { ToyDatasetKind, SecurityConfig, ModelSpec } from './setupSchemas';
export { actionSchemas, actionSchema, actionKinds, triggerSchema, timelineEntrySchema } from './actionSchemas';
export type { TimelineEntry, TimelineTrigger } from './actionSchemas';
export { coreMetricNames, strategyMetricNames, metricNames, nodeMetricNames } from './metricNames';
export type { MetricName } from './metricNames';
export { comparisonOps, expectationSchema, isComparison } from './expectationSchema';
export type { ComparisonOp, Expectation, PlainExpectation } from './expectationSchema';

/** Variant ids: what `variant` in an expectation and `&variant=` name. */
export const variantIdPattern = /^[a-z0-9-]+$/;

/**
 * A named JSON merge patch of the base scenario (RFC 7386; CURRICULUM §C.1): objects merge, arrays
 * and other values replace, `null` deletes. One exception, so a patch can switch strategy without
 * listing the old one's knobs as nulls: a patch whose `strategy.kind` differs from the base's
 * replaces the strategy whole. Variants run with the base seed; variants.ts applies the patches.
 */
export const variantSchema = z.strictObject({
  id: z.string().check(z.regex(variantIdPattern, formatMessages['lower-id'])),
  title: z.optional(text),
  patch: z.record(z.string(), z.unknown()),
});

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
  id: z.string().check(z.regex(/^[a-z0-9-]+$/, formatMessages['lower-id'])),
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
  base: z.optional(z.strictObject({ id: z.string().check(z.regex(variantIdPattern, formatMessages['lower-id'])), title: z.optional(text) })),
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
export type Variant = z.infer<typeof variantSchema>;
export type CoordinationSpec = z.infer<typeof coordinationSchemaLocal>;
