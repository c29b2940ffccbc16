import { applyNetAction, blockedBy, isPartitioned, linkKey, linkProps, noFaults, partitionGroups, tamperOn, type NetFaults, type TamperSpec } from './faults';
import type { Rng } from './rng';
import type { Action, LinkProps, MessageKind, NodeId, SimTime } from './types';

/**
 * The simulated network (DESIGN rule 3). It owns every message: protocols call `send` and the
 * network decides when (or whether) it arrives.
 *
 * Timing per directed link, which is a FIFO pipe:
 *   transmission starts when the link is free (messages queue behind each other),
 *   lasts bytes·8 / bandwidth, then the message propagates for latency + jitter.
 * Arrival times on one link never decrease, so jitter cannot reorder a link (FIFO).
 * Loss and duplication are seeded draws; cuts and partitions drop at send and, for messages
 * already in flight, at delivery.
 *
 * With a NIC capacity (`network.nicMbps`, CURRICULUM §C.1) each node also has one outgoing and one
 * incoming interface that its links share: a message occupies the sender's NIC while it is sent
 * and the receiver's NIC while it arrives (one latency later), so a node can send or receive only
 * `nicMbps` in all. A single parameter server then needs ≈ N·M/B to hear N gradients of M bytes
 * and as long again to send the parameters back: T ≈ 2·N·M/B (TRUTHS "Facts"). Messages take the
 * interfaces in send order (a FIFO per interface).
 */
export type DropReason = 'loss' | 'cut' | 'partition' | 'down' | 'auth' | 'replay';

export interface Transmission {
  /** Delivery time of the message, or of its loss (when the drop becomes visible). */
  due: SimTime;
  /** Set when the message is dropped at send (cut/partition/loss); it then never arrives. */
  dropped?: DropReason;
  /** Delivery time of a duplicate copy, when one is made. */
  duplicateDue?: SimTime;
}

interface LinkState {
  busyUntil: SimTime;
  lastArrival: SimTime;
}

export class Network {
  /** from → to → the directed link's state (nested maps: no key string per message). */
  private readonly links = new Map<NodeId, Map<NodeId, LinkState>>();
  private state: NetFaults = noFaults;

  /** With a NIC capacity: when each node's outgoing and incoming interfaces are free again. */
  private readonly nicOut = new Map<NodeId, SimTime>();
  private readonly nicIn = new Map<NodeId, SimTime>();

  constructor(
    readonly nodes: readonly NodeId[],
    private readonly defaults: LinkProps,
    private readonly rng: Rng,
    /** Per-node NIC capacity in Mbps, shared by a node's outgoing links and, separately, its incoming ones; undefined: none. */
    private readonly nicMbps?: number,
  ) {}

  /** Applies an action's network effect (sim/faults.ts, the one definition); others change nothing. */
  apply(a: Action): void {
    this.state = applyNetAction(this.state, a, this.nodes);
  }

  get faults(): NetFaults {
    return this.state;
  }

  props(from: NodeId, to: NodeId): LinkProps {
    return linkProps(this.state, this.defaults, from, to);
  }

  cut(from: NodeId, to: NodeId): void {
    this.apply({ do: 'cut', from, to, oneWay: true });
  }

  restore(from: NodeId, to: NodeId): void {
    this.apply({ do: 'restore', from, to, oneWay: true });
  }

  /** The man-in-the-middle on the directed link, or null. */
  tamper(from: NodeId, to: NodeId): TamperSpec | null {
    return tamperOn(this.state, from, to);
  }

  isCut(from: NodeId, to: NodeId): boolean {
    return this.state.cuts.has(linkKey(from, to));
  }

  /** Replaces any earlier partition. Unlisted nodes join the first group (CONTRACTS §1). */
  partition(groups: NodeId[][]): void {
    this.apply({ do: 'partition', groups });
  }

  /** Removes every partition and cut link; link settings stay. */
  heal(): void {
    this.apply({ do: 'heal' });
  }

  partitionGroups(): NodeId[][] | null {
    return partitionGroups(this.state, this.nodes);
  }

  isPartitioned(from: NodeId, to: NodeId): boolean {
    return isPartitioned(this.state, from, to);
  }

  /** Why a message from→to cannot pass right now, or null if it can. */
  blocked(from: NodeId, to: NodeId): DropReason | null {
    return blockedBy(this.state, from, to);
  }

  /** Plans one message's journey. Draws from the rng in a fixed order so schedules are stable. */
  transmit(from: NodeId, to: NodeId, bytes: number, now: SimTime): Transmission {
    const blocked = this.blocked(from, to);
    if (blocked) return { due: now, dropped: blocked };
    const l = this.link(from, to);
    const p = this.props(from, to);
    let start = Math.max(now, l.busyUntil);
    let txMs = (bytes * 8) / (p.bandwidthMbps * 1000); // Mbps = 1000 bits per ms
    if (this.nicMbps !== undefined) {
      // The slower of link and NIC sets the pace; the bits reach the receiver's NIC one latency later.
      txMs = Math.max(txMs, (bytes * 8) / (this.nicMbps * 1000));
      start = Math.max(start, this.nicOut.get(from) ?? 0, (this.nicIn.get(to) ?? 0) - p.latencyMs);
      this.nicOut.set(from, start + txMs);
      this.nicIn.set(to, start + p.latencyMs + txMs);
    }
    l.busyUntil = start + txMs;
    const jitter = p.jitterMs > 0 ? this.rng.range(-p.jitterMs, p.jitterMs) : 0;
    const arrival = Math.max(quantize(l.busyUntil + Math.max(0, p.latencyMs + jitter)), l.lastArrival);
    l.lastArrival = arrival;
    if (this.rng.chance(p.loss)) return { due: arrival, dropped: 'loss' };
    const out: Transmission = { due: arrival };
    if (this.rng.chance(p.duplicate)) {
      // The copy follows the original on the same FIFO link.
      const copy = quantize(arrival + txMs + (p.jitterMs > 0 ? this.rng.range(0, p.jitterMs) : 0));
      l.lastArrival = copy;
      out.duplicateDue = copy;
    }
    return out;
  }

  private link(from: NodeId, to: NodeId): LinkState {
    let out = this.links.get(from);
    if (!out) this.links.set(from, (out = new Map()));
    let l = out.get(to);
    if (!l) {
      l = { busyUntil: 0, lastArrival: 0 };
      out.set(to, l);
    }
    return l;
  }
}

/**
 * Simulated times are whole microseconds: logs stay short and readable, and every platform rounds
 * the same double the same way.
 */
export function quantize(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}


export type { MessageKind };
