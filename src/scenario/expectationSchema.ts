import './zodConfig'; // the same parser everywhere (the engine worker's entry imports it before anything else)
import { z } from 'zod/mini';
import { comparisonFields } from './lesson';
import { metricNames } from './metricNames';
import { ruleIssue } from './problems';
import { nodeId, nonNeg } from './schemaFields';

/**
 * A scenario's expectations (part of schema.ts): a metric compared with a fixed number, or — for
 * a lesson — with the same metric in another variant or at another time.
 */

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
        ctx.addIssue({ code: 'custom', path: ['value'], ...ruleIssue({ kind: 'valueMissing' }) });
      }
      if (comparison && e.value !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['value'], ...ruleIssue({ kind: 'comparisonValue' }) });
      }
      if (!comparison) {
        for (const k of ['factor', 'offset'] as const) {
          if (e[k] !== undefined) ctx.addIssue({ code: 'custom', path: [k], ...ruleIssue({ kind: 'comparisonOnly', field: k }) });
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

export type Expectation = z.infer<typeof expectationSchema>;
