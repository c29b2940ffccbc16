import { axpy } from '../sim/vectors';

/**
 * The merge rules of the `degrade` strategy as pure functions (TRUTHS: "the replicas must be
 * merged by a chosen rule … each rule has a visible cost").
 */

export type MergeRule = 'discard' | 'average' | 'replay';

export interface Contribution {
  worker: string;
  /** The side the worker found itself on when it detected the partition (sorted ids, joined). */
  side: string;
  /** Its side held a majority of the workers (the quorum that may stay authoritative). */
  quorum: boolean;
  params: Float32Array;
  version: number;
  /** Local steps taken since the split, in order, each with the version it was computed on. */
  grads: Array<{ grad: Float32Array; basedOn: number }>;
  /** A restarted worker with nothing to contribute. */
  empty: boolean;
}

export interface MergeOptions {
  rule: MergeRule;
  learningRate: number;
  averageWeights: 'size' | 'equal';
  replayLr: 'none' | 'inverse';
  /** Replayed gradients staler than this (in versions) are dropped. */
  replayMaxStaleness: number;
}

export interface MergeResult {
  params: Float32Array;
  version: number;
  /** Local steps whose effect the merge discarded. */
  lostWork: number;
  replayed: number;
}

interface Side {
  key: string;
  members: Contribution[];
  model: Float32Array;
}

function sidesOf(cs: readonly Contribution[]): Side[] {
  const by = new Map<string, Contribution[]>();
  for (const c of cs) if (!c.empty) by.set(c.side, [...(by.get(c.side) ?? []), c]);
  return [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, members]) => {
      const model = new Float32Array(members[0].params.length);
      for (const m of members) axpy(model, 1 / members.length, m.params);
      return { key, members, model };
    });
}

/**
 * The authoritative side: the one holding a majority of the workers. With no majority (an even
 * split) the tie is broken by the side with the lowest worker id, a fixed rule both sides would
 * compute alike.
 */
function quorumSide(sides: readonly Side[]): Side {
  const q = sides.find((s) => s.members.some((m) => m.quorum));
  if (q) return q;
  return [...sides].sort((a, b) => lowestId(a) - lowestId(b))[0];
}

function lowestId(s: Side): number {
  return Math.min(...s.members.map((m) => Number(m.worker.slice(1))));
}

export function mergeReplicas(cs: readonly Contribution[], o: MergeOptions): MergeResult {
  const version = Math.max(0, ...cs.map((c) => c.version)) + 1;
  const sides = sidesOf(cs);
  if (sides.length === 0) throw new Error('merge with no contribution');
  const q = quorumSide(sides);
  const others = sides.filter((s) => s !== q);
  const stepsOf = (s: Side) => s.members.reduce((a, m) => a + m.grads.length, 0);
  if (o.rule === 'discard') {
    return { params: q.model.slice(), version, lostWork: others.reduce((a, s) => a + stepsOf(s), 0), replayed: 0 };
  }
  if (o.rule === 'average') {
    const total = sides.reduce((a, s) => a + s.members.length, 0);
    const params = new Float32Array(q.model.length);
    for (const s of sides) axpy(params, o.averageWeights === 'size' ? s.members.length / total : 1 / sides.length, s.model);
    return { params, version, lostWork: 0, replayed: 0 };
  }
  // replay: the quorum side's model, then the other sides' gradients in the order they were taken.
  // Gradient k of a worker was computed k local steps after the split; the merged lineage is
  // `ahead` steps past the split plus what was replayed before it: τ = ahead + replayed − k.
  const params = q.model.slice();
  const ahead = Math.round(q.members.reduce((a, m) => a + m.grads.length, 0) / q.members.length);
  let replayed = 0;
  let dropped = 0;
  for (const s of others) {
    for (const m of s.members) {
      m.grads.forEach((g, k) => {
        const tau = ahead + replayed - k;
        if (tau > o.replayMaxStaleness) {
          dropped++;
          return;
        }
        const lr = o.replayLr === 'inverse' ? o.learningRate / Math.max(1, tau) : o.learningRate;
        axpy(params, -lr, g.grad);
        replayed++;
      });
    }
  }
  return { params, version, lostWork: dropped, replayed };
}
