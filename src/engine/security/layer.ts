import type { NoteData, NoteName } from '../../protocols/notes';
import type { WireBody, WireCodec } from '../../protocols/wire';
import type { SecurityConfig } from '../../scenario/schema';
import type { TamperSpec } from '../../sim/faults';
import { rngFor } from '../../sim/rng';
import type { Message, MessageKind, NodeId, SecEnvelope } from '../../sim/types';
import { Integrity, ReplayWindows, SeqCounters, type Verdict } from './channel';
import { LinkAttacker, type AttackerView, type Outgoing } from './mitm';

/**
 * The security layer between every strategy and the network (CURRICULUM L13): the sender's side
 * seals protected messages (tag, session, sequence number; honest byte counts), a
 * man-in-the-middle on a tampered link alters or replays them, and the receiver's side verifies
 * and refuses before the strategy sees anything. It works for any strategy that declares a
 * WireCodec (protocols/wire.ts); without a `security` block and without attackers it passes every
 * message through untouched, so such runs keep their schedules.
 *
 * The counters and notes are the observer's: it knows which messages an attacker touched, which
 * the receiver cannot.
 */

export const noSecurity: SecurityConfig = { integrity: 'none', replayProtection: false, keys: 'per-worker' };

export interface SecurityHost {
  seed: number;
  workers: readonly NodeId[];
  codec: WireCodec | undefined;
  /** A node's incarnation (bumped on crash and restart): part of every session. */
  incarnation(node: NodeId): number;
  tamperOn(from: NodeId, to: NodeId): TamperSpec | null;
  note<K extends NoteName>(what: K, node: NodeId | undefined, data: NoteData[K]): void;
}

export class SecurityLayer {
  readonly cfg: SecurityConfig;
  private readonly integrity: Integrity;
  private readonly windows = new ReplayWindows();
  private readonly seqs = new SeqCounters();
  private readonly attackers = new Map<string, LinkAttacker>();
  tamperedAccepted = 0;
  tamperedRejected = 0;
  replayRejected = 0;
  /** Replays the receiver accepted: old updates applied again (they count in duplicateUpdates). */
  replaysAccepted = 0;

  constructor(
    cfg: SecurityConfig | undefined,
    private readonly host: SecurityHost,
  ) {
    this.cfg = cfg ?? noSecurity;
    const workers = new Set(host.workers);
    this.integrity = new Integrity(this.cfg, host.seed, (n) => workers.has(n));
  }

  /** Nothing here can change a message: no protection configured and no attacker on the link (the engine then sends it as it is). */
  idle(from: NodeId, to: NodeId): boolean {
    return this.cfg.integrity === 'none' && !this.cfg.replayProtection && this.host.tamperOn(from, to) === null;
  }

  /** The messages that enter the network for one `send` (sealed; altered or preceded by a replay on a tampered link). */
  outgoing(from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, bytes: number): Outgoing[] {
    if (this.idle(from, to)) return [{ kind, payload, bytes }];
    const body = this.host.codec?.read(kind, payload, from, to) ?? null;
    let msg: Outgoing = { kind, payload, bytes };
    if (this.integrity.protects(body)) {
      const session = [this.host.incarnation(from), this.host.incarnation(to)] as const;
      const seq = this.seqs.take(from, to, session);
      const tag = this.integrity.tag({ kind, from, to, body, sec: { session, seq } });
      const sec: SecEnvelope = tag ? { tag, session, seq } : { session, seq };
      msg = { kind, payload, bytes: bytes + this.integrity.overhead(bytes, body), sec };
    }
    const spec = this.host.tamperOn(from, to);
    return spec ? this.attacker(from, to).intercept(spec, msg, this.host.codec, this.attackerView(from, to)) : [msg];
  }

  /** The receiver's checks; the observer's counters and notes. */
  incoming(msg: Message): Verdict {
    const body = this.host.codec?.read(msg.kind, msg.payload, msg.from, msg.to) ?? null;
    let verdict: Verdict = 'ok';
    if (this.integrity.protects(body)) {
      if (!msg.sec) verdict = 'auth';
      else if (!this.integrity.verify({ kind: msg.kind, from: msg.from, to: msg.to, body, sec: msg.sec })) verdict = 'auth';
      else if (this.integrity.checksReplays && !this.windows.accept(msg.from, msg.to, msg.sec, this.host.incarnation(msg.to))) verdict = 'replay';
    }
    this.observe(msg, verdict, body);
    return verdict;
  }

  /** A `tamper` action on a link starts its attacker's count afresh. */
  onTamper(from: NodeId, to: NodeId): void {
    this.attacker(from, to).reset();
  }

  /** A receiver that restarts loses its anti-replay windows (its new incarnation starts new sessions). */
  onRestart(node: NodeId): void {
    this.windows.forget(node);
  }

  private observe(msg: Message, verdict: Verdict, body: WireBody | null): void {
    const attack = msg.tampered;
    if (!attack) return;
    const base = { from: msg.from, kind: msg.kind, ...(body ? { step: body.step } : {}) };
    if (attack === 'replay') {
      if (verdict === 'ok') {
        this.replaysAccepted++;
        this.host.note('replayAccepted', msg.to, base);
      } else {
        this.replayRejected++;
        this.host.note('replayRejected', msg.to, { ...base, check: verdict === 'auth' ? this.cfg.integrity : 'sequence' });
      }
      return;
    }
    if (verdict === 'ok') {
      this.tamperedAccepted++;
      this.host.note('tamperAccepted', msg.to, { ...base, attack, check: this.cfg.integrity });
    } else {
      this.tamperedRejected++;
      this.host.note('tamperRejected', msg.to, { ...base, attack, check: this.cfg.integrity });
    }
  }

  private attacker(from: NodeId, to: NodeId): LinkAttacker {
    const k = `${from}>${to}`;
    let a = this.attackers.get(k);
    if (!a) {
      a = new LinkAttacker(from, to, rngFor(this.host.seed, `tamper:${k}`));
      this.attackers.set(k, a);
    }
    return a;
  }

  /** What the attacker on from → to can do: recompute an unkeyed digest, nothing that needs a key. */
  private attackerView(from: NodeId, to: NodeId): AttackerView {
    return {
      headerCovered: this.integrity.headerCovered,
      keyed: this.integrity.keyed,
      retag: (kind, body, sec) => (this.cfg.integrity === 'sha256' ? this.integrity.tag({ kind, from, to, body, sec }) : undefined),
    };
  }
}
