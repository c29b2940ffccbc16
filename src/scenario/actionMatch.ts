import type { Action } from '../sim/types';

/**
 * Whether two actions are the same (CURRICULUM §C.7, `try`): a lesson step's scripted action
 * against its `interactive` timeline entry (validation, tests), and a learner's action against
 * that entry (guided mode). One implementation for both, so what the checks accept is what the
 * lesson waits for.
 */

/** Partition groups as the engine applies them: unlisted nodes join the first group. */
function fullGroups(groups: readonly (readonly string[])[], nodes: readonly string[]): string[][] {
  const listed = new Set(groups.flat());
  const out = groups.map((g) => [...g]);
  if (out.length > 0) out[0].push(...nodes.filter((n) => !listed.has(n)));
  return out.map((g) => [...new Set(g)].sort()).filter((g) => g.length > 0);
}

/** JSON with object keys sorted, so nested fields compare whatever order they were written in. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stable(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function canonical(a: Readonly<Record<string, unknown>>, nodes: readonly string[]): string {
  if (a.do === 'partition' && Array.isArray(a.groups)) {
    const groups = fullGroups(a.groups as string[][], nodes)
      .map((g) => g.join(','))
      .sort();
    return `partition:${groups.join('|')}`;
  }
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) if (k !== 'do' && v !== undefined && !(k === 'oneWay' && v === false)) rest[k] = v;
  return `${String(a.do)}:${stable(rest)}`;
}

/**
 * Is `other` exactly the `scripted` action? Partitions compare as sets of groups (the order of
 * groups and of nodes in a group, and the first group's unlisted nodes, do not matter: the engine
 * applies them alike); other actions field by field, an absent `oneWay` being false. A selector in
 * the script (`@leader`) matches the node it stands for, which the caller resolves (`resolve`).
 */
export function sameAction(
  scripted: Action | Readonly<Record<string, unknown>>,
  other: Action | Readonly<Record<string, unknown>>,
  nodes: readonly string[] = [],
  resolve: (selector: string) => string[] = () => [],
): boolean {
  const s = { ...scripted } as Record<string, unknown>;
  const o = other as Readonly<Record<string, unknown>>;
  if (s.do !== o.do) return false;
  for (const k of ['node', 'from', 'to']) {
    const v = s[k];
    const l = o[k];
    if (typeof v === 'string' && v.startsWith('@') && typeof l === 'string' && resolve(v).includes(l)) s[k] = l;
  }
  return canonical(s, nodes) === canonical(o, nodes);
}

/**
 * Whether a step's `try` action is this timeline entry: the same action (`sameAction`), whatever
 * the entry's `at`/`on` (when it fires), `by` (who applied it) and `interactive`.
 */
export function tryMatchesEntry(action: Action | Readonly<Record<string, unknown>>, entry: Readonly<Record<string, unknown>>, nodes: readonly string[] = []): boolean {
  const { at: _at, on: _on, by: _by, interactive: _i, ...rest } = entry;
  return sameAction(action, rest, nodes);
}
