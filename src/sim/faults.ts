import type { Action, LinkProps, NodeId, TamperAttack } from './types';

/**
 * THE effect of an action on the network (DESIGN rule 5: one action, one effect). The engine's
 * Network, the history index that scrubbing reads, and every explanation derive the network's
 * faults from this one pure function, so they can never disagree about what "cut w1↔w2" or a
 * partition with unlisted nodes means.
 */
export interface NetFaults {
  /** Directed links cut by `cut` ("from>to"). */
  readonly cuts: ReadonlySet<string>;
  /** node → partition group; null when there is no partition. Every node is placed. */
  readonly groups: ReadonlyMap<NodeId, number> | null;
  /** Per directed link, the settings `link` actions changed ("from>to" → changed fields). */
  readonly props: ReadonlyMap<string, Readonly<Partial<LinkProps>>>;
  /** Per directed link, the man-in-the-middle attached by `tamper` ("from>to" → its attack); absent: none. */
  readonly tampers?: ReadonlyMap<string, Readonly<TamperSpec>>;
}

/** A man-in-the-middle on one directed link (CURRICULUM §C.2 `tamper`). */
export interface TamperSpec {
  attack: TamperAttack;
  scale?: number;
  /** Messages it alters (replay: re-sends) before it stops; absent: until `untamper`. */
  count?: number;
}

export const noFaults: NetFaults = { cuts: new Set(), groups: null, props: new Map() };

export function linkKey(from: NodeId, to: NodeId): string {
  return `${from}>${to}`;
}

/** Does the action change the network? (The others act on nodes, or on the strategy.) */
export function isNetAction(a: Action): boolean {
  return a.do === 'partition' || a.do === 'heal' || a.do === 'cut' || a.do === 'restore' || a.do === 'link' || a.do === 'network' || a.do === 'tamper' || a.do === 'untamper';
}

/**
 * The faults after `a`, given those before (unchanged object when `a` is not a network action).
 * `partition` replaces any earlier partition and puts unlisted nodes in the first group
 * (CONTRACTS §1); `heal` removes the partition and every cut but keeps link settings
 * (CURRICULUM §C.5) and any man-in-the-middle (healing connectivity evicts no attacker);
 * `cut`/`restore`/`link` act on both directions unless `oneWay`; `tamper` attaches an attacker
 * to one direction (replacing an earlier one there) and `untamper` removes it.
 */
export function applyNetAction(f: NetFaults, a: Action, nodes: readonly NodeId[]): NetFaults {
  switch (a.do) {
    case 'partition': {
      const groups = new Map<NodeId, number>();
      a.groups.forEach((members, i) => members.forEach((n) => groups.set(n, i)));
      for (const n of nodes) if (!groups.has(n)) groups.set(n, 0);
      return { ...f, groups };
    }
    case 'heal':
      return { ...f, cuts: new Set(), groups: null };
    case 'cut':
    case 'restore': {
      const cuts = new Set(f.cuts);
      for (const [x, y] of directions(a)) {
        if (a.do === 'cut') cuts.add(linkKey(x, y));
        else cuts.delete(linkKey(x, y));
      }
      return { ...f, cuts };
    }
    case 'link': {
      const { do: _do, from: _f, to: _t, oneWay: _o, ...patch } = a;
      const changed: Partial<LinkProps> = {};
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) (changed as Record<string, number>)[k] = v;
      const props = new Map(f.props);
      for (const [x, y] of directions(a)) props.set(linkKey(x, y), { ...props.get(linkKey(x, y)), ...changed });
      return { ...f, props };
    }
    case 'network': {
      // Every directed link at once, as if `link` had been applied to each.
      const { do: _do, ...patch } = a;
      const changed: Partial<LinkProps> = {};
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) (changed as Record<string, number>)[k] = v;
      const props = new Map(f.props);
      for (const x of nodes) for (const y of nodes) if (x !== y) props.set(linkKey(x, y), { ...props.get(linkKey(x, y)), ...changed });
      return { ...f, props };
    }
    case 'tamper':
    case 'untamper': {
      const tampers = new Map(f.tampers ?? []);
      if (a.do === 'untamper') tampers.delete(linkKey(a.from, a.to));
      else tampers.set(linkKey(a.from, a.to), { attack: a.attack, ...(a.scale !== undefined ? { scale: a.scale } : {}), ...(a.count !== undefined ? { count: a.count } : {}) });
      return { ...f, tampers };
    }
    default:
      return f;
  }
}

function directions(a: { from: NodeId; to: NodeId; oneWay?: boolean }): Array<[NodeId, NodeId]> {
  return a.oneWay ? [[a.from, a.to]] : [
    [a.from, a.to],
    [a.to, a.from],
  ];
}

/** Why a message from→to cannot pass under these faults, or null. */
export function blockedBy(f: NetFaults, from: NodeId, to: NodeId): 'cut' | 'partition' | null {
  // The size checks spare the common fault-free case a key string per message.
  if (f.cuts.size > 0 && f.cuts.has(linkKey(from, to))) return 'cut';
  if (isPartitioned(f, from, to)) return 'partition';
  return null;
}

export function isPartitioned(f: NetFaults, from: NodeId, to: NodeId): boolean {
  return f.groups !== null && f.groups.get(from) !== f.groups.get(to);
}

/** The partition as groups of node ids in `nodes` order, or null. */
export function partitionGroups(f: NetFaults, nodes: readonly NodeId[]): NodeId[][] | null {
  if (!f.groups) return null;
  const out: NodeId[][] = [];
  for (const n of nodes) {
    const i = f.groups.get(n) ?? 0;
    (out[i] ??= []).push(n);
  }
  return out.filter((g) => g && g.length > 0);
}

/** Link settings under these faults, over the scenario's defaults. */
export function linkProps(f: NetFaults, defaults: LinkProps, from: NodeId, to: NodeId): LinkProps {
  const p = f.props.size > 0 ? f.props.get(linkKey(from, to)) : undefined;
  return p ? { ...defaults, ...p } : defaults;
}

/** The man-in-the-middle on the directed link from → to under these faults, or null. */
export function tamperOn(f: NetFaults, from: NodeId, to: NodeId): TamperSpec | null {
  return f.tampers && f.tampers.size > 0 ? (f.tampers.get(linkKey(from, to)) ?? null) : null;
}
