import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/**
 * Names in a live room: the room code, the Yjs documents a room consists of, and the identities
 * of the people in it. Shared by the server (which enforces who may write which document) and
 * every client, so both derive the same names from the same inputs.
 *
 * A room `CODE` is three documents on the room server:
 * - `CODE`            — the room document: lesson, ordered actions, members, clock. Only the
 *                       teacher (holding the room's key) writes it; everyone reads it.
 * - `CODE/lobby`      — written by the server alone: the public ids of everyone who connected.
 * - `CODE/in/<pub>`   — one student's inbox: her name and her action requests. Only the
 *                       connection that proves it owns `<pub>` writes it; the teacher reads it.
 */

/** Unambiguous when read off a projector: no 0/O, 1/I/L. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_PATTERN = /^[A-HJKMNP-Z2-9]{4,8}$/;
/** A student's secret client id (kept in localStorage) and the public id derived from it. */
export const CLIENT_ID_PATTERN = /^[0-9a-f]{32}$/;
export const PUBLIC_ID_PATTERN = /^[0-9a-f]{12}$/;

/** `bytes` random bytes → a code; callers pass crypto.getRandomValues output (never Math.random). */
export function roomCodeFrom(bytes: Uint8Array, length = 5): string {
  if (bytes.length < length) throw new Error(`roomCodeFrom: need ${length} random bytes, got ${bytes.length}`);
  let code = '';
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[bytes[i] % CODE_ALPHABET.length];
  return code;
}

/** A fresh secret client id (128 random bits as hex). */
export function newClientId(random: (n: number) => Uint8Array): string {
  return bytesToHex(random(16));
}

/**
 * The public id of a client: what every screen and document shows. Knowing it does not let
 * anyone write the inbox (that needs the secret), so the members list can be public.
 */
export function publicIdOf(clientId: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(`cap-room-client:${clientId}`))).slice(0, 12);
}

export const docNames = {
  room: (code: string) => code,
  lobby: (code: string) => `${code}/lobby`,
  inbox: (code: string, pub: string) => `${code}/in/${pub}`,
};

export type DocRef = { kind: 'room'; code: string } | { kind: 'lobby'; code: string } | { kind: 'inbox'; code: string; pub: string };

/** Parses a document name as the server receives it; null for anything else. */
export function parseDocName(name: string): DocRef | null {
  const parts = name.split('/');
  const code = parts[0];
  if (!CODE_PATTERN.test(code)) return null;
  if (parts.length === 1) return { kind: 'room', code };
  if (parts.length === 2 && parts[1] === 'lobby') return { kind: 'lobby', code };
  if (parts.length === 3 && parts[1] === 'in' && PUBLIC_ID_PATTERN.test(parts[2])) return { kind: 'inbox', code, pub: parts[2] };
  return null;
}

/** Path prefix of the Yjs WebSocket endpoint on the room server. */
export const YJS_PATH = '/yjs';
