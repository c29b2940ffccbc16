import { z } from 'zod/mini';
import { localizedText } from './text';
import { formatMessages, ruleIssue } from './problems';

/**
 * The lesson script of a scenario file (CURRICULUM §C.7–C.8): acts, narration steps, predictions,
 * "try it" steps, charts, and the lesson's metadata (goals, misconceptions it corrects, sources).
 * A scenario without these is still a lesson of one act that plays freely.
 *
 * Steps never change the run: `predict` pauses the play-head, `try` waits for an `interactive`
 * timeline entry the learner (or "do it for me") applies at its scripted time, and stepping back
 * is scrubbing — so hashes and expectations are the same however a lesson is taken.
 */

const text = localizedText(z.string().check(z.minLength(1)));
const nonNeg = z.number().check(z.nonnegative());
const ops = ['==', '!=', '<', '<=', '>', '>='] as const;
const nonEmpty = z.string().check(z.minLength(1));
const atOrEnd = z.union([nonNeg, z.literal('end')]);
const lessonId = z.string().check(z.regex(/^[a-z0-9-]+$/));

/** When a step fires (first match, in its variant's run; `variant` defaults to the act's first shown). */
export const whenSchema = z.union([
  z.strictObject({ at: nonNeg }),
  z.strictObject({ event: nonEmpty, node: z.optional(z.string()), variant: z.optional(z.string()), after: z.optional(nonNeg), nth: z.optional(z.int().check(z.minimum(1))) }),
  z.strictObject({ metric: nonEmpty, node: z.optional(z.string()), variant: z.optional(z.string()), op: z.enum(ops), value: z.number() }),
  z.strictObject({ afterStep: nonEmpty, delayMs: nonNeg }),
  z.strictObject({ end: z.literal(true) }),
]);
export type When = z.infer<typeof whenSchema>;

/**
 * What a step points at: `topology`, `node:<id>`, `link:<a>-<b>`, `chart:<name>`, `panel:<name>`,
 * optionally prefixed by a variant (`async/chart:divergence`). The view highlights it.
 */
export const focusPattern = /^(?:[a-z0-9-]+\/)?(?:topology|timeline|node:[a-z]\d+|link:[a-z]\d+-[a-z]\d+|chart:[a-zA-Z]+|panel:[a-zA-Z-]+)$/;
export const focusSchema = z.string().check(z.regex(focusPattern, formatMessages.focus));

export const predictSchema = z.strictObject({
  question: text,
  options: z.array(text).check(z.minLength(2), z.maxLength(4)),
  /** Index of the right option (0-based; the presenter keys 1–4 pick options 1-based). */
  answer: z.int().check(z.minimum(0)),
  reveal: z.strictObject({ when: whenSchema, text }),
});

/**
 * A "try it" step: the action the learner should take (a timeline action without its time). If an
 * `interactive` timeline entry of the shown variant matches it, the play-head stops at that entry's
 * time until the learner acts or presses "do it for me"; otherwise it is free play and the lesson's
 * expectations are marked n/a for that run.
 */
export const trySchema = z.strictObject({
  action: z.record(z.string(), z.unknown()).check(z.refine((a) => typeof a.do === 'string', ruleIssue({ kind: 'actionNeedsDo' }))),
  hint: text,
});

/** `sweep`: a metric against an ordered list of variants (L5); `table`: metrics × variants at one time (L3). */
export const chartSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('sweep'), knob: nonEmpty, metric: nonEmpty, at: atOrEnd, variants: z.array(z.string()).check(z.minLength(2)) }),
  z.strictObject({ kind: z.literal('table'), metrics: z.array(nonEmpty).check(z.minLength(1)), at: atOrEnd, variants: z.array(z.string()).check(z.minLength(1)) }),
]);

export const stepSchema = z.strictObject({
  id: z.string().check(z.regex(/^[A-Za-z0-9_.-]+$/)),
  when: whenSchema,
  /** Narration; `{{variant:metric[node]@t}}` placeholders (t = ms, now or end) are live values. */
  text,
  focus: z.optional(z.union([focusSchema, z.array(focusSchema).check(z.minLength(1))])),
  /** Pause the play-head when the step fires (predict steps always pause). */
  pause: z.optional(z.boolean()),
  predict: z.optional(predictSchema),
  try: z.optional(trySchema),
  chart: z.optional(chartSchema),
});
export type Step = z.infer<typeof stepSchema>;

export const actSchema = z.strictObject({
  id: lessonId,
  title: text,
  /** Variant ids on screen, side by side ("base" = the scenario itself). */
  show: z.array(nonEmpty).check(z.minLength(1), z.maxLength(4)),
  /** Scrub every shown run back to this time when the act starts. */
  rewindTo: z.optional(nonNeg),
  steps: z.array(stepSchema).check(z.minLength(1)),
});
export type Act = z.infer<typeof actSchema>;

/** A popular claim the lesson corrects: quoted verbatim (usually Chinese) with an English rendering. */
export const misconceptionSchema = z.strictObject({
  /** The quotation as it appears in the popular answer (original language). */
  quote: nonEmpty,
  /** Language of the quotation, and its English rendering when it is not English. */
  lang: z.enum(['zh', 'en']),
  quoteEn: z.optional(z.string()),
  /** Where the claim comes from (e.g. "popular answer A"). */
  source: text,
  correction: text,
});

export const lessonMetaSchema = z.strictObject({
  /** CURRICULUM number (L1…L14) and class time. */
  number: z.int().check(z.minimum(1)),
  minutes: z.number().check(z.positive()),
  prerequisites: z._default(z.array(lessonId), []),
  goals: z.array(text).check(z.minLength(1)),
  misconceptions: z._default(z.array(misconceptionSchema), []),
  learnMore: z.array(z.strictObject({ cite: nonEmpty, url: z.optional(z.url()) })).check(z.minLength(1)),
  classroomNote: z.optional(text),
  /** L14: the spoken model answer, with placeholders, and the follow-up questions with answers. */
  modelAnswer: z.optional(text),
  followUps: z.optional(z.array(z.strictObject({ question: text, answer: text }))),
});
export type LessonMeta = z.infer<typeof lessonMetaSchema>;

/**
 * Comparison expectations (C.7): `than` (another variant) and/or `thanAt` (another time), holding
 * iff actual op factor × other + offset. Shape expectations: over the listed variants in order,
 * "u" holds iff the minimum is strictly inside. A target never reached (null) compares as +∞.
 */
export const comparisonFields = {
  than: z.optional(nonEmpty),
  thanAt: z.optional(atOrEnd),
  factor: z.optional(z.number()),
  offset: z.optional(z.number()),
};

export const shapeExpectationSchema = z.strictObject({
  metric: nonEmpty,
  node: z.optional(z.string()),
  at: atOrEnd,
  variants: z.array(nonEmpty).check(z.minLength(3)),
  shape: z.enum(['u', 'increasing', 'decreasing']),
  tolerance: z.optional(nonNeg),
});

/** Placeholders in narration: {{variant:metric[node]@t}}, variant and node optional, t = ms | now | end. */
export const placeholderPattern = /\{\{(?:([a-z0-9-]+):)?([A-Za-z]+)(?:\[([a-z]\d+)\])?@(\d+(?:\.\d+)?|now|end)\}\}/g;
