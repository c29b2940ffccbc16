import { beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { Simulation } from '../engine/simulation';
import { nobleSha256 } from '../sim/nobleSha256';
import { InstantTrainer } from '../engine/testing/instantTrainer';
import { testScenario } from '../engine/testing/scenarios';
import type { Scenario } from '../scenario/schema';
import type { Action } from '../sim/types';
import { readRoom, roomTypes, type LogEntry } from './doc';
import { roomRunFile } from './export';
import { RoomFollower, type RoomDevice } from './follower';
import { StudentInbox } from './student';
import { TeacherRoom } from './teacher';
import { Relay } from './testing/relay';

/**
 * Lockstep end to end, without a server: a teacher's device and three students' devices, each
 * with its own Simulation, linked by relays that delay every update by a few rounds. Students act
 * through their inboxes, the teacher orders, every device schedules the log — and all of them end
 * with the same schedule hash, which the exported run file reproduces.
 */

class SimDevice implements RoomDevice {
  sim: Simulation | null = null;
  loads = 0;
  async load(sc: Scenario): Promise<boolean> {
    // Its own SHA-256, as a page brings its hash worker's: nothing left to load in the round.
    this.sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sampleEveryMs: 250, sha256: nobleSha256 });
    this.loads++;
    return true;
  }
  schedule(e: LogEntry): Promise<string | null> {
    const r = this.sim!.schedule(e.action, e.at);
    return Promise.resolve(r.ok ? null : r.error);
  }
}

const lesson = (): Scenario => testScenario({ strategy: { kind: 'ps-async' }, cluster: { workers: 4, servers: 1 }, durationMs: 6000 });
const ROUND_MS = 50; // wall ms per round; the room runs at speed 1
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

interface Student {
  name: string;
  pub: string;
  device: SimDevice;
  follower: RoomFollower;
  inbox: StudentInbox;
  relays: Relay[];
  asked: Map<number, number>;
}

describe('a room in lockstep (in-memory relays, real simulations)', () => {
  // The rounds give a device's load a tick to finish: load the strategy's code (a dynamic import,
  // protocols/factory.ts) first, as an open page has long before a room starts.
  beforeAll(() => Simulation.loadCode(lesson()));
  it('every device ends with the same schedule hash; the exported run file replays to it', async () => {
    let round = 0;
    const wall = () => round * ROUND_MS;
    const logs: string[] = [];
    const log = (l: string) => logs.push(l);

    const roomDoc = new Y.Doc();
    const teacherDevice = new SimDevice();
    const teacher = new TeacherRoom({ doc: roomDoc, now: () => teacherDevice.sim?.now() ?? 0, wall, log });
    const teacherFollower = new RoomFollower(roomDoc, teacherDevice, { wall, log });
    teacher.newRun(lesson(), { running: true, speed: 1 });
    await tick();
    expect(teacherDevice.sim).not.toBeNull();

    const students: Student[] = [];
    const teacherSide: Relay[] = [];
    let order = 0;
    const join = (name: string, pub: string): Student => {
      const replica = new Y.Doc();
      const inboxDoc = new Y.Doc();
      const inboxAtTeacher = new Y.Doc();
      const toStudent = new Relay(roomDoc, replica, 3, () => round);
      const toTeacher = new Relay(inboxDoc, inboxAtTeacher, 2, () => round);
      teacherSide.push(toTeacher);
      inboxAtTeacher.on('update', () => teacher.processInbox(pub, inboxAtTeacher));
      const device = new SimDevice();
      const inbox = new StudentInbox(inboxDoc);
      inbox.setName(name);
      teacher.admit(pub, ++order, null, true);
      const s: Student = { name, pub, device, inbox, follower: new RoomFollower(replica, device, { wall, log }), relays: [toStudent], asked: new Map() };
      students.push(s);
      return s;
    };
    const ana = join('Ana', 'a0a0a0a0a0a0');
    const bo = join('Bo', 'b0b0b0b0b0b0');

    const ask = (s: Student, action: Action) => {
      const asked = s.device.sim!.now();
      const id = s.inbox.request(action, s.follower.view.run, asked);
      s.asked.set(id, asked);
    };

    let cy: Student | null = null;
    while (!teacherDevice.sim!.done || students.some((s) => !s.device.sim?.done)) {
      round++;
      const tsim = teacherDevice.sim!;
      if (!tsim.done) await tsim.advanceTo(tsim.now() + ROUND_MS);
      teacher.tick({ now: tsim.now(), running: !tsim.done, speed: 1 });
      for (const r of [...teacherSide, ...students.flatMap((s) => s.relays)]) r.flush();
      await tick();
      for (const s of students) {
        const sim = s.device.sim;
        if (!sim || sim.done) continue;
        const target = s.follower.target();
        expect(target).toBeLessThanOrEqual(s.follower.view.clock?.horizon ?? 0);
        if (target > sim.now()) await sim.advanceTo(target);
      }
      if (round === 20) ask(ana, { do: 'cut', from: 'w0', to: 's0' });
      if (round === 30) ask(bo, { do: 'crash', node: 'w1' });
      if (round === 35) ask(ana, { do: 'crash', node: 'w1' }); // not hers: refused
      if (round === 40) cy = join('Cy', 'c0c0c0c0c0c0'); // joins late: replays what happened
      if (round === 50) expect(teacher.act({ do: 'slow', node: 'w3', factor: 3 })).toMatchObject({ ok: true });
      if (round === 60) {
        ask(bo, { do: 'restart', node: 'w1' });
        ask(ana, { do: 'restore', from: 'w0', to: 's0' });
      }
      if (round === 70 && cy) ask(cy, { do: 'slow', node: 'w2', factor: 2 });
      if (round > 400) throw new Error('the room did not finish');
    }

    const v = readRoom(roomDoc);
    expect(v.entries.map((e) => [e.who.name, e.action.do])).toEqual([
      ['Ana', 'cut'],
      ['Bo', 'crash'],
      ['teacher', 'slow'],
      // Asked in the same round: the order is the order in which they reached the teacher.
      ['Ana', 'restore'],
      ['Bo', 'restart'],
      ['Cy', 'slow'],
    ]);
    expect(v.members.map((m) => [m.name, m.node])).toEqual([
      ['Ana', 'w0'],
      ['Bo', 'w1'],
      ['Cy', 'w2'],
    ]);
    expect(v.refused).toEqual([expect.objectContaining({ pub: ana.pub, reason: { code: 'notYourNode', node: 'w0', target: 'w1' } })]);
    // What a student did shows on every screen within a second of simulated time.
    for (const e of v.entries) if (e.asked !== undefined) expect(e.at - e.asked).toBeLessThanOrEqual(1000);
    expect(logs.filter((l) => l.includes('could not be scheduled'))).toEqual([]);
    expect(students.map((s) => s.device.loads)).toEqual([1, 1, 1]);

    const hash = teacherDevice.sim!.scheduleHash();
    for (const s of students) expect(s.device.sim!.scheduleHash()).toBe(hash);
    const file = roomRunFile(v.scenario!, v.entries);
    expect(file.timeline.filter((e) => e.by === 'user').map((e) => e.who)).toEqual(['Ana (w0)', 'Bo (w1)', 'teacher', 'Ana (w0)', 'Bo (w1)', 'Cy (w2)']);
    const replay = await Simulation.create(file, { trainer: new InstantTrainer(), sampleEveryMs: 250 });
    await replay.runToEnd();
    expect(replay.scheduleHash()).toBe(hash);
    // Without the students' actions the run differs: the hash comparison can fail.
    const plain = await Simulation.create(lesson(), { trainer: new InstantTrainer(), sampleEveryMs: 250 });
    await plain.runToEnd();
    expect(plain.scheduleHash()).not.toBe(hash);
    teacherFollower.destroy();
  });

  it('a value in the log that fails its schema never reaches a simulation, and the reason is logged', async () => {
    const roomDoc = new Y.Doc();
    const logs: string[] = [];
    const teacher = new TeacherRoom({ doc: roomDoc, now: () => 0, wall: () => 0, log: (l) => logs.push(l) });
    teacher.newRun(lesson(), { running: false, speed: 1 });
    const device = new SimDevice();
    const scheduled: LogEntry[] = [];
    const spy: RoomDevice = { load: (sc) => device.load(sc), schedule: (e) => (scheduled.push(e), device.schedule(e)) };
    const follower = new RoomFollower(roomDoc, spy, { wall: () => 0, log: (l) => logs.push(l) });
    follower.update();
    await tick();
    const log = roomTypes(roomDoc).log;
    // As if a hostile writer had got past the server: an unknown node, an unknown action, a script.
    log.push([{ run: 1, seq: 1, at: 500, action: { do: 'crash', node: 'w9' }, who: { pub: 'teacher', name: 'teacher', node: null } }]);
    log.push([{ run: 1, seq: 2, at: 600, action: { do: 'format-disk' }, who: { pub: 'teacher', name: 'teacher', node: null } }]);
    log.push([{ run: 1, seq: 3, at: 700, action: { do: 'crash', node: 'w1' }, who: { pub: 'teacher', name: '<script>', node: null }, extra: 1 }]);
    expect(teacher.act({ do: 'crash', node: 'w2' })).toMatchObject({ ok: true, at: 300 });
    expect(scheduled.map((e) => e.action)).toEqual([{ do: 'crash', node: 'w2' }]);
    expect(logs.join('\n')).toMatch(/log entry 1: action: node: node "w9" does not exist/);
    expect(logs.join('\n')).toMatch(/log entry 2: action: .*do/);
    expect(logs.join('\n')).toMatch(/log entry: .*extra/);
    follower.destroy();
  });
});
