import type { Action } from '../sim/types';
import type { ProblemFact } from './problems';

/**
 * Node ids of a cluster and the checks that an action only names nodes that exist. Shared by the
 * scenario validator (timeline entries) and parseAction (actions from the UI or a test), so both
 * reject a bad node with the same words.
 */

export interface ClusterSize {
  workers: number;
  servers?: number;
  brokers?: number;
  /** Coordination-service nodes c0… (CURRICULUM §C.1). */
  coord?: number;
}

/** Prefixes in display order; a new role adds a row here. */
const roles: ReadonlyArray<{ prefix: string; key: keyof ClusterSize }> = [
  { prefix: 'w', key: 'workers' },
  { prefix: 's', key: 'servers' },
  { prefix: 'b', key: 'brokers' },
  { prefix: 'c', key: 'coord' },
];

export function clusterNodeIds(cluster: ClusterSize): string[] {
  const ids: string[] = [];
  for (const { prefix, key } of roles) {
    const n = cluster[key] ?? 0;
    for (let i = 0; i < n; i++) ids.push(`${prefix}${i}`);
  }
  return ids;
}

/** `['w0','w1','w2','w3','s0']` → `w0-w3, s0`: consecutive ids of one role become a range. */
export function describeNodeIds(ids: readonly string[]): string {
  const byPrefix = new Map<string, number[]>();
  const other: string[] = [];
  for (const id of ids) {
    const m = /^([a-z]+)(\d+)$/.exec(id);
    if (!m) {
      other.push(id);
      continue;
    }
    const list = byPrefix.get(m[1]) ?? [];
    list.push(Number(m[2]));
    byPrefix.set(m[1], list);
  }
  const parts: string[] = [];
  for (const [prefix, nums] of byPrefix) {
    const sorted = [...new Set(nums)].sort((a, b) => a - b);
    let start = sorted[0];
    let prev = start;
    const flush = () => parts.push(start === prev ? `${prefix}${start}` : `${prefix}${start}-${prefix}${prev}`);
    for (const n of sorted.slice(1)) {
      if (n === prev + 1) prev = n;
      else {
        flush();
        start = prev = n;
      }
    }
    flush();
  }
  return [...parts, ...other].join(', ') || 'no nodes';
}

/** Problems with the nodes an action names, as `[path-suffix, fact]` pairs. */
export function actionNodeFacts(action: Action, nodeIds: readonly string[]): Array<[string, ProblemFact]> {
  const known = new Set(nodeIds);
  const problems: Array<[string, ProblemFact]> = [];
  const need = (field: string, id: string) => {
    if (!known.has(id)) problems.push([field, { kind: 'unknownNode', id, known: nodeIds }]);
  };
  switch (action.do) {
    case 'partition': {
      const seen = new Set<string>();
      for (const group of action.groups) {
        for (const id of group) {
          if (seen.has(id)) {
            problems.push(['groups', { kind: 'listedTwice', id }]);
            continue;
          }
          seen.add(id);
          if (!id.startsWith('@')) need('groups', id);
        }
      }
      break;
    }
    case 'cut':
    case 'restore':
    case 'link':
    case 'tamper':
    case 'untamper':
      // Selectors resolve when the action fires; two equal selectors can only name one node.
      if (!action.from.startsWith('@')) need('from', action.from);
      if (!action.to.startsWith('@')) need('to', action.to);
      if (action.from === action.to) problems.push(['to', { kind: 'sameNode', id: action.to }]);
      break;
    case 'crash':
    case 'restart':
    case 'slow':
    case 'timeout':
    case 'pause':
    case 'byzantine':
    case 'honest':
    case 'submit':
      // Selectors ("@leader", "@crashed") resolve when the action fires.
      if (!action.node.startsWith('@')) need('node', action.node);
      break;
    case 'heal':
    case 'network':
    case 'putMeta':
      break;
  }
  return problems;
}
