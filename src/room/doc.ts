import * as Y from 'yjs';
import { z } from 'zod/mini';
import { formatIssues } from '../scenario/issues';
import { parseAction } from '../scenario/parseAction';
import { clusterNodeIds } from '../scenario/nodes';
import type { Scenario } from '../scenario/schema';
import { validateScenario } from '../scenario/validate';
import type { Action } from '../sim/types';
import { PUBLIC_ID_PATTERN } from './names';
import { refusalReasonSchema } from './refusals';
import type { RoomClock } from './rules';

/**
 * The room document's shape (CONTRACTS §5 "Live room") and the one place that reads it.
 * Everything a device takes from a document passes the zod schemas below — the same action
 * schema and node checks as scenario files — so a malformed or hostile value is dropped with a
 * logged reason and never reaches a simulation.
 *
 * Room document `CODE` (written by the teacher's device only; the server enforces it):
 *   Y.Map   "room"     schema: 1, run, scenario (a schema-1 scenario), locked, clock (RoomClock)
 *   Y.Array "log"      the run's accepted actions in order: LogEntry
 *   Y.Map   "members"  public id → Member
 *   Y.Map   "seen"     public id → the last request id the teacher has decided on
 *   Y.Map   "replies"  public id → the answer to that request (Reply)
 *   Y.Array "refused"  RefusalRecord (the last few hundred), reasons as typed data
 *   Y.Array "archive"  earlier runs of this room, each as a run file (Scenario)
 * Inbox `CODE/in/<pub>` (written by that student's device only):
 *   Y.Map   "hello"    name
 *   Y.Array "requests" Request
 * Lobby `CODE/lobby` (written by the server): Y.Map "clients" public id → arrival order.
 */

export const ROOM_SCHEMA = 1;

const intMin = (n: number) => z.int().check(z.minimum(n));
const nonNeg = z.number().check(z.minimum(0));
const nodeId = z.string().check(z.regex(/^[wsb]\d+$/));
const pubOrTeacher = z.union([z.string().check(z.regex(PUBLIC_ID_PATTERN)), z.literal('teacher')]);
const shortName = z.string().check(z.minLength(1), z.maxLength(40));
/** Names are shown on a projector: one line, printable, short. */
export const nameSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'a name needs at least one character'),
    z.maxLength(40, 'a name has at most 40 characters'),
    z.regex(/^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+$/u, 'a name cannot hold control characters'),
  );

export const whoSchema = z.strictObject({ pub: pubOrTeacher, name: shortName, node: z.nullable(nodeId) });
export type Who = z.infer<typeof whoSchema>;

export const logEntrySchema = z.strictObject({
  run: intMin(1),
  seq: intMin(1),
  at: intMin(0),
  action: z.unknown(),
  who: whoSchema,
  /** The student's request id, and her simulated time when she asked. */
  req: z.optional(intMin(1)),
  asked: z.optional(nonNeg),
});
export type LogEntry = Omit<z.infer<typeof logEntrySchema>, 'action'> & { action: Action };

export const memberSchema = z.strictObject({ name: shortName, node: z.nullable(nodeId), order: intMin(1), online: z.boolean() });
export type Member = z.infer<typeof memberSchema> & { pub: string };

export const clockSchema = z.strictObject({
  run: intMin(1),
  now: nonNeg,
  horizon: nonNeg,
  running: z.boolean(),
  speed: z.union([z.number().check(z.positive(), z.maximum(1000)), z.literal('max')]),
});

export const requestSchema = z.strictObject({ id: intMin(1), run: intMin(1), action: z.unknown(), asked: nonNeg });
export type Request = z.infer<typeof requestSchema>;

export const replySchema = z.strictObject({ id: intMin(1), ok: z.boolean(), reason: z.optional(refusalReasonSchema), at: z.optional(intMin(0)) });
export type Reply = z.infer<typeof replySchema>;

export const refusalRecordSchema = z.strictObject({ run: intMin(0), pub: z.string().check(z.regex(PUBLIC_ID_PATTERN)), req: intMin(0), t: nonNeg, reason: refusalReasonSchema });
export type RefusalRecord = z.infer<typeof refusalRecordSchema>;

/** One problem with a value read from a document: where, and what. */
export type Problem = string;

/** The issues of a failed parse, in the wording of scenario files (`field: problem`, joined by "; "). */
function issues(e: { issues: readonly z.core.$ZodIssue[] }): string {
  return formatIssues(e.issues, { root: '(value)' }).join('; ');
}
/** Parse options that keep each issue's input, so a message can say what was given. */
const withInput = { reportInput: true };

// ---------------------------------------------------------------- typed handles on a Y.Doc

export interface RoomTypes {
  room: Y.Map<unknown>;
  log: Y.Array<unknown>;
  members: Y.Map<unknown>;
  seen: Y.Map<unknown>;
  replies: Y.Map<unknown>;
  refused: Y.Array<unknown>;
  archive: Y.Array<unknown>;
}

export function roomTypes(doc: Y.Doc): RoomTypes {
  return {
    room: doc.getMap('room'),
    log: doc.getArray('log'),
    members: doc.getMap('members'),
    seen: doc.getMap('seen'),
    replies: doc.getMap('replies'),
    refused: doc.getArray('refused'),
    archive: doc.getArray('archive'),
  };
}

export interface InboxTypes {
  hello: Y.Map<unknown>;
  requests: Y.Array<unknown>;
}

/**
 * An inbox is written by a student's device, so its root types may have been made as anything:
 * a type clash is reported, not thrown.
 */
export function inboxTypes(doc: Y.Doc): InboxTypes | Problem {
  try {
    return { hello: doc.getMap('hello'), requests: doc.getArray('requests') };
  } catch (e) {
    return `inbox: ${e instanceof Error ? e.message : String(e)}`;
  }
}

// ---------------------------------------------------------------- reading the room document

/** What a device reads from the room document, every value checked. */
export interface RoomView {
  run: number;
  scenario: Scenario | null;
  locked: boolean;
  clock: RoomClock | null;
  /** The current run's accepted actions, in order (entries of other runs are left out). */
  entries: LogEntry[];
  members: Member[];
  replies: Map<string, Reply>;
  refused: RefusalRecord[];
  /** Values that failed their schema, with the reason (logged by the caller, never used). */
  problems: Problem[];
}

/**
 * Validation results are cached per stored value: a Y.Map/Y.Array hands back the same object
 * for the same stored value, so re-reading after every update costs a lookup, not a parse.
 */
const scenarioCache = new WeakMap<object, { ok: true; scenario: Scenario } | { ok: false; error: string }>();
const entryCache = new WeakMap<object, { ok: true; entry: LogEntry } | { ok: false; error: string }>();

export function checkScenario(value: unknown): { ok: true; scenario: Scenario } | { ok: false; error: string } {
  if (typeof value !== 'object' || value === null) return { ok: false, error: 'room.scenario: not a scenario object' };
  const hit = scenarioCache.get(value);
  if (hit) return hit;
  const r = validateScenario(value);
  const out = r.ok ? { ok: true as const, scenario: r.scenario } : { ok: false as const, error: `room.scenario: ${r.errors.join('; ')}` };
  scenarioCache.set(value, out);
  return out;
}

/** A log entry: its shape, then its action with the action table's schema and the lesson's nodes. */
export function checkEntry(value: unknown, nodeIds: readonly string[]): { ok: true; entry: LogEntry } | { ok: false; error: string } {
  if (typeof value !== 'object' || value === null) return { ok: false, error: 'log entry: not an object' };
  const hit = entryCache.get(value);
  if (hit) return hit;
  let out: { ok: true; entry: LogEntry } | { ok: false; error: string };
  const shape = logEntrySchema.safeParse(value, withInput);
  if (!shape.success) out = { ok: false, error: `log entry: ${issues(shape.error)}` };
  else {
    const action = parseAction(shape.data.action, nodeIds);
    out = action.ok ? { ok: true, entry: { ...shape.data, action: action.action } } : { ok: false, error: `log entry ${shape.data.seq}: action: ${action.error}` };
  }
  entryCache.set(value, out);
  return out;
}

export function readRoom(doc: Y.Doc): RoomView {
  const t = roomTypes(doc);
  const problems: Problem[] = [];
  const runRaw = t.room.get('run');
  const run = typeof runRaw === 'number' && Number.isInteger(runRaw) && runRaw >= 1 ? runRaw : 0;
  if (runRaw !== undefined && run === 0) problems.push(`room.run: ${JSON.stringify(runRaw)} is not a run number`);

  let scenario: Scenario | null = null;
  const scRaw = t.room.get('scenario');
  if (scRaw !== undefined) {
    const r = checkScenario(scRaw);
    if (r.ok) scenario = r.scenario;
    else problems.push(r.error);
  }
  const nodeIds = scenario ? nodeIdsOf(scenario) : [];

  let clock: RoomClock | null = null;
  const clockRaw = t.room.get('clock');
  if (clockRaw !== undefined) {
    const r = clockSchema.safeParse(clockRaw, withInput);
    if (r.success && r.data.run === run) clock = r.data;
    else if (!r.success) problems.push(`room.clock: ${issues(r.error)}`);
  }

  const entries: LogEntry[] = [];
  if (scenario) {
    for (const raw of t.log.toArray()) {
      const r = checkEntry(raw, nodeIds);
      if (!r.ok) {
        problems.push(r.error);
        continue;
      }
      if (r.entry.run !== run) continue;
      const prev = entries[entries.length - 1];
      // The order is the teacher's: each entry follows the previous one in seq and time.
      if (prev && (r.entry.seq <= prev.seq || r.entry.at < prev.at)) {
        problems.push(`log entry ${r.entry.seq}: out of order after entry ${prev.seq} (at ${r.entry.at} < ${prev.at} or seq not increasing)`);
        continue;
      }
      entries.push(r.entry);
    }
  }

  const members: Member[] = [];
  for (const [pub, raw] of t.members.entries()) {
    const r = memberSchema.safeParse(raw, withInput);
    if (!PUBLIC_ID_PATTERN.test(pub)) problems.push(`members: "${pub.slice(0, 20)}" is not a public id`);
    else if (!r.success) problems.push(`members.${pub}: ${issues(r.error)}`);
    else members.push({ pub, ...r.data });
  }
  members.sort((a, b) => a.order - b.order);

  const replies = new Map<string, Reply>();
  for (const [pub, raw] of t.replies.entries()) {
    const r = replySchema.safeParse(raw);
    if (r.success) replies.set(pub, r.data);
  }
  const refused: RefusalRecord[] = [];
  for (const raw of t.refused.toArray()) {
    const r = refusalRecordSchema.safeParse(raw);
    if (r.success) refused.push(r.data);
  }

  const locked = t.room.get('locked') === true;
  return { run, scenario, locked, clock, entries, members, replies, refused, problems };
}

export function nodeIdsOf(sc: Scenario): string[] {
  return clusterNodeIds(sc.cluster);
}

// ---------------------------------------------------------------- an inbox

export interface InboxView {
  name: string | null;
  /** Requests after `after`, in id order, each checked; bad ones carry their reason. */
  requests: Array<{ ok: true; request: Request } | { ok: false; id: number; error: string }>;
  problems: Problem[];
}

/** Reads a student's inbox: the requests with an id above `after`. */
export function readInbox(doc: Y.Doc, after: number): InboxView {
  const types = inboxTypes(doc);
  if (typeof types === 'string') return { name: null, requests: [], problems: [types] };
  const problems: Problem[] = [];
  const nameRaw = types.hello.get('name');
  let name: string | null = null;
  if (nameRaw !== undefined) {
    const r = nameSchema.safeParse(nameRaw, withInput);
    if (r.success) name = r.data;
    else problems.push(`hello.name: ${issues(r.error)}`);
  }
  const requests: InboxView['requests'] = [];
  let last = after;
  for (const raw of types.requests.toArray()) {
    const r = requestSchema.safeParse(raw, withInput);
    if (!r.success) {
      // A request without a readable id cannot be answered; the ones around it still can.
      const id = typeof raw === 'object' && raw !== null && 'id' in raw && Number.isInteger((raw as { id: unknown }).id) ? (raw as { id: number }).id : -1;
      if (id > last) {
        requests.push({ ok: false, id, error: `request: ${issues(r.error)}` });
        last = id;
      } else if (id === -1) problems.push(`request: ${issues(r.error)}`);
      continue;
    }
    if (r.data.id <= last) continue; // decided already, or out of order (ids only grow)
    requests.push({ ok: true, request: r.data });
    last = r.data.id;
  }
  return { name, requests, problems };
}
