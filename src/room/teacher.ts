import type * as Y from 'yjs';
import { parseAction } from '../scenario/parseAction';
import type { Scenario } from '../scenario/schema';
import type { Action } from '../sim/types';
import { inboxTypes, nodeIdsOf, readInbox, readRoom, roomTypes, ROOM_SCHEMA, type LogEntry, type RoomTypes, type RoomView, type Who } from './doc';
import { roomRunFile } from './export';
import { describeRefusal, invalidRefusal, type RefusalReason } from './refusals';
import { applyTime, assignNodes, leadMs, needsClock, RateLimit, studentRefusal, type RoomClock } from './rules';

/**
 * The teacher's device owns the room's order (issue 10, "Lockstep, not streaming"): it reads each
 * student's inbox, decides on every request — the same schemas as scenario files, then the room's
 * rules (her own node and its links, not locked, not too fast) — and appends the accepted ones to
 * the room document's log with the simulated time they apply at: the teacher's now plus a lead,
 * never before the horizon it has published. Every device, the teacher's included, schedules the
 * log's entries; nothing else reaches a simulation. Plain Yjs and pure rules: the browser and the
 * Node load test run this same class.
 */

export interface TeacherDeps {
  doc: Y.Doc;
  /** The teacher's simulated now (0 before a run is loaded). */
  now: () => number;
  /** Wall clock in ms, for the rate limit only. */
  wall: () => number;
  /** Where rejected requests and bad values are reported (a console on the teacher's device). */
  log: (line: string) => void;
}

export type ActResult = { ok: true; at: number; seq: number } | { ok: false; reason: RefusalReason };

export const TEACHER: Who = { pub: 'teacher', name: 'teacher', node: null };
/** A student may send this many actions per second; more are refused, so one cannot flood the log. */
const MAX_PER_SECOND = 5;
const KEEP_REFUSED = 300;
const KEEP_ARCHIVE = 20;

export class TeacherRoom {
  private readonly types: RoomTypes;
  private readonly limit = new RateLimit(MAX_PER_SECOND, 1000);
  /** Reasons already logged (a bad value is re-read on every update; log it once). */
  private readonly logged = new Set<string>();

  constructor(private readonly deps: TeacherDeps) {
    this.types = roomTypes(deps.doc);
  }

  view(): RoomView {
    return readRoom(this.deps.doc);
  }

  private transact(fn: () => void): void {
    this.deps.doc.transact(fn, 'teacher');
  }

  private logOnce(line: string): void {
    if (this.logged.has(line)) return;
    this.logged.add(line);
    this.deps.log(line);
  }

  /**
   * Opens a new run of `scenario` for everyone (a lesson switch, a rewind, the first lesson): the
   * current run goes to the archive as a run file, the log empties, and every member gets a node
   * of the new cluster (keeping hers where it still exists). Returns the new run's number.
   */
  newRun(scenario: Scenario, state: { running: boolean; speed: number | 'max' }): number {
    const before = this.view();
    const run = before.run + 1;
    const nodes = nodeIdsOf(scenario);
    this.transact(() => {
      if (before.scenario && (before.entries.length > 0 || (before.clock?.now ?? 0) > 0)) {
        this.types.archive.push([JSON.parse(JSON.stringify(roomRunFile(before.scenario, before.entries)))]);
        if (this.types.archive.length > KEEP_ARCHIVE) this.types.archive.delete(0, this.types.archive.length - KEEP_ARCHIVE);
      }
      this.types.log.delete(0, this.types.log.length);
      this.types.room.set('schema', ROOM_SCHEMA);
      this.types.room.set('run', run);
      // Stored as plain JSON: every device validates it again before it builds a simulation.
      this.types.room.set('scenario', JSON.parse(JSON.stringify(scenario)));
      const clock: RoomClock = { run, now: 0, horizon: Math.min(scenario.durationMs, leadMs(state.speed)), running: state.running, speed: state.speed };
      this.types.room.set('clock', clock);
      this.reassign(before.members, nodes);
    });
    return run;
  }

  private reassign(members: RoomView['members'], nodes: string[]): void {
    const assigned = assignNodes(members, nodes);
    for (const m of members) {
      const node = assigned.get(m.pub) ?? null;
      if (node !== m.node) this.types.members.set(m.pub, { name: m.name, node, order: m.order, online: m.online });
    }
  }

  setLocked(locked: boolean): void {
    this.transact(() => this.types.room.set('locked', locked));
  }

  /**
   * Publishes the clock when the horizon runs short or the state changed (see needsClock).
   * Called on every frame of the teacher's page.
   */
  tick(state: { now: number; running: boolean; speed: number | 'max' }): RoomClock | null {
    const v = this.view();
    if (!v.scenario || v.run === 0) return null;
    const next = needsClock(v.clock, { run: v.run, ...state }, leadMs(state.speed), v.scenario.durationMs);
    if (next) this.transact(() => this.types.room.set('clock', next));
    return next;
  }

  /** The teacher's own action: no node rule, the same ordering. */
  act(input: unknown): ActResult {
    const v = this.view();
    if (!v.scenario) return { ok: false, reason: { code: 'noLesson' } };
    const parsed = parseAction(input, nodeIdsOf(v.scenario));
    if (!parsed.ok) return { ok: false, reason: invalidRefusal(parsed.error, input) };
    let result: ActResult = { ok: false, reason: { code: 'noLesson' } };
    this.transact(() => {
      result = this.place(v, parsed.action, TEACHER);
    });
    return result;
  }

  /** Appends an accepted action to the log at its time; must run inside a transaction. */
  private place(v: RoomView, action: Action, who: Who, req?: { id: number; asked: number }): ActResult {
    if (!v.scenario) return { ok: false, reason: { code: 'noLesson' } };
    const clock = v.clock;
    const last = v.entries[v.entries.length - 1];
    const horizon = Math.max(clock?.horizon ?? 0, last?.at ?? 0);
    const at = applyTime(this.deps.now(), leadMs(clock?.speed ?? 1), horizon, v.scenario.durationMs);
    if (at === null) return { ok: false, reason: { code: 'runOver' } };
    const seq = (last?.seq ?? 0) + 1;
    const entry: Omit<LogEntry, 'action'> & { action: Action } = { run: v.run, seq, at, action, who, ...(req ? { req: req.id, asked: req.asked } : {}) };
    this.types.log.push([JSON.parse(JSON.stringify(entry))]);
    // The horizon moves with the action, so a later request never lands before this one. The
    // clock's now moves too: devices extrapolate from it when it arrives.
    if (clock && at > clock.horizon) {
      const next = { ...clock, now: Math.max(clock.now, this.deps.now()), horizon: at };
      this.types.room.set('clock', next);
      v.clock = next;
    }
    v.entries.push(entry);
    return { ok: true, at, seq };
  }

  /**
   * A student joined or reappeared (from the lobby): make her a member, or update her name and
   * presence. A newcomer gets a free node of the lesson.
   */
  admit(pub: string, order: number, name: string | null, online: boolean): void {
    const v = this.view();
    const m = v.members.find((x) => x.pub === pub);
    const shown = name ?? m?.name ?? `student ${order}`;
    if (m && m.name === shown && m.online === online) return;
    this.transact(() => {
      if (m) {
        this.types.members.set(pub, { name: shown, node: m.node, order: m.order, online });
        return;
      }
      const all = [...v.members, { pub, name: shown, node: null, order, online }];
      const assigned = v.scenario ? assignNodes(all, nodeIdsOf(v.scenario)) : new Map<string, string | null>();
      this.types.members.set(pub, { name: shown, node: assigned.get(pub) ?? null, order, online });
    });
  }

  /** Decides on every request in `pub`'s inbox that has not been decided yet. */
  processInbox(pub: string, inbox: Y.Doc): void {
    const seenRaw = this.types.seen.get(pub);
    const after = typeof seenRaw === 'number' ? seenRaw : 0;
    const types = inboxTypes(inbox);
    if (typeof types === 'string') {
      this.logOnce(`room: inbox of ${pub} ignored: ${types}`);
      return;
    }
    const read = readInbox(inbox, after);
    for (const p of read.problems) this.logOnce(`room: inbox of ${pub}: ${p}`);
    const known = this.view().members.find((m) => m.pub === pub);
    if (read.name && known && read.name !== known.name) this.admit(pub, known.order, read.name, known.online);
    if (read.requests.length === 0) return;
    const v = this.view();
    const member = v.members.find((m) => m.pub === pub);
    const who = (): Who => ({ pub, name: member?.name ?? pub, node: member?.node ?? null });
    this.transact(() => {
      let refusedNow = 0;
      for (const r of read.requests) {
        const id = r.ok ? r.request.id : r.id;
        const reason: RefusalReason | null = r.ok ? this.refusal(v, pub, member?.node ?? null, member !== undefined, r.request) : invalidRefusal(r.error);
        if (reason !== null) {
          this.types.seen.set(pub, id);
          this.types.replies.set(pub, { id, ok: false, reason });
          // A flood is decided (so it is not read again) but only its first refusals are kept.
          if (++refusedNow <= 20) {
            this.types.refused.push([{ run: v.run, pub, req: Math.max(0, id), t: this.deps.now(), reason }]);
            this.deps.log(`room: refused request ${id} from ${member?.name ?? '?'} (${pub}): ${describeRefusal(reason)}`);
          }
          continue;
        }
        const req = (r as { ok: true; request: { id: number; action: unknown; asked: number } }).request;
        const action = parseAction(req.action, nodeIdsOf(v.scenario!));
        const placed: ActResult = action.ok ? this.place(v, action.action, who(), { id: req.id, asked: req.asked }) : { ok: false, reason: invalidRefusal(action.error, req.action) };
        this.types.seen.set(pub, id);
        this.types.replies.set(pub, placed.ok ? { id, ok: true, at: placed.at } : { id, ok: false, reason: placed.reason });
        if (!placed.ok) this.deps.log(`room: refused request ${id} from ${member?.name ?? '?'} (${pub}): ${describeRefusal(placed.reason)}`);
      }
      if (this.types.refused.length > KEEP_REFUSED) this.types.refused.delete(0, this.types.refused.length - KEEP_REFUSED);
    });
  }

  /** Why a well-formed request is refused (null: accept). */
  private refusal(v: RoomView, pub: string, node: string | null, member: boolean, req: { id: number; run: number; action: unknown }): RefusalReason | null {
    if (!member) return { code: 'notMember' };
    if (!v.scenario) return { code: 'noLesson' };
    if (req.run !== v.run) return { code: 'staleRun' };
    if (v.locked) return { code: 'locked' };
    const parsed = parseAction(req.action, nodeIdsOf(v.scenario));
    if (!parsed.ok) return invalidRefusal(parsed.error, req.action);
    const rule = studentRefusal(parsed.action, node);
    if (rule) return rule;
    if (!this.limit.allow(pub, this.deps.wall())) return { code: 'tooFast', max: MAX_PER_SECOND };
    return null;
  }
}
