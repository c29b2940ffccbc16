import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testScenario } from '../../engine/testing/scenarios';
import { openDoc, openInbox, openLobby, openRoomDoc, type RoomLink } from '../connect';
import { readRoom } from '../doc';
import { docNames, publicIdOf } from '../names';
import { StudentInbox } from '../student';
import { TeacherRoom } from '../teacher';
import { startRoomServer, type RoomServer } from './server';

/** The room server with real y-websocket clients (Node, `ws`): the access rules hold on the wire. */

const CODE = 'TESTA';
const KEY = 'a'.repeat(24);
const ANA = '11111111111111111111111111111111';
const BO = '22222222222222222222222222222222';
let server: RoomServer;
const logs: string[] = [];
const link = (credentials: RoomLink['credentials']): RoomLink => ({ origin: `http://127.0.0.1:${server.port}`, code: CODE, credentials, WebSocket });
const opened: Array<{ destroy(): void }> = [];
const track = <T extends { destroy(): void }>(x: T): T => (opened.push(x), x);

async function waitFor(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  server = await startRoomServer({ port: 0, host: '127.0.0.1', dist: null, code: CODE, key: KEY, log: (l) => logs.push(l) });
});
afterAll(async () => {
  for (const o of opened) o.destroy();
  await server.close();
});

describe('room server', () => {
  it('prints a teacher URL with the key and a join URL without it', () => {
    expect(server.teacherUrl).toBe(`http://127.0.0.1:${server.port}/?room=${CODE}&role=teacher&key=${KEY}`);
    expect(server.joinUrl).toBe(`http://127.0.0.1:${server.port}/?room=${CODE}`);
  });

  it('the teacher writes the room; a student reads it and her change is dropped (logged), never reaching anyone', async () => {
    const t = track(openRoomDoc(link({ role: 'teacher', key: KEY }), { role: 'teacher' }));
    await t.synced;
    const teacher = new TeacherRoom({ doc: t.doc, now: () => 0, wall: () => 0, log: () => undefined });
    teacher.newRun(testScenario(), { running: false, speed: 1 });
    const s = track(openRoomDoc(link({ role: 'student', cid: ANA })));
    await s.synced;
    await waitFor(() => readRoom(s.doc).run === 1, 'the student to see run 1');
    expect(readRoom(s.doc).scenario?.id).toBe('test');
    // A hostile student edits her copy of the room document.
    s.doc.getMap('room').set('run', 99);
    s.doc.getArray('log').push([{ run: 1, seq: 1, at: 10, action: { do: 'heal' }, who: { pub: 'teacher', name: 'teacher', node: null } }]);
    await waitFor(() => logs.some((l) => l.includes(`dropped a message from student ${publicIdOf(ANA)} on ${CODE}: a change to a document this connection may only read`)), 'the drop to be logged');
    const fresh = track(openRoomDoc(link({ role: 'student', cid: BO })));
    await fresh.synced;
    await new Promise((r) => setTimeout(r, 100));
    expect(readRoom(t.doc).run).toBe(1);
    expect(readRoom(t.doc).entries).toEqual([]);
    expect(readRoom(fresh.doc).run).toBe(1);
  });

  it('a teacher link with a wrong key is closed with the reason and not retried', async () => {
    const bad = track(openRoomDoc(link({ role: 'teacher', key: 'b'.repeat(24) })));
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => bad.provider.on('closed', (e: { code: number; reason: string }) => resolve(e)));
    expect(closed).toEqual({ code: 4403, reason: 'key: this is not the room key' });
    expect(bad.provider.shouldConnect).toBe(false);
  });

  it('a student writes her inbox, the teacher reads it, the lobby lists her; nobody else opens it', async () => {
    const pub = publicIdOf(ANA);
    const mine = track(openInbox(link({ role: 'student', cid: ANA }), pub, true));
    await mine.synced;
    expect(new StudentInbox(mine.doc).setName('Ana')).toBeNull();
    const lobby = track(openLobby(link({ role: 'teacher', key: KEY })));
    await waitFor(() => lobby.doc.getMap('clients').has(pub), 'the lobby to list Ana');
    const atTeacher = track(openInbox(link({ role: 'teacher', key: KEY }), pub, false));
    await waitFor(() => atTeacher.doc.getMap('hello').get('name') === 'Ana', 'the teacher to read her name');
    expect(atTeacher.provider.awareness.getStates().size).toBe(1); // her presence; the teacher shows none there
    const other = track(openInbox(link({ role: 'student', cid: BO }), pub, true));
    const closed = await new Promise<{ code: number }>((resolve) => other.provider.on('closed', (e: { code: number }) => resolve(e)));
    expect(closed.code).toBe(4403);
  });

  it('bytes that are not the Yjs protocol are dropped with a logged reason; the connection stays harmless', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/yjs/${docNames.room(CODE)}?cid=${BO}`);
    await new Promise((r) => ws.once('open', r));
    ws.send(Buffer.from([7, 7, 7]));
    ws.send(Buffer.from('{"do":"heal"}'));
    await waitFor(() => logs.some((l) => l.includes('unknown message type 7')), 'the unknown type to be logged');
    ws.close();
  });

  it('answers the join URL, and the run file to the teacher only', async () => {
    const base = `http://127.0.0.1:${server.port}/api/room/${CODE}`;
    expect(await (await fetch(base)).json()).toEqual({ room: CODE, joinUrl: server.joinUrl, teacher: false });
    expect(await (await fetch(`${base}?key=${KEY}`)).json()).toMatchObject({ teacher: true });
    expect((await fetch(`${base}/run.json`)).status).toBe(403);
    const file = await (await fetch(`${base}/run.json?key=${KEY}`)).json();
    expect(file).toMatchObject({ schema: 1, id: 'test' });
    expect((await fetch(`http://127.0.0.1:${server.port}/api/room/ZZZZZ`)).status).toBe(404);
  });

  it('an unknown room or document name is refused at the upgrade', async () => {
    const bad = track(openDoc({ ...link({ role: 'viewer' }), code: 'ZZZZZ' }, 'ZZZZZ'));
    await waitFor(() => logs.some((l) => l.includes('no room "ZZZZZ"')), 'the refusal to be logged');
    bad.provider.disconnect();
  });

  it('serves the built app with the same headers as vite preview (isolation, the CSP)', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'room-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
    const other = await startRoomServer({ port: 0, host: '127.0.0.1', dist, code: 'TESTB', log: () => undefined });
    try {
      const r = await fetch(`http://127.0.0.1:${other.port}/?room=TESTB`);
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('<title>app</title>');
      expect(r.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(r.headers.get('content-security-policy')).toMatch(/connect-src 'self'/);
    } finally {
      await other.close();
    }
  });
});
