import { z } from 'zod';

/**
 * Why a room refused an action, as typed data (each screen says it in its own language; the app's
 * room strings hold EN and 中文). `invalid` carries the action validator's message, which the app
 * shows as it shows every validation message.
 */
export const refusalReasonSchema = z.discriminatedUnion('code', [
  z.object({ code: z.literal('watching') }).strict(),
  z.object({ code: z.literal('notYourNode'), node: z.string().max(12), target: z.string().max(12) }).strict(),
  z.object({ code: z.literal('notYourLink'), node: z.string().max(12), from: z.string().max(12), to: z.string().max(12) }).strict(),
  z.object({ code: z.literal('teacherOnly'), action: z.string().max(20) }).strict(),
  z.object({ code: z.literal('locked') }).strict(),
  z.object({ code: z.literal('staleRun') }).strict(),
  z.object({ code: z.literal('notMember') }).strict(),
  z.object({ code: z.literal('tooFast'), max: z.number().int() }).strict(),
  z.object({ code: z.literal('runOver') }).strict(),
  z.object({ code: z.literal('noLesson') }).strict(),
  z.object({ code: z.literal('invalid'), detail: z.string().max(300) }).strict(),
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
