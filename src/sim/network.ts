import type { Rng } from './rng';
import type { LinkProps, MessageKind, NodeId, SimTime } from './types';

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
 */
export type DropReason = 'loss' | 'cut' | 'partition' | 'down';

export interface Transmission {
  /** Delivery time of the message, or of its loss (when the drop becomes visible). */
  due: SimTime;
  /** Set when the message is dropped at send (cut/partition/loss); it then never arrives. */
  dropped?: DropReason;
  /** Delivery time of a duplicate copy, when one is made. */
  duplicateDue?: SimTime;
}

interface LinkState {
  props: LinkProps;
  busyUntil: SimTime;
  lastArrival: SimTime;
}

export class Network {
  private readonly links = new Map<string, LinkState>();
  private readonly cuts = new Set<string>();
  /** node → partition group index; empty when there is no partition. */
  private groups = new Map<NodeId, number>();

  constructor(
    readonly nodes: readonly NodeId[],
    private readonly defaults: LinkProps,
    private readonly rng: Rng,
  ) {}

  props(from: NodeId, to: NodeId): LinkProps {
    return this.link(from, to).props;
  }

  setProps(from: NodeId, to: NodeId, patch: Partial<LinkProps>): void {
    const l = this.link(from, to);
    l.props = { ...l.props, ...definedOnly(patch) };
  }

  cut(from: NodeId, to: NodeId): void {
    this.cuts.add(key(from, to));
  }

  restore(from: NodeId, to: NodeId): void {
    this.cuts.delete(key(from, to));
  }

  isCut(from: NodeId, to: NodeId): boolean {
    return this.cuts.has(key(from, to));
  }

  /** Replaces any earlier partition. Unlisted nodes join the first group (CONTRACTS §1). */
  partition(groups: readonly (readonly NodeId[])[]): void {
    const g = new Map<NodeId, number>();
    groups.forEach((members, i) => members.forEach((n) => g.set(n, i)));
    for (const n of this.nodes) if (!g.has(n)) g.set(n, 0);
    this.groups = g;
  }

  /** Removes every partition and cut link; link settings stay. */
  heal(): void {
    this.groups = new Map();
    this.cuts.clear();
  }

  partitionGroups(): NodeId[][] | null {
    if (this.groups.size === 0) return null;
    const out: NodeId[][] = [];
    for (const n of this.nodes) {
      const i = this.groups.get(n) ?? 0;
      (out[i] ??= []).push(n);
    }
    return out.filter((g) => g && g.length > 0);
  }

  isPartitioned(from: NodeId, to: NodeId): boolean {
    if (this.groups.size === 0) return false;
    return this.groups.get(from) !== this.groups.get(to);
  }

  /** Why a message from→to cannot pass right now, or null if it can. */
  blocked(from: NodeId, to: NodeId): DropReason | null {
    if (this.cuts.has(key(from, to))) return 'cut';
    if (this.isPartitioned(from, to)) return 'partition';
    return null;
  }

  /** Plans one message's journey. Draws from the rng in a fixed order so schedules are stable. */
  transmit(from: NodeId, to: NodeId, bytes: number, now: SimTime): Transmission {
    const blocked = this.blocked(from, to);
    if (blocked) return { due: now, dropped: blocked };
    const l = this.link(from, to);
    const p = l.props;
    const start = Math.max(now, l.busyUntil);
    const txMs = (bytes * 8) / (p.bandwidthMbps * 1000); // Mbps = 1000 bits per ms
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
    const k = key(from, to);
    let l = this.links.get(k);
    if (!l) {
      l = { props: { ...this.defaults }, busyUntil: 0, lastArrival: 0 };
      this.links.set(k, l);
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

function key(from: NodeId, to: NodeId): string {
  return `${from}>${to}`;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

export type { MessageKind };
