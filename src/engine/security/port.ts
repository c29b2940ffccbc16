import type { SecurityConfig } from '../../scenario/schema';
import type { Message, MessageKind, NodeId } from '../../sim/types';
import type { Verdict } from './channel';
import type { SecurityHost, SecurityLayer } from './layer';
import { requireSecurity } from './load';
import type { Outgoing } from './mitm';

/**
 * The engine's side of the security layer (layer.ts), which loads on demand (load.ts). A run
 * with a `security` block builds the layer at once (its code was loaded with the run's); one
 * without builds it at its first tamper, whose code the action waited for. Until then no message
 * can change on its way — no protection, no attacker — and the port passes every message through
 * untouched, as the layer does then: the layer's state (keys from the seed, empty windows and
 * counters, attackers made per link when first used) is the same whenever it is built, so runs
 * keep their schedules.
 */
export class SecurityPort {
  private layer: SecurityLayer | null = null;

  constructor(
    private readonly cfg: SecurityConfig | undefined,
    private readonly host: SecurityHost,
  ) {
    if (cfg) this.full();
  }

  /** Nothing here can change a message: no protection configured and no attacker on the link (the engine then sends it as it is). */
  idle(from: NodeId, to: NodeId): boolean {
    if (!this.layer && this.host.tamperOn(from, to) === null) return true;
    return this.full().idle(from, to);
  }

  /** The messages that enter the network for one `send` (called when not idle). */
  outgoing(from: NodeId, to: NodeId, kind: MessageKind, payload: unknown, bytes: number): Outgoing[] {
    return this.full().outgoing(from, to, kind, payload, bytes);
  }

  /** The receiver's checks; a message no attacker touched passes while there is no layer. */
  incoming(msg: Message): Verdict {
    if (!this.layer && !msg.tampered) return 'ok';
    return this.full().incoming(msg);
  }

  onTamper(from: NodeId, to: NodeId): void {
    this.full().onTamper(from, to);
  }

  onRestart(node: NodeId): void {
    this.layer?.onRestart(node);
  }

  get tamperedAccepted(): number {
    return this.layer?.tamperedAccepted ?? 0;
  }
  get tamperedRejected(): number {
    return this.layer?.tamperedRejected ?? 0;
  }
  get replayRejected(): number {
    return this.layer?.replayRejected ?? 0;
  }
  get replaysAccepted(): number {
    return this.layer?.replaysAccepted ?? 0;
  }

  private full(): SecurityLayer {
    return (this.layer ??= new (requireSecurity().SecurityLayer)(this.cfg, this.host));
  }
}
