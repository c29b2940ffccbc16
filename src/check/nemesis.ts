import { rngFor, type Rng } from '../sim/rng';
import type { Action, NodeId } from '../sim/types';

/**
 * A seeded random fault schedule (Jepsen's "nemesis") over a cluster: symmetric partitions into
 * random halves, one-way cuts, crashes and restarts (of any node, and of "@leader" where the
 * strategy resolves it), slow workers, lossy / duplicating / slow links. Everything is healed at
 * `healAt` (at least one worker always stays up): the partition and cuts, every crashed node restarted, speeds and links restored —
 * then a quiet period in which progress must resume. Same seed ⇒ same schedule.
 */

export interface NemesisOptions {
  seed: number;
  workers: number;
  servers: number;
  brokers: number;
  /** First fault not before this time (ms). */
  startMs: number;
  /** Faults happen in [startMs, startMs + faultMs); healed at the end of it. */
  faultMs: number;
  /** Mean gap between faults (ms). */
  meanGapMs: number;
  /** Base link settings, restored at the heal. */
  network: { latencyMs: number; jitterMs: number };
  /** Favour crashes of servers, brokers and leaders (to show configurations that lose updates). */
  crashServers?: boolean;
  /** Coordination nodes c0… (they take faults like any server). */
  coord?: number;
  /** Also freeze processes (`pause`, a GC pause) and write the metadata key (`putMeta`); only with a coordination service, so other schedules stay as they were. */
  coordFaults?: { metaKey: string };
}

export type TimedAction = Action & { at: number };

export interface Schedule {
  timeline: TimedAction[];
  healAt: number;
  /** Kinds of faults drawn, for the summary. */
  counts: Record<string, number>;
}

export function nemesisSchedule(o: NemesisOptions): Schedule {
  const rng = rngFor(o.seed, 'nemesis');
  const workers = ids('w', o.workers);
  const others = [...ids('s', o.servers), ...ids('b', o.brokers), ...ids('c', o.coord ?? 0)];
  const all = [...workers, ...others];
  const healAt = o.startMs + o.faultMs;
  const out: TimedAction[] = [];
  const counts: Record<string, number> = {};
  const down = new Set<NodeId>();
  let leaderCrashes = 0;
  const slowed = new Set<NodeId>();
  const links = new Map<string, [NodeId, NodeId]>();
  const cuts: Array<[NodeId, NodeId]> = [];

  const push = (at: number, a: Action, kind: string) => {
    out.push({ ...a, at: Math.round(at) } as TimedAction);
    counts[kind] = (counts[kind] ?? 0) + 1;
  };

  const table: Array<[number, (at: number) => void]> = [
    [3, (at) => push(at, { do: 'partition', groups: split(rng, all) }, 'partition')],
    [1, (at) => push(at, { do: 'heal' }, 'heal')],
    [
      2,
      (at) => {
        const [from, to] = pair(rng, all);
        cuts.push([from, to]);
        push(at, { do: 'cut', from, to, oneWay: true }, 'cut');
      },
    ],
    [
      1,
      (at) => {
        if (cuts.length === 0) return;
        const [from, to] = cuts.splice(rng.int(0, cuts.length - 1), 1)[0];
        push(at, { do: 'restore', from, to, oneWay: true }, 'restore');
      },
    ],
    [
      2,
      (at) => {
        const pool = o.crashServers && others.length > 0 && rng.chance(0.7) ? others : all;
        const node = pick(rng, pool);
        if (down.has(node)) return;
        // Workers hold only volatile state: with all of them down at once the model itself is gone
        // (nothing to recover from without a checkpoint), so one worker always survives.
        if (node[0] === 'w' && workers.every((w) => w === node || down.has(w))) return;
        down.add(node);
        push(at, { do: 'crash', node }, 'crash');
      },
    ],
    [
      others.length > 0 ? (o.crashServers ? 3 : 1) : 0,
      (at) => {
        // Resolved by the strategy when it fires (skipped, and noted, where nothing leads).
        leaderCrashes++;
        push(at, { do: 'crash', node: '@leader' }, 'crash-leader');
      },
    ],
    [
      2,
      (at) => {
        if (down.size === 0) return;
        const node = pick(rng, [...down]);
        down.delete(node);
        push(at, { do: 'restart', node }, 'restart');
      },
    ],
    [
      1,
      (at) => {
        const node = pick(rng, workers);
        slowed.add(node);
        push(at, { do: 'slow', node, factor: pick(rng, [2, 4, 8]) }, 'slow');
      },
    ],
    [
      2,
      (at) => {
        const [from, to] = pair(rng, all);
        links.set(`${from}>${to}`, [from, to]);
        const r = rng.next();
        if (r < 0.4) push(at, { do: 'link', from, to, loss: round2(rng.range(0.05, 0.5)) }, 'link-loss');
        else if (r < 0.7) push(at, { do: 'link', from, to, duplicate: round2(rng.range(0.1, 0.6)) }, 'link-duplicate');
        else push(at, { do: 'link', from, to, latencyMs: Math.round(rng.range(30, 300)) }, 'link-slow');
      },
    ],
  ];
  if (o.coordFaults) {
    const key = o.coordFaults.metaKey;
    let writes = 0;
    table.push(
      [
        2,
        (at) => {
          // A process freeze (GC pause): any node, 0.2–2.5 s, over before the heal.
          const node = pick(rng, all);
          const ms = Math.round(Math.min(rng.range(200, 2500), healAt - at));
          if (ms > 0) push(at, { do: 'pause', node, ms }, 'pause');
        },
      ],
      [2, (at) => push(at, { do: 'putMeta', key, value: `v${++writes}` }, 'put-meta')],
    );
  }
  const total = table.reduce((s, [w]) => s + w, 0);

  let t = o.startMs + rng.range(0, o.meanGapMs);
  while (t < healAt) {
    let r = rng.next() * total;
    for (const [w, f] of table) {
      if ((r -= w) < 0) {
        f(t);
        break;
      }
    }
    t += o.meanGapMs * (0.25 + 1.5 * rng.next());
  }

  // Heal everything at once, then leave the cluster alone.
  push(healAt, { do: 'heal' }, 'final-heal');
  for (const node of [...down].sort()) push(healAt, { do: 'restart', node }, 'final-restart');
  for (let i = 0; i < leaderCrashes; i++) push(healAt, { do: 'restart', node: '@crashed' }, 'final-restart');
  for (const node of [...slowed].sort()) push(healAt, { do: 'slow', node, factor: 1 }, 'final-unslow');
  for (const [from, to] of links.values()) {
    push(healAt, { do: 'link', from, to, loss: 0, duplicate: 0, latencyMs: o.network.latencyMs, jitterMs: o.network.jitterMs }, 'final-link');
  }
  return { timeline: out, healAt, counts };
}

function ids(prefix: string, n: number): NodeId[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${i}`);
}

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(0, xs.length - 1)];
}

function pair(rng: Rng, all: readonly NodeId[]): [NodeId, NodeId] {
  const a = rng.int(0, all.length - 1);
  let b = rng.int(0, all.length - 2);
  if (b >= a) b++;
  return [all[a], all[b]];
}

/** Two non-empty groups, each node on a random side. */
function split(rng: Rng, all: readonly NodeId[]): NodeId[][] {
  for (;;) {
    const a: NodeId[] = [];
    const b: NodeId[] = [];
    for (const id of all) (rng.chance(0.5) ? a : b).push(id);
    if (a.length > 0 && b.length > 0) return [a, b];
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100;
