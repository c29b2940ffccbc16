import type { Scenario, TimelineEntry } from '../scenario/schema';
import type { Action } from '../sim/types';
import type { LogEntry, Member, RefusalRecord } from './doc';
import type { RefusalReason } from './refusals';

/**
 * After class (issue 10, point 5): the room's run as an ordinary run file, and what each
 * student did and when.
 */

/** "Ana (w2)" for a student with a node, "Ana" for one watching, "teacher" for the teacher. */
export function whoLabel(who: LogEntry['who']): string {
  if (who.pub === 'teacher') return 'teacher';
  return who.node ? `${who.name} (${who.node})` : who.name;
}

/**
 * The run file: the lesson's scenario with every accepted action appended to its timeline as a
 * user action (`"by": "user"`, `who`) at the time it applied. The engine queues such entries
 * after everything else due at their instant, exactly where each device scheduled them live, and
 * in file order among themselves — the log's order — so the file replays to the room's schedule
 * hash anywhere (`npm run sim -- file.json`).
 */
export function roomRunFile(scenario: Scenario, entries: readonly LogEntry[]): Scenario {
  const added = entries.map((e) => ({ at: e.at, by: 'user', who: whoLabel(e.who), ...e.action }) as TimelineEntry);
  // A stable sort by time: the lesson's own entries keep their places, and the room's follow
  // the lesson's at equal times (the engine queued the lesson's first), in log order. Entries that
  // fire `on` an event (no `at`) keep their order among themselves, first.
  const time = (e: TimelineEntry): number => e.at ?? -1;
  const timeline = [...scenario.timeline, ...added].map((e, i) => ({ e, i })).sort((a, b) => time(a.e) - time(b.e) || a.i - b.i).map((x) => x.e);
  return { ...scenario, timeline };
}

export interface ActivityItem {
  /** Simulated time it applied (accepted) or the teacher's time when it was refused. */
  t: number;
  action: Action | null;
  /** The student's own simulated time when she acted (accepted requests). */
  asked?: number;
  refused?: RefusalReason;
}

export interface MemberActivity {
  pub: string;
  name: string;
  node: string | null;
  online: boolean;
  items: ActivityItem[];
}

/** Per member (in join order, the teacher last): what they did and when, refusals included. */
export function activityByMember(members: readonly Member[], entries: readonly LogEntry[], refused: readonly RefusalRecord[], run: number): MemberActivity[] {
  const rows: MemberActivity[] = members.map((m) => ({ pub: m.pub, name: m.name, node: m.node, online: m.online, items: [] }));
  const teacher: MemberActivity = { pub: 'teacher', name: 'teacher', node: null, online: true, items: [] };
  const byPub = new Map(rows.map((r) => [r.pub, r]));
  for (const e of entries) {
    const row = e.who.pub === 'teacher' ? teacher : byPub.get(e.who.pub);
    row?.items.push({ t: e.at, action: e.action, ...(e.asked !== undefined ? { asked: e.asked } : {}) });
  }
  for (const r of refused) {
    if (r.run !== run) continue;
    byPub.get(r.pub)?.items.push({ t: r.t, action: null, refused: r.reason });
  }
  for (const r of [...rows, teacher]) r.items.sort((a, b) => a.t - b.t);
  return teacher.items.length > 0 ? [...rows, teacher] : rows;
}
