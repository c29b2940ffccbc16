import { spawn, type ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import { scenarioSchema, type Scenario } from '../../scenario/schema';
import { openInbox, openRoomDoc, type OpenDoc, type RoomLink } from '../connect';
import { readRoom, type LogEntry } from '../doc';
import { RoomFollower } from '../follower';
import { watchLobby } from '../lobby';
import { docNames, publicIdOf } from '../names';
import { StudentInbox } from '../student';
import { TeacherRoom } from '../teacher';

/**
 * The 40-student load test (issue 10, "40 students on one laptop's server stay responsive"): the
 * real classroom server in its own process, a teacher device and N student devices in this one,
 * every one speaking the real Yjs protocol over y-websocket — the same TeacherRoom, inbox and
 * follower code the pages run, with a clock instead of a simulation. Each student acts a few
 * times on her own node; a hostile client meanwhile tries to write the room and sends garbage.
 * Bounded: a fixed number of actions, a deadline, only 127.0.0.1.
 *
 * Per action it measures, in wall ms from the student's request:
 * - order:   until the teacher's device has placed it in the log;
 * - deliver: until every device has it;
 * - screen:  until every device's clock has reached its time (it is on every screen).
 */

export interface LoadOptions {
  students: number;
  actionsEach: number;
  /** Wall ms over which each student spreads her actions. */
  spreadMs: number;
  speed: number;
  deadlineMs: number;
  log?: (line: string) => void;
}

export interface Stats {
  n: number;
  median: number;
  p95: number;
  max: number;
}

export interface LoadResult {
  students: number;
  actions: number;
  accepted: number;
  refused: number;
  /** Refusals by reason code (an honest class should have none). */
  refusedWhy: Record<string, number>;
  order: Stats;
  deliver: Stats;
  screen: Stats;
  /** Devices whose log differed from the teacher's at the end (must be 0). */
  diverged: number;
  /** Messages the server dropped from the hostile client (logged reasons). */
  serverDrops: number;
  wallMs: number;
}

export function stats(xs: readonly number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => (s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]);
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s.length ? s[s.length - 1] : NaN };
}

/** Starts `npm run classroom`'s server entry on a free port; resolves with its URLs. */
async function startServer(log: (l: string) => void): Promise<{ child: ChildProcess; origin: string; code: string; key: string; lines: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/room/server/main.ts', '--port', '0', '--dist', 'no-dist-for-the-load-test'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  child.stderr!.on('data', (b: Buffer) => {
    for (const l of b.toString().split('\n').filter(Boolean)) {
      lines.push(l);
      if (!l.includes('has no built app')) log(`server: ${l}`);
    }
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the room server did not start:\n${out}\n${lines.join('\n')}`)), 30_000);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /Teacher[^:]*: (http:\/\/[^/]+)\/\?room=([A-Z0-9]+)&role=teacher&key=([0-9a-f]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, origin: m[1], code: m[2], key: m[3], lines });
      }
    });
    child.once('exit', (c) => reject(new Error(`the room server exited (${c}):\n${lines.join('\n')}`)));
  });
}

const until = async (cond: () => boolean, deadline: number, what: string): Promise<void> => {
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`load test: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

interface Device {
  name: string;
  follower: RoomFollower;
  /** key `pub:req` → wall ms the entry arrived / reached the screen. */
  arrived: Map<string, number>;
  shown: Map<string, number>;
  pending: LogEntry[];
  docs: OpenDoc[];
}

const keyOf = (e: LogEntry): string => `${e.who.pub}:${e.req ?? `t${e.seq}`}`;

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const log = opts.log ?? (() => undefined);
  const started = Date.now();
  // y-websocket registers an exit handler per connection in Node; this process holds ~3 per student.
  process.setMaxListeners(Math.max(process.getMaxListeners(), 4 * opts.students + 20));
  const deadline = started + opts.deadlineMs;
  const server = await startServer(log);
  const devices: Device[] = [];
  const cleanup: Array<() => void> = [];
  try {
    const teacherLink: RoomLink = { origin: server.origin, code: server.code, credentials: { role: 'teacher', key: server.key }, WebSocket };
    const lesson: Scenario = scenarioSchema.parse({ schema: 1, id: 'load', seed: 1, durationMs: 600_000, cluster: { workers: opts.students, servers: 1 }, strategy: { kind: 'ps-async' } });

    // The teacher's device: its clock is wall time × speed once the class starts.
    let t0: number | null = null;
    const now = (): number => (t0 === null ? 0 : (Date.now() - t0) * opts.speed);
    const room = openRoomDoc(teacherLink, { role: 'teacher' });
    cleanup.push(() => room.destroy());
    await room.synced;
    const teacher = new TeacherRoom({ doc: room.doc, now, wall: () => Date.now(), log });
    const placed = new Map<string, number>();
    room.doc.on('update', () => {
      for (const e of readRoom(room.doc).entries) if (!placed.has(keyOf(e))) placed.set(keyOf(e), Date.now());
    });
    teacher.newRun(lesson, { running: true, speed: opts.speed });
    const lobby = watchLobby(teacherLink, teacher);
    cleanup.push(() => lobby.destroy());

    const device = (name: string, doc: OpenDoc): Device => {
      const d: Device = { name, arrived: new Map(), shown: new Map(), pending: [], docs: [doc], follower: null as unknown as RoomFollower };
      d.follower = new RoomFollower(doc.doc, { load: async () => true, schedule: (e) => (d.arrived.set(keyOf(e), Date.now()), d.pending.push(e), Promise.resolve(null)) }, { wall: () => Date.now(), log });
      d.follower.update();
      devices.push(d);
      return d;
    };
    device('teacher', room);

    // The students: an inbox each (her name), the room document (read-only), a follower.
    const inboxes: StudentInbox[] = [];
    const pubs: string[] = [];
    for (let i = 0; i < opts.students; i++) {
      const cid = (i + 1).toString(16).padStart(32, '0');
      const link: RoomLink = { origin: server.origin, code: server.code, credentials: { role: 'student', cid }, WebSocket };
      const inbox = openInbox(link, publicIdOf(cid), true);
      const doc = openRoomDoc(link);
      cleanup.push(() => inbox.destroy(), () => doc.destroy());
      await inbox.synced;
      const s = new StudentInbox(inbox.doc);
      s.setName(`student-${i + 1}`);
      inboxes.push(s);
      pubs.push(publicIdOf(cid));
      device(`student-${i + 1}`, doc);
    }
    await until(() => readRoom(room.doc).members.filter((m) => m.node !== null).length === opts.students, deadline, 'every student to get a node');
    await until(() => devices.every((d) => d.follower.view.members.length === opts.students), deadline, 'every device to see the members');

    // A hostile client: it writes the room document and sends bytes that are not the protocol.
    const hostile = new WebSocket(`${server.origin.replace('http', 'ws')}/yjs/${docNames.room(server.code)}?cid=${'f'.repeat(32)}`);
    cleanup.push(() => hostile.close());
    await new Promise((r) => hostile.once('open', r));
    const evil = openRoomDoc({ origin: server.origin, code: server.code, credentials: { role: 'student', cid: 'e'.repeat(32) }, WebSocket });
    cleanup.push(() => evil.destroy());
    await evil.synced;

    // Every device's screen: its clock follows the teacher's; an entry is shown once reached.
    const frame = setInterval(() => {
      const wall = Date.now();
      for (const d of devices) {
        const target = d.name === 'teacher' ? now() : d.follower.target();
        d.pending = d.pending.filter((e) => {
          if (e.at > target) return true;
          d.shown.set(keyOf(e), wall);
          return false;
        });
      }
    }, 16);
    cleanup.push(() => clearInterval(frame));
    const clock = setInterval(() => teacher.tick({ now: now(), running: true, speed: opts.speed }), 16);
    cleanup.push(() => clearInterval(clock));
    t0 = Date.now();

    // The actions: each student slows her own node and back, spread over spreadMs. Her node is the
    // one the teacher assigned (by the order the lobby admitted her, which load can shuffle), not w<i>.
    const asked = new Map<string, number>();
    const timers: NodeJS.Timeout[] = [];
    for (let i = 0; i < opts.students; i++) {
      for (let k = 0; k < opts.actionsEach; k++) {
        const at = ((k + ((i * 7919) % 997) / 997) / opts.actionsEach) * opts.spreadMs;
        timers.push(
          setTimeout(() => {
            const view = readRoom(room.doc);
            const node = view.members.find((m) => m.pub === pubs[i])?.node ?? `w${i}`;
            const id = inboxes[i].request({ do: 'slow', node, factor: k % 2 === 0 ? 2 : 1 }, view.run, now());
            asked.set(`${pubs[i]}:${id}`, Date.now());
          }, at),
        );
      }
    }
    const hostileTimer = setInterval(() => {
      hostile.send(Buffer.from([9, 9, 9]));
      evil.doc.getArray('log').push([{ run: 1, seq: 999, at: 1, action: { do: 'heal' }, who: { pub: 'teacher', name: 'teacher', node: null } }]);
    }, 100);
    cleanup.push(() => clearInterval(hostileTimer), () => timers.forEach(clearTimeout));

    const total = opts.students * opts.actionsEach;
    await until(() => asked.size === total, deadline, 'every request to be sent');
    clearInterval(hostileTimer);
    const decided = (): number => {
      const v = readRoom(room.doc);
      return v.entries.filter((e) => e.who.pub !== 'teacher').length + v.refused.length;
    };
    await until(() => decided() >= total, deadline, 'the teacher to decide every request');
    const keys = [...asked.keys()].filter((k) => placed.has(k));
    await until(() => keys.every((k) => devices.every((d) => d.shown.has(k))), deadline, 'every accepted action to reach every screen');

    const order = keys.map((k) => placed.get(k)! - asked.get(k)!);
    const deliver = keys.map((k) => Math.max(...devices.map((d) => d.arrived.get(k)!)) - asked.get(k)!);
    const screen = keys.map((k) => Math.max(...devices.map((d) => d.shown.get(k)!)) - asked.get(k)!);
    const reference = JSON.stringify(readRoom(room.doc).entries);
    const diverged = devices.filter((d) => JSON.stringify(d.follower.view.entries) !== reference).length;
    const v = readRoom(room.doc);
    return {
      students: opts.students,
      actions: total,
      accepted: v.entries.length,
      refused: v.refused.length,
      refusedWhy: v.refused.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.reason.code]: (acc[r.reason.code] ?? 0) + 1 }), {}),
      order: stats(order),
      deliver: stats(deliver),
      screen: stats(screen),
      diverged,
      serverDrops: server.lines.filter((l) => l.includes('dropped a message')).length,
      wallMs: Date.now() - started,
    };
  } finally {
    for (const f of cleanup.reverse()) {
      try {
        f();
      } catch {
        // closing what is already closed
      }
    }
    server.child.kill('SIGTERM');
  }
}
