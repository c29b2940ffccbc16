import { timingSafeEqual } from 'node:crypto';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { CLIENT_ID_PATTERN, publicIdOf, type DocRef } from '../names';

/**
 * Who may do what on the room server (pure, tested on its own). y-websocket leaves access control
 * to the application ("you may check auth of request here"); this is ours:
 * - the room document: everyone reads; only a connection with the room's teacher key writes;
 * - an inbox `CODE/in/<pub>`: only the owner of `<pub>` (her secret client id hashes to it) writes;
 *   the teacher reads; nobody else connects;
 * - the lobby: everyone reads, the server alone writes.
 * A connection that may not write has every change it sends dropped, with a logged reason, before
 * it reaches the server's copy of the document — so it never reaches another device.
 */

export type Grant = { ok: true; write: boolean; who: string; pub?: string; teacher: boolean } | { ok: false; code: number; reason: string };

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Decides a connection to `ref` with the query `params`, for a room whose teacher key is `key`. */
export function grantFor(ref: DocRef, params: URLSearchParams, key: string): Grant {
  const role = params.get('role');
  const cid = params.get('cid');
  if (role !== null && role !== 'teacher') return { ok: false, code: 4400, reason: `role: "${role.slice(0, 20)}" is not "teacher" (students leave it out)` };
  if (cid !== null && !CLIENT_ID_PATTERN.test(cid)) return { ok: false, code: 4400, reason: 'cid: not a client id (32 hex digits)' };
  let teacher = false;
  if (role === 'teacher') {
    const given = params.get('key') ?? '';
    if (!sameSecret(given, key)) return { ok: false, code: 4403, reason: given === '' ? 'key: a teacher link needs the room key that `npm run classroom` printed' : 'key: this is not the room key' };
    teacher = true;
  }
  const pub = cid !== null ? publicIdOf(cid) : undefined;
  const who = teacher ? 'teacher' : pub ? `student ${pub}` : 'viewer';
  switch (ref.kind) {
    case 'room':
      return { ok: true, write: teacher, who, pub, teacher };
    case 'lobby':
      return { ok: true, write: false, who, pub, teacher };
    case 'inbox':
      if (pub === ref.pub) return { ok: true, write: true, who, pub, teacher };
      if (teacher) return { ok: true, write: false, who, pub, teacher };
      return { ok: false, code: 4403, reason: 'inbox: only its owner and the teacher may open it' };
  }
}

const messageSync = 0;
const messageAwareness = 1;
const messageQueryAwareness = 3;
const syncStep1 = 0;
const syncStep2 = 1;
const syncUpdate = 2;

export type Verdict = { ok: true } | { ok: false; reason: string; quiet?: boolean };

/** An update that changes nothing (what a read-only client answers to the server's sync step 1). */
function isEmptyUpdate(update: Uint8Array): boolean {
  try {
    const d = Y.decodeUpdate(update);
    return d.structs.length === 0 && d.ds.clients.size === 0;
  } catch {
    return false;
  }
}

/**
 * Screens one message from a client before the Yjs server handles it. Read-only connections may
 * ask for the document (sync step 1) and ask who is there; their changes and presence are dropped.
 * Anything that is not the y-websocket protocol is dropped too.
 */
export function screenMessage(data: Uint8Array, write: boolean): Verdict {
  try {
    const d = decoding.createDecoder(data);
    const type = decoding.readVarUint(d);
    if (type === messageSync) {
      const step = decoding.readVarUint(d);
      if (step === syncStep1) {
        decoding.readVarUint8Array(d); // the state vector must be readable
        return { ok: true };
      }
      if (step === syncStep2 || step === syncUpdate) {
        const update = decoding.readVarUint8Array(d);
        if (write) return { ok: true };
        // Every client answers the server's first message with its own (empty) state: not hostile.
        if (isEmptyUpdate(update)) return { ok: false, reason: 'empty update from a read-only connection', quiet: true };
        return { ok: false, reason: 'a change to a document this connection may only read' };
      }
      return { ok: false, reason: `unknown sync message ${step}` };
    }
    if (type === messageAwareness) {
      decoding.readVarUint8Array(d);
      return write ? { ok: true } : { ok: false, reason: 'presence on a document this connection may only read', quiet: true };
    }
    if (type === messageQueryAwareness) return { ok: true };
    return { ok: false, reason: `unknown message type ${type}` };
  } catch (e) {
    return { ok: false, reason: `malformed message (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** A token bucket per connection: a burst of `burst` messages, then `perSecond`. */
export class MessageBudget {
  private tokens: number;
  private last: number;
  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
