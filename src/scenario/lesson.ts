import { z } from 'zod';
import { localizedText } from './text';

/**
 * The lesson script of a scenario file (CURRICULUM §C.7–C.8): acts, narration steps, predictions,
 * "try it" steps, charts, and the lesson's metadata (goals, misconceptions it corrects, sources).
 * A scenario without these is still a lesson of one act that plays freely.
 *
 * Steps never change the run: `predict` pauses the play-head, `try` waits for an `interactive`
 * timeline entry the learner (or "do it for me") applies at its scripted time, and stepping back
 * is scrubbing — so hashes and expectations are the same however a lesson is taken.
 */

const text = localizedText(z.string().min(1));
const nonNeg = z.number().finite().nonnegative();
const ops = ['==', '!=', '<', '<=', '>', '>='] as const;

/** When a step fires (first match, in its variant's run; `variant` defaults to the act's first shown). */
export const whenSchema = z.union([
  z.object({ at: nonNeg }).strict(),
  z.object({ event: z.string().min(1), node: z.string().optional(), variant: z.string().optional(), after: nonNeg.optional(), nth: z.number().int().min(1).optional() }).strict(),
  z.object({ metric: z.string().min(1), node: z.string().optional(), variant: z.string().optional(), op: z.enum(ops), value: z.number() }).strict(),
  z.object({ afterStep: z.string().min(1), delayMs: nonNeg }).strict(),
  z.object({ end: z.literal(true) }).strict(),
]);
export type When = z.infer<typeof whenSchema>;

/**
 * What a step points at: `topology`, `node:<id>`, `link:<a>-<b>`, `chart:<name>`, `panel:<name>`,
 * optionally prefixed by a variant (`async/chart:divergence`). The view highlights it.
 */
export const focusPattern = /^(?:[a-z0-9-]+\/)?(?:topology|timeline|node:[a-z]\d+|link:[a-z]\d+-[a-z]\d+|chart:[a-zA-Z]+|panel:[a-zA-Z-]+)$/;
export const focusSchema = z.string().regex(focusPattern, 'expected topology, timeline, node:<id>, link:<a>-<b>, chart:<name> or panel:<name>, optionally after "<variant>/"');

export const predictSchema = z
  .object({
    question: text,
    options: z.array(text).min(2).max(4),
    /** Index of the right option (0-based; the presenter keys 1–4 pick options 1-based). */
    answer: z.number().int().min(0),
    reveal: z.object({ when: whenSchema, text }).strict(),
  })
  .strict();

/**
 * A "try it" step: the action the learner should take (a timeline action without its time). If an
 * `interactive` timeline entry of the shown variant matches it, the play-head stops at that entry's
 * time until the learner acts or presses "do it for me"; otherwise it is free play and the lesson's
 * expectations are marked n/a for that run.
 */
export const trySchema = z
  .object({
    action: z.record(z.string(), z.unknown()).refine((a) => typeof a.do === 'string', 'an action needs "do"'),
    hint: text,
  })
  .strict();

/** `sweep`: a metric against an ordered list of variants (L5); `table`: metrics × variants at one time (L3). */
export const chartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sweep'), knob: z.string().min(1), metric: z.string().min(1), at: z.union([nonNeg, z.literal('end')]), variants: z.array(z.string()).min(2) }).strict(),
  z.object({ kind: z.literal('table'), metrics: z.array(z.string().min(1)).min(1), at: z.union([nonNeg, z.literal('end')]), variants: z.array(z.string()).min(1) }).strict(),
]);

export const stepSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_.-]+$/),
    when: whenSchema,
    /** Narration; `{{variant:metric[node]@t}}` placeholders (t = ms, now or end) are live values. */
    text,
    focus: z.union([focusSchema, z.array(focusSchema).min(1)]).optional(),
    /** Pause the play-head when the step fires (predict steps always pause). */
    pause: z.boolean().optional(),
    predict: predictSchema.optional(),
    try: trySchema.optional(),
    chart: chartSchema.optional(),
  })
  .strict();
export type Step = z.infer<typeof stepSchema>;

export const actSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    title: text,
    /** Variant ids on screen, side by side ("base" = the scenario itself). */
    show: z.array(z.string().min(1)).min(1).max(4),
    /** Scrub every shown run back to this time when the act starts. */
    rewindTo: nonNeg.optional(),
    steps: z.array(stepSchema).min(1),
  })
  .strict();
export type Act = z.infer<typeof actSchema>;

/** A popular claim the lesson corrects: quoted verbatim (usually Chinese) with an English rendering. */
export const misconceptionSchema = z
  .object({
    /** The quotation as it appears in the popular answer (original language). */
    quote: z.string().min(1),
    /** Language of the quotation, and its English rendering when it is not English. */
    lang: z.enum(['zh', 'en']),
    quoteEn: z.string().optional(),
    /** Where the claim comes from (e.g. "popular answer A"). */
    source: text,
    correction: text,
  })
  .strict();

export const lessonMetaSchema = z
  .object({
    /** CURRICULUM number (L1…L14) and class time. */
    number: z.number().int().min(1),
    minutes: z.number().positive(),
    prerequisites: z.array(z.string().regex(/^[a-z0-9-]+$/)).default([]),
    goals: z.array(text).min(1),
    misconceptions: z.array(misconceptionSchema).default([]),
    learnMore: z.array(z.object({ cite: z.string().min(1), url: z.url().optional() }).strict()).min(1),
    classroomNote: text.optional(),
    /** L14: the spoken model answer, with placeholders, and the follow-up questions with answers. */
    modelAnswer: text.optional(),
    followUps: z.array(z.object({ question: text, answer: text }).strict()).optional(),
  })
  .strict();
export type LessonMeta = z.infer<typeof lessonMetaSchema>;

/**
 * Comparison expectations (C.7): `than` (another variant) and/or `thanAt` (another time), holding
 * iff actual op factor × other + offset. Shape expectations: over the listed variants in order,
 * "u" holds iff the minimum is strictly inside. A target never reached (null) compares as +∞.
 */
export const comparisonFields = {
  than: z.string().min(1).optional(),
  thanAt: z.union([nonNeg, z.literal('end')]).optional(),
  factor: z.number().finite().optional(),
  offset: z.number().finite().optional(),
};

export const shapeExpectationSchema = z
  .object({
    metric: z.string().min(1),
    node: z.string().optional(),
    at: z.union([nonNeg, z.literal('end')]),
    variants: z.array(z.string().min(1)).min(3),
    shape: z.enum(['u', 'increasing', 'decreasing']),
    tolerance: nonNeg.optional(),
  })
  .strict();

/** Placeholders in narration: {{variant:metric[node]@t}}, variant and node optional, t = ms | now | end. */
export const placeholderPattern = /\{\{(?:([a-z0-9-]+):)?([A-Za-z]+)(?:\[([a-z]\d+)\])?@(\d+(?:\.\d+)?|now|end)\}\}/g;
