import type { Action, NodeId } from '../sim/types';
import type { RefusalReason } from './refusals';

/**
 * The rules of a live room, as pure functions: who may do what, which node each student gets,
 * and when an action applies. The teacher's device uses them to order and validate; a student's
 * device uses the same ones to refuse early, with the same words.
 */

/**
 * Why a student may not do `action` with the node she has (null: she may). By the action's shape,
 * so that node actions added later (pause, Byzantine, …) follow the same rule: one that names a
 * node must name hers; one that names a link must touch her node; anything cluster-wide
 * (partition, heal) is the teacher's. Whether the lesson allows the action at all is the action
 * table's and the engine's to say, as for every action.
 */
export function studentRefusal(action: Action, node: NodeId | null): RefusalReason | null {
  if (node === null) return { code: 'watching' };
  if ('node' in action && typeof action.node === 'string') return action.node === node ? null : { code: 'notYourNode', node, target: action.node };
  if ('from' in action && 'to' in action) return action.from === node || action.to === node ? null : { code: 'notYourLink', node, from: action.from, to: action.to };
  return { code: 'teacherOnly', action: action.do };
}

export interface MemberSlot {
  pub: string;
  /** Join order (1, 2, …): earlier students keep their nodes when a lesson has fewer. */
  order: number;
  node: NodeId | null;
}

/**
 * Gives every member a node of the lesson: one node per student; a student keeps the node she
 * had if the lesson still has it; the others get free nodes in join order, workers first, then
 * servers, then brokers (the order of `nodes`). Students beyond the cluster's size watch (null).
 */
export function assignNodes(members: readonly MemberSlot[], nodes: readonly NodeId[]): Map<string, NodeId | null> {
  const byOrder = [...members].sort((a, b) => a.order - b.order || (a.pub < b.pub ? -1 : 1));
  const out = new Map<string, NodeId | null>();
  const taken = new Set<NodeId>();
  for (const m of byOrder) {
    if (m.node !== null && nodes.includes(m.node) && !taken.has(m.node)) {
      out.set(m.pub, m.node);
      taken.add(m.node);
    }
  }
  const free = nodes.filter((n) => !taken.has(n));
  for (const m of byOrder) {
    if (out.has(m.pub)) continue;
    const node = free.shift() ?? null;
    out.set(m.pub, node);
  }
  return out;
}

/**
 * How far ahead of the teacher's clock an action is placed (simulated ms). Devices run behind the
 * teacher's published horizon, so any time at or after it is safe; the lead only has to cover
 * the time between two clock messages (≈ 150 ms of wall time) at the room's speed.
 */
export function leadMs(speed: number | 'max'): number {
  if (speed === 'max') return 3000;
  return Math.round(Math.min(3000, Math.max(100, 300 * speed)));
}

/**
 * The simulated time at which an action accepted now applies: a whole millisecond at least
 * `lead` after the teacher's now and never before the horizon already published (some device
 * may have run up to it). Null if that is at or past the end of the run.
 */
export function applyTime(now: number, lead: number, horizon: number, durationMs: number): number | null {
  const at = Math.max(Math.ceil(now + lead), Math.ceil(horizon));
  return at < durationMs ? at : null;
}

/** The clock the teacher publishes: every device runs up to `horizon` at most. */
export interface RoomClock {
  run: number;
  /** The teacher's simulated now when this was written. */
  now: number;
  /** No action will ever be placed before this time: devices may run up to it. */
  horizon: number;
  running: boolean;
  speed: number | 'max';
}

/**
 * Where a following device should be at wall time `wall`, given the last clock it received (at
 * wall time `receivedAt`): the teacher's now, extrapolated at the room's speed while running,
 * never past the horizon.
 */
export function followTarget(clock: RoomClock, receivedAt: number, wall: number): number {
  if (!clock.running) return clock.now;
  if (clock.speed === 'max') return clock.horizon;
  return Math.min(clock.horizon, clock.now + Math.max(0, wall - receivedAt) * clock.speed);
}

/** Whether the teacher should publish a new clock: the horizon is running out, or the state changed. */
export function needsClock(prev: RoomClock | null, next: Omit<RoomClock, 'horizon'>, lead: number, durationMs: number): RoomClock | null {
  const horizon = Math.min(durationMs, Math.ceil(next.now + lead));
  if (!prev || prev.run !== next.run) return { ...next, horizon };
  const changed = prev.running !== next.running || prev.speed !== next.speed;
  // Never move the horizon back: a device may already be there.
  const keep = Math.max(prev.horizon, horizon);
  if (changed) return { ...next, now: Math.max(prev.now, next.now), horizon: keep };
  if (next.now + lead / 2 > prev.horizon && keep > prev.horizon) return { ...next, now: Math.max(prev.now, next.now), horizon: keep };
  return null;
}

/** A sliding-window rate limit per student: at most `max` requests in `windowMs` of wall time. */
export class RateLimit {
  private readonly times = new Map<string, number[]>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  allow(key: string, wall: number): boolean {
    const recent = (this.times.get(key) ?? []).filter((t) => wall - t < this.windowMs);
    const ok = recent.length < this.max;
    if (ok) recent.push(wall);
    this.times.set(key, recent);
    return ok;
  }
}
