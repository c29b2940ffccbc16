import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { parseDocName, publicIdOf } from '../names';
import { parseArgs } from './args';
import { grantFor, MessageBudget, screenMessage } from './access';

const KEY = 'k'.repeat(24);
const CID = '0123456789abcdef0123456789abcdef';
const PUB = publicIdOf(CID);
const q = (s: string) => new URLSearchParams(s);
const room = parseDocName('ABCDE')!;
const lobby = parseDocName('ABCDE/lobby')!;
const inbox = parseDocName(`ABCDE/in/${PUB}`)!;

describe('document names', () => {
  it('parses the three kinds and rejects anything else', () => {
    expect(room).toEqual({ kind: 'room', code: 'ABCDE' });
    expect(lobby).toEqual({ kind: 'lobby', code: 'ABCDE' });
    expect(inbox).toEqual({ kind: 'inbox', code: 'ABCDE', pub: PUB });
    for (const bad of ['abcde', 'AB', 'ABCDE/', 'ABCDE/in/xyz', 'ABCDE/lobby/x', '../etc', 'ABCD0', 'ABCDE/in/' + PUB + '/x']) expect(parseDocName(bad)).toBeNull();
  });
  it('a public id is a fixed function of the secret and does not reveal it', () => {
    expect(PUB).toMatch(/^[0-9a-f]{12}$/);
    expect(publicIdOf(CID)).toBe(PUB);
    expect(publicIdOf(CID.replace('0', '1'))).not.toBe(PUB);
    expect(CID.includes(PUB)).toBe(false);
  });
});

describe('grantFor: who may write which document', () => {
  it('the teacher writes the room only with its key', () => {
    expect(grantFor(room, q(`role=teacher&key=${KEY}`), KEY)).toMatchObject({ ok: true, write: true, teacher: true });
    expect(grantFor(room, q('role=teacher&key=nope'), KEY)).toEqual({ ok: false, code: 4403, reason: 'key: this is not the room key' });
    expect(grantFor(room, q('role=teacher'), KEY)).toMatchObject({ ok: false, code: 4403, reason: expect.stringMatching(/^key: a teacher link needs/) });
    expect(grantFor(room, q('role=admin'), KEY)).toMatchObject({ ok: false, code: 4400 });
  });
  it('students and viewers read the room and the lobby', () => {
    expect(grantFor(room, q(`cid=${CID}`), KEY)).toMatchObject({ ok: true, write: false, pub: PUB });
    expect(grantFor(room, q(''), KEY)).toMatchObject({ ok: true, write: false, who: 'viewer' });
    expect(grantFor(lobby, q(`role=teacher&key=${KEY}`), KEY)).toMatchObject({ ok: true, write: false });
  });
  it('an inbox is written by its owner, read by the teacher, closed to everyone else', () => {
    expect(grantFor(inbox, q(`cid=${CID}`), KEY)).toMatchObject({ ok: true, write: true });
    expect(grantFor(inbox, q(`role=teacher&key=${KEY}`), KEY)).toMatchObject({ ok: true, write: false });
    expect(grantFor(inbox, q(`cid=${'f'.repeat(32)}`), KEY)).toMatchObject({ ok: false, code: 4403 });
    expect(grantFor(inbox, q(''), KEY)).toMatchObject({ ok: false, code: 4403 });
    expect(grantFor(inbox, q('cid=ZZZ'), KEY)).toMatchObject({ ok: false, code: 4400, reason: 'cid: not a client id (32 hex digits)' });
  });
});

function syncMessage(write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  write(e);
  return encoding.toUint8Array(e);
}

describe('screenMessage: what a connection may send', () => {
  const doc = new Y.Doc();
  doc.getMap('room').set('run', 99);
  const change = Y.encodeStateAsUpdate(doc);
  const step1 = syncMessage((e) => syncProtocol.writeSyncStep1(e, new Y.Doc()));
  const update = syncMessage((e) => syncProtocol.writeUpdate(e, change));
  const emptyStep2 = syncMessage((e) => syncProtocol.writeSyncStep2(e, new Y.Doc()));

  it('writers may change the document; readers may only ask for it', () => {
    expect(screenMessage(step1, false)).toEqual({ ok: true });
    expect(screenMessage(update, true)).toEqual({ ok: true });
    expect(screenMessage(update, false)).toEqual({ ok: false, reason: 'a change to a document this connection may only read' });
    // The empty answer every client gives to the server's first message is dropped without noise.
    expect(screenMessage(emptyStep2, false)).toMatchObject({ ok: false, quiet: true });
  });
  it('malformed and unknown messages are dropped with a reason', () => {
    expect(screenMessage(new Uint8Array([]), true)).toMatchObject({ ok: false, reason: expect.stringMatching(/^malformed message/) });
    expect(screenMessage(new Uint8Array([7, 1, 2]), true)).toEqual({ ok: false, reason: 'unknown message type 7' });
    expect(screenMessage(new Uint8Array([0, 9]), true)).toEqual({ ok: false, reason: 'unknown sync message 9' });
    expect(screenMessage(new Uint8Array([0, 2, 200, 1]), true)).toMatchObject({ ok: false, reason: expect.stringMatching(/^malformed/) });
  });
  it('a message budget allows a burst, then a steady rate', () => {
    const b = new MessageBudget(3, 10, 0);
    expect([b.take(0), b.take(0), b.take(0), b.take(0)]).toEqual([true, true, true, false]);
    expect(b.take(100)).toBe(true);
    expect(b.take(100)).toBe(false);
  });
});

describe('npm run classroom arguments', () => {
  it('reads --port, --lan, --room and refuses the rest by name', () => {
    expect(parseArgs([])).toEqual({ port: 5180, lan: false, dist: 'dist' });
    expect(parseArgs(['--port', '0', '--lan', '--room', 'abcde'])).toEqual({ port: 0, lan: true, room: 'ABCDE', dist: 'dist' });
    expect(parseArgs(['--port', 'x'])).toEqual({ error: '--port: "x" is not a port number (0-65535; 0 picks a free one)' });
    expect(parseArgs(['--bogus'])).toMatchObject({ error: expect.stringMatching(/^--bogus: unknown argument\n/) });
    expect(parseArgs(['--prot', '5180'])).toMatchObject({ error: expect.stringMatching(/^--prot: unknown argument \(did you mean --port\?\)/) });
  });
});
