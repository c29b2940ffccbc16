import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { testScenario } from '../engine/testing/scenarios';
import { readRoom, roomTypes } from './doc';
import { activityByMember } from './export';
import { StudentInbox } from './student';
import { TeacherRoom } from './teacher';

/** The teacher's decisions on requests: validation with the action schemas, the room's rules, order. */

const lesson = () => testScenario({ strategy: { kind: 'ps-async' }, cluster: { workers: 3, servers: 1 }, durationMs: 6000 });

function setup(now = 1000) {
  const doc = new Y.Doc();
  const logs: string[] = [];
  let wall = 0;
  let t = now;
  const teacher = new TeacherRoom({ doc, now: () => t, wall: () => wall, log: (l) => logs.push(l) });
  teacher.newRun(lesson(), { running: true, speed: 1 });
  teacher.admit('a0a0a0a0a0a0', 1, null, true);
  teacher.admit('b0b0b0b0b0b0', 2, null, true);
  const inbox = new Y.Doc();
  const ana = new StudentInbox(inbox);
  return { doc, teacher, logs, inbox, ana, setWall: (w: number) => (wall = w), setNow: (n: number) => (t = n) };
}

describe('TeacherRoom: requests', () => {
  it('accepts a student’s action on her node at now + lead, after the published horizon, and answers her', () => {
    const { doc, teacher, inbox, ana } = setup();
    teacher.tick({ now: 1000, running: true, speed: 1 });
    expect(readRoom(doc).clock?.horizon).toBe(1300);
    ana.setName('Ana');
    ana.request({ do: 'crash', node: 'w0' }, 1, 990);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    const v = readRoom(doc);
    expect(v.entries).toEqual([{ run: 1, seq: 1, at: 1300, action: { do: 'crash', node: 'w0' }, who: { pub: 'a0a0a0a0a0a0', name: 'Ana', node: 'w0' }, req: 1, asked: 990 }]);
    expect(v.replies.get('a0a0a0a0a0a0')).toEqual({ id: 1, ok: true, at: 1300 });
    expect(v.members.map((m) => [m.name, m.node])).toEqual([
      ['Ana', 'w0'],
      ['student 2', 'w1'],
    ]);
  });

  it('refuses with a reason — another node, a bad action, a stale run, a lock — and logs it; nothing reaches the log', () => {
    const { doc, teacher, logs, inbox, ana } = setup();
    ana.request({ do: 'crash', node: 'w1' }, 1, 0);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    ana.request({ do: 'crash', node: 'w7' } as never, 1, 0);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    ana.request({ do: 'crash', node: 'w0' }, 7, 0);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    teacher.setLocked(true);
    ana.request({ do: 'crash', node: 'w0' }, 1, 0);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    const v = readRoom(doc);
    expect(v.entries).toEqual([]);
    expect(v.refused.map((r) => [r.req, r.reason])).toEqual([
      [1, { code: 'notYourNode', node: 'w0', target: 'w1' }],
      // The action as sent comes with the English line: each page words its problems (app/room/strings.ts).
      [2, { code: 'invalid', detail: 'node: node "w7" does not exist (cluster has w0-w2, s0)', action: '{"do":"crash","node":"w7"}' }],
      [3, { code: 'staleRun' }],
      [4, { code: 'locked' }],
    ]);
    expect(v.replies.get('a0a0a0a0a0a0')).toEqual({ id: 4, ok: false, reason: { code: 'locked' } });
    expect(logs).toHaveLength(4);
    expect(logs[0]).toMatch(/refused request 1 from student 1 \(a0a0a0a0a0a0\): node: you can act only/);
  });

  it('hostile inbox contents are refused by name: extra fields, nested types, a wrong root type', () => {
    const { doc, teacher, logs, inbox } = setup();
    const requests = inbox.getArray<unknown>('requests');
    requests.push([{ id: 1, run: 1, action: { do: 'crash', node: 'w0' }, asked: 0, evil: true }]);
    const nested = new Y.Map<unknown>();
    requests.push([nested]);
    requests.push([{ id: 3, run: 1, action: { do: 'crash', node: 'w0', extra: 'x' }, asked: 0 }]);
    requests.push(['just a string']);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    const v = readRoom(doc);
    expect(v.entries).toEqual([]);
    expect(v.refused.map((r) => r.req)).toEqual([1, 3]);
    expect(v.refused[0].reason).toEqual({ code: 'invalid', detail: expect.stringMatching(/^request: .*evil/) });
    expect(v.refused[1].reason).toEqual({ code: 'invalid', detail: expect.stringMatching(/extra/), action: '{"do":"crash","node":"w0","extra":"x"}' });
    expect(logs.join('\n')).toMatch(/inbox of a0a0a0a0a0a0: request: /);
    // An inbox whose "requests" was made a map cannot even be read as one: it is ignored, logged.
    const odd = new Y.Doc();
    odd.getMap('requests').set('id', 1);
    teacher.processInbox('b0b0b0b0b0b0', odd);
    expect(logs.join('\n')).toMatch(/inbox of b0b0b0b0b0b0 ignored: inbox: Type with the name requests has already been defined with a different constructor/);
  });

  it('a flood is rate-limited: at most 5 a second are placed, the rest refused', () => {
    const { doc, teacher, inbox, ana } = setup();
    for (let i = 0; i < 12; i++) ana.request({ do: 'slow', node: 'w0', factor: 1 + i }, 1, 0);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    const v = readRoom(doc);
    expect(v.entries).toHaveLength(5);
    expect(v.refused.map((r) => r.reason)).toEqual(Array(7).fill({ code: 'tooFast', max: 5 }));
  });

  it('decides each request once, also after the teacher reloads (a new TeacherRoom on the same document)', () => {
    const { doc, teacher, inbox, ana } = setup();
    ana.request({ do: 'crash', node: 'w0' }, 1, 0);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    const reloaded = new TeacherRoom({ doc, now: () => 2000, wall: () => 10_000, log: () => undefined });
    reloaded.processInbox('a0a0a0a0a0a0', inbox);
    expect(readRoom(doc).entries).toHaveLength(1);
    ana.request({ do: 'restart', node: 'w0' }, 1, 0);
    reloaded.processInbox('a0a0a0a0a0a0', inbox);
    expect(readRoom(doc).entries.map((e) => [e.seq, e.action.do, e.at])).toEqual([
      [1, 'crash', 1300],
      [2, 'restart', 2300],
    ]);
  });

  it('an action that moves the horizon brings the clock up to the teacher’s now (devices extrapolate from it)', () => {
    const { doc, teacher, setNow } = setup();
    teacher.tick({ now: 1000, running: true, speed: 1 });
    setNow(1100); // before the next clock message is due
    expect(teacher.act({ do: 'crash', node: 'w0' })).toMatchObject({ ok: true, at: 1400 });
    expect(readRoom(doc).clock).toEqual({ run: 1, now: 1100, horizon: 1400, running: true, speed: 1 });
  });

  it('times only grow in the log, also when the room slows down (shorter lead)', () => {
    const { doc, teacher, setNow } = setup();
    teacher.tick({ now: 1000, running: true, speed: 10 }); // lead 3000: horizon 4000
    expect(teacher.act({ do: 'crash', node: 'w0' })).toMatchObject({ ok: true, at: 4000 });
    setNow(1100);
    teacher.tick({ now: 1100, running: true, speed: 1 }); // lead 300, but the horizon stays
    expect(teacher.act({ do: 'crash', node: 'w1' })).toMatchObject({ ok: true, at: 4000 });
    const v = readRoom(doc);
    expect(v.entries.map((e) => e.at)).toEqual([4000, 4000]);
    setNow(5900);
    expect(teacher.act({ do: 'crash', node: 'w2' })).toEqual({ ok: false, reason: { code: 'runOver' } });
  });

  it('a new run archives the last one as a run file, empties the log and keeps members on their nodes', () => {
    const { doc, teacher } = setup();
    teacher.act({ do: 'crash', node: 'w0' });
    const run = teacher.newRun(testScenario({ cluster: { workers: 2 } }), { running: false, speed: 1 });
    expect(run).toBe(2);
    const v = readRoom(doc);
    expect(v.entries).toEqual([]);
    expect(v.members.map((m) => m.node)).toEqual(['w0', 'w1']);
    const archived = roomTypes(doc).archive.toArray() as Array<{ timeline: Array<{ by?: string; who?: string }> }>;
    expect(archived).toHaveLength(1);
    expect(archived[0].timeline.filter((e) => e.by === 'user').map((e) => e.who)).toEqual(['teacher']);
  });
});

describe('activity per student', () => {
  it('lists what each did and when, refusals included, in time order; the teacher last', () => {
    const { doc, teacher, inbox, ana, setWall } = setup();
    ana.setName('Ana');
    ana.request({ do: 'crash', node: 'w0' }, 1, 900);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    setWall(5000);
    ana.request({ do: 'crash', node: 'w2' }, 1, 950);
    teacher.processInbox('a0a0a0a0a0a0', inbox);
    teacher.act({ do: 'heal' });
    const v = readRoom(doc);
    const rows = activityByMember(v.members, v.entries, v.refused, v.run);
    expect(rows.map((r) => [r.name, r.items.map((i) => (i.refused ? `refused ${i.t}` : `${i.action?.do} ${i.t}`))])).toEqual([
      ['Ana', ['refused 1000', 'crash 1300']],
      ['student 2', []],
      ['teacher', ['heal 1300']],
    ]);
  });
});
