import type { WireBody } from '../../protocols/wire';
import type { MessageKind, NodeId } from '../../sim/types';

/**
 * The canonical bytes a tag or digest is computed over (one definition for sender, receiver and
 * attacker, identical in Node and the browser). Little-endian throughout:
 *
 *   "CAPW1"                      magic and version (5 bytes)
 *   u8   flags                   1 = the header below is covered
 *   str  kind                    the message kind ("gradient", "params" …)
 *   [header, when flags & 1]
 *     str  from, str to          the link
 *     u32  session[0], session[1] the sender's and receiver's incarnations
 *     u32  seq                   per link and session
 *     str  worker                whose update or parameters
 *     f64  step                  the step / round / version it belongs to
 *     u32  n, f64 × n            further header numbers (sequence numbers, versions …)
 *   u32  vectors; per vector: u32 length, then length × f32
 *
 * str = u16 byte length + UTF-8. Without the header only the values are covered: a message's
 * (worker, step) can then be rewritten without breaking its tag — the replay of L13.
 */

export interface CoveredHeader {
  from: NodeId;
  to: NodeId;
  session: readonly [number, number];
  seq: number;
}

const MAGIC = [0x43, 0x41, 0x50, 0x57, 0x31]; // "CAPW1"
const utf8 = new TextEncoder();
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function encodeMessage(kind: MessageKind, body: WireBody | null, header: CoveredHeader | null): Uint8Array {
  const strs: Uint8Array[] = [];
  const str = (s: string) => {
    const b = utf8.encode(s);
    if (b.length > 0xffff) throw new Error('encodeMessage: string field too long');
    strs.push(b);
    return b;
  };
  const kindB = str(kind);
  const fromB = header ? str(header.from) : null;
  const toB = header ? str(header.to) : null;
  const workerB = header && body ? str(body.worker) : header ? str('') : null;
  const labels = header && body ? body.labels : [];
  const vectors = body ? body.vectors : [];
  let size = MAGIC.length + 1 + 2 + kindB.length;
  if (header) size += 2 + fromB!.length + 2 + toB!.length + 12 + 2 + workerB!.length + 8 + 4 + 8 * labels.length;
  size += 4;
  for (const v of vectors) size += 4 + 4 * v.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let o = 0;
  for (const b of MAGIC) out[o++] = b;
  out[o++] = header ? 1 : 0;
  const putStr = (b: Uint8Array) => {
    view.setUint16(o, b.length, true);
    o += 2;
    out.set(b, o);
    o += b.length;
  };
  putStr(kindB);
  if (header) {
    putStr(fromB!);
    putStr(toB!);
    view.setUint32(o, header.session[0] >>> 0, true);
    view.setUint32(o + 4, header.session[1] >>> 0, true);
    view.setUint32(o + 8, header.seq >>> 0, true);
    o += 12;
    putStr(workerB!);
    view.setFloat64(o, body ? body.step : 0, true);
    o += 8;
    view.setUint32(o, labels.length, true);
    o += 4;
    for (const x of labels) {
      view.setFloat64(o, x, true);
      o += 8;
    }
  }
  view.setUint32(o, vectors.length, true);
  o += 4;
  for (const v of vectors) {
    view.setUint32(o, v.length, true);
    o += 4;
    if (littleEndian) {
      out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), o);
      o += v.byteLength;
    } else {
      for (let i = 0; i < v.length; i++, o += 4) view.setFloat32(o, v[i], true);
    }
  }
  return out;
}
