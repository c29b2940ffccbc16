import './zodConfig'; // the same parser everywhere (the engine worker's entry imports it before anything else)
import { z } from 'zod/mini';
import { byzantineAttacks, tamperAttacks, type ActionKind } from '../sim/types';
import { actionNode, intBetween, nodeId, nonNeg, positive, positiveMax, prob, workerId } from './schemaFields';

/**
 * The actions' zod schemas (part of schema.ts; the action table in actions.ts describes the same
 * kinds for the UI), and a scenario's timeline: an action plus when it fires.
 */

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

export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export type TimelineTrigger = z.infer<typeof triggerSchema>;

/** Keys of each action's schema except `do` (the action table's consistency test: each is a field of its row). */
export function schemaFieldNames(kind: ActionKind): string[] {
  return Object.keys(actionSchemas[kind].shape).filter((k) => k !== 'do');
}
