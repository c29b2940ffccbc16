import type { WireBody, WireCodec } from '../../protocols/wire';
import type { TamperSpec } from '../../sim/faults';
import type { Rng } from '../../sim/rng';
import type { MessageKind, NodeId, SecEnvelope, TamperAttack } from '../../sim/types';

/**
 * A man-in-the-middle on one directed link (CURRICULUM §C.2 `tamper`). It sees every message the
 * link carries, keeps a copy of the genuine protected ones it has seen (its recording, which it
 * keeps after `untamper`), and, while attached:
 *
 * - flip / scale / noise: alters the values of each protected message (negate × scale, × scale,
 *   + N(0, scale²)); at most `count` messages when given.
 * - replay: before each genuine protected message, re-sends a recorded one in the sender's name
 *   (oldest first, cycling), `count` times when given.
 *
 * Either way it then recomputes every check it can without a key: an unkeyed SHA-256 digest it
 * recomputes; where the tag does not cover (worker, step) it relabels a replayed message as the
 * current one, whose tag still verifies; an HMAC or a TLS record it cannot forge, so it leaves the
 * sender's tag (an altered message then fails) or replays the recording verbatim (then only the
 * receiver's anti-replay window can refuse it).
 */

export interface Outgoing {
  kind: MessageKind;
  payload: unknown;
  bytes: number;
  sec?: SecEnvelope;
  tampered?: TamperAttack;
  forged?: true;
}

interface Recorded {
  body: WireBody;
  sec?: SecEnvelope;
  bytes: number;
}

/** What the attacker can do with the channel's protection (from the receiver's configuration, which it can observe). */
export interface AttackerView {
  /** Whether (worker, step), session and seq are inside the tag. */
  headerCovered: boolean;
  /** Whether a valid tag needs a key it lacks (hmac, tls). */
  keyed: boolean;
  /** Recomputes the tag of a forged message where no key is needed (sha256); undefined where none is attached. */
  retag(kind: MessageKind, body: WireBody, sec: Omit<SecEnvelope, 'tag'>): Uint8Array | undefined;
}

const RECORDING = 64;

export class LinkAttacker {
  private readonly recorded: Recorded[] = [];
  private cursor = 0;
  /** Messages altered or replayed under the current `tamper` action. */
  private done = 0;

  constructor(
    readonly from: NodeId,
    readonly to: NodeId,
    private readonly rng: Rng,
  ) {}

  /** A new `tamper` on this link starts its count afresh (the recording stays). */
  reset(): void {
    this.done = 0;
  }

  /** The messages that leave the attacker for one message the sender put on the link, in order. */
  intercept(spec: TamperSpec | null, msg: Outgoing, codec: WireCodec | undefined, view: AttackerView): Outgoing[] {
    const body = codec?.read(msg.kind, msg.payload, this.from, this.to) ?? null;
    if (!spec || !body || !codec) return [msg];
    const active = spec.count === undefined || this.done < spec.count;
    let out: Outgoing[] = [msg];
    if (active && spec.attack === 'replay' && this.recorded.length > 0) {
      out = [this.replay(msg, body, codec, view), msg];
      this.done++;
    } else if (active && spec.attack !== 'replay') {
      out = [this.alter(spec, msg, body, codec, view)];
      this.done++;
    }
    this.record(body, msg);
    return out;
  }

  private alter(spec: TamperSpec, msg: Outgoing, body: WireBody, codec: WireCodec, view: AttackerView): Outgoing {
    const vectors = body.vectors.map((v) => alterVector(spec, v, this.rng));
    const forged: WireBody = { ...body, vectors };
    return { ...msg, payload: codec.write(msg.kind, msg.payload, forged), sec: this.retag(msg.kind, forged, msg.sec, view), tampered: spec.attack };
  }

  private replay(msg: Outgoing, current: WireBody, codec: WireCodec, view: AttackerView): Outgoing {
    const rec = this.recorded[this.cursor++ % this.recorded.length];
    // Relabel the old values as the current message where no key protects the header.
    const relabel = (!view.headerCovered || !view.keyed) && rec.body.vectors.length === current.vectors.length;
    const body: WireBody = relabel ? { ...current, vectors: rec.body.vectors } : rec.body;
    let sec: SecEnvelope | undefined = rec.sec;
    if (relabel && view.keyed) {
      // The recorded tag covers the values only: it stays valid under the current header.
      sec = msg.sec && rec.sec ? { ...msg.sec, tag: rec.sec.tag } : rec.sec;
    } else if (relabel) sec = this.retag(msg.kind, body, msg.sec ?? rec.sec, view);
    return { kind: msg.kind, payload: codec.write(msg.kind, msg.payload, body), bytes: rec.bytes, ...(sec ? { sec } : {}), tampered: 'replay', forged: true };
  }

  /** The envelope after the attacker's edit: a recomputed digest where it can, else the original (now wrong) tag. */
  private retag(kind: MessageKind, body: WireBody, sec: SecEnvelope | undefined, view: AttackerView): SecEnvelope | undefined {
    if (!sec) return undefined;
    if (view.keyed) return sec;
    const tag = view.retag(kind, body, { session: sec.session, seq: sec.seq });
    return tag ? { ...sec, tag } : sec;
  }

  private record(body: WireBody, msg: Outgoing): void {
    if (msg.forged || msg.tampered) return;
    this.recorded.push({ body: { ...body, labels: [...body.labels], vectors: body.vectors.map((v) => v.slice()) }, ...(msg.sec ? { sec: msg.sec } : {}), bytes: msg.bytes });
    if (this.recorded.length > RECORDING) {
      this.recorded.shift();
      this.cursor = Math.max(0, this.cursor - 1);
    }
  }
}

function alterVector(spec: TamperSpec, v: Float32Array, rng: Rng): Float32Array {
  const out = new Float32Array(v.length);
  switch (spec.attack) {
    case 'flip': {
      const s = spec.scale ?? 1;
      for (let i = 0; i < v.length; i++) out[i] = -s * v[i];
      break;
    }
    case 'scale': {
      const s = spec.scale ?? 10;
      for (let i = 0; i < v.length; i++) out[i] = s * v[i];
      break;
    }
    case 'noise': {
      const s = spec.scale ?? 1;
      for (let i = 0; i < v.length; i++) out[i] = v[i] + s * rng.normal();
      break;
    }
    case 'replay':
      out.set(v);
      break;
  }
  return out;
}
