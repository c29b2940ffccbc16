import { z } from 'zod/mini';

/**
 * Why a room refused an action, as typed data (each screen says it in its own language; the app's
 * room strings hold EN and 中文). `invalid` carries the action validator's English line and the
 * action itself, which a page checks again to word its problems (app/room/strings.ts).
 */
const short = (n: number) => z.string().check(z.maxLength(n));
/** An action longer than this as JSON is refused with its English line only (no action is nearly this long). */
const MAX_ACTION_JSON = 600;
export const refusalReasonSchema = z.discriminatedUnion('code', [
  z.strictObject({ code: z.literal('watching') }),
  z.strictObject({ code: z.literal('notYourNode'), node: short(12), target: short(12) }),
  z.strictObject({ code: z.literal('notYourLink'), node: short(12), from: short(12), to: short(12) }),
  z.strictObject({ code: z.literal('teacherOnly'), action: short(20) }),
  z.strictObject({ code: z.literal('locked') }),
  z.strictObject({ code: z.literal('staleRun') }),
  z.strictObject({ code: z.literal('notMember') }),
  z.strictObject({ code: z.literal('tooFast'), max: z.int() }),
  z.strictObject({ code: z.literal('runOver') }),
  z.strictObject({ code: z.literal('noLesson') }),
  /** `detail`: the checker's English line; `action`: the refused action's JSON when short, for each page to word in its language. */
  z.strictObject({ code: z.literal('invalid'), detail: short(300), action: z.optional(short(MAX_ACTION_JSON)) }),
]);
export type RefusalReason = z.infer<typeof refusalReasonSchema>;

/** In English, for logs and the teacher's console. */
export function describeRefusal(r: RefusalReason): string {
  switch (r.code) {
    case 'watching':
      return 'no node: every node has a student, this one is watching';
    case 'notYourNode':
      return `node: you can act only on your own node ${r.node}, not ${r.target}`;
    case 'notYourLink':
      return `from/to: you can change only the links of your node ${r.node}, not ${r.from}–${r.to}`;
    case 'teacherOnly':
      return `do: only the teacher can ${r.action}`;
    case 'locked':
      return 'the teacher has locked actions';
    case 'staleRun':
      return 'the lesson changed since the action was sent';
    case 'notMember':
      return 'not a member of this room yet';
    case 'tooFast':
      return `too many actions: at most ${r.max} a second`;
    case 'runOver':
      return 'the run is over';
    case 'noLesson':
      return 'no lesson is loaded';
    case 'invalid':
      return r.detail;
  }
}

/** A refusal of an action that does not check: the English line, and the action as sent where it fits. */
export function invalidRefusal(detail: string, action?: unknown): RefusalReason {
  let json: string | undefined;
  try {
    json = action === undefined ? undefined : JSON.stringify(action);
  } catch {
    json = undefined; // a value JSON cannot write (a cycle, a bigint) is worded by its English line
  }
  return { code: 'invalid', detail: detail.slice(0, 300), ...(json !== undefined && json.length <= MAX_ACTION_JSON ? { action: json } : {}) };
}
