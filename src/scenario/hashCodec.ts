/**
 * The shareable scenario hash (CONTRACTS §3): `#scenario=<base64url of the UTF-8 JSON>` is the
 * contract form; `#scenario=z:<base64url of deflate-raw>` is a shorter form for long files. Both
 * decode with decodeScenarioHashAny. Uses only web-platform APIs (TextEncoder, CompressionStream),
 * which Node 20 also has.
 */

import type { HashProblem } from './urlProblems';

export type DecodeResult = { ok: true; json: string } | { ok: false; problem: HashProblem };

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_INDEX = new Map<string, number>([...B64].map((c, i) => [c, i]));

/** base64url without padding. Hand-rolled: btoa needs a binary string and chokes on large inputs. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63];
  }
  return out;
}

/**
 * Decodes base64url; also accepts standard base64 (`+`, `/`, `=` padding) because links get
 * hand-edited and re-encoded. A `+` that a query parser turned into a space is restored.
 */
export function base64UrlToBytes(s: string): Uint8Array | HashProblem {
  const clean = s.replace(/ /g, '+').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  if (clean.length % 4 === 1) return { problem: 'hash-truncated' };
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    const v = B64_INDEX.get(clean[i]);
    if (v === undefined) return { problem: 'hash-bad-char', char: clean[i], position: i + 1 };
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

export function encodeScenarioHash(json: string): string {
  return bytesToBase64Url(new TextEncoder().encode(json));
}

export function decodeScenarioHash(s: string): DecodeResult {
  const bytes = base64UrlToBytes(stripHashPrefix(s));
  if (!(bytes instanceof Uint8Array)) return { ok: false, problem: bytes };
  try {
    return { ok: true, json: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, problem: { problem: 'hash-not-utf8' } };
  }
}

/** Prefix that marks the compressed form. */
export const COMPRESSED_PREFIX = 'z:';

export async function encodeScenarioHashCompressed(json: string): Promise<string> {
  const packed = await pipeThrough(new TextEncoder().encode(json), new CompressionStream('deflate-raw'));
  return COMPRESSED_PREFIX + bytesToBase64Url(packed);
}

/** Decodes either form. */
export async function decodeScenarioHashAny(s: string): Promise<DecodeResult> {
  const body = stripHashPrefix(s);
  if (!body.startsWith(COMPRESSED_PREFIX)) return decodeScenarioHash(body);
  const bytes = base64UrlToBytes(body.slice(COMPRESSED_PREFIX.length));
  if (!(bytes instanceof Uint8Array)) return { ok: false, problem: bytes };
  try {
    const raw = await pipeThrough(bytes, new DecompressionStream('deflate-raw'));
    return { ok: true, json: new TextDecoder('utf-8', { fatal: true }).decode(raw) };
  } catch {
    return { ok: false, problem: { problem: 'hash-damaged' } };
  }
}

/** Shorter of the two forms: the plain one stays readable in tools when it is not longer. */
export async function encodeScenarioHashShortest(json: string): Promise<string> {
  const plain = encodeScenarioHash(json);
  const packed = await encodeScenarioHashCompressed(json);
  return packed.length < plain.length ? packed : plain;
}

function stripHashPrefix(s: string): string {
  return s.replace(/^#/, '').replace(/^scenario=/, '');
}

async function pipeThrough(data: Uint8Array, transform: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  // Blob → stream → transform → Response collects it; all standard in browsers and Node ≥ 18.
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
