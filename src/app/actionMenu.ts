import { actionTable, actionsForKey, type ActionSpec, type Condition, type FieldSpec } from '../scenario/actions';
import { describeAction } from '../scenario/describeAction';
import type { Lang } from '../scenario/i18n';
import type { Action, ActionKind, NodeId } from '../sim/types';
import { actionLabel } from './words/actionWords';

/**
 * Menus, context menus, the node panel's buttons and keyboard shortcuts are all generated here
 * from the one action table (scenario/actions.ts): what applies to a target, and the action it
 * makes. Pure functions of a target's state (taken at the cursor time), so a test can drive every
 * key of the table without a page.
 */

export interface NodeTarget {
  kind: 'node';
  id: NodeId;
  up: boolean;
  /** Current value of each numeric field this node holds (slow: the factor `slow` actions set). */
  values: Readonly<Record<string, number>>;
  /** Strategy-specific actions the running strategy acts on for this node (Raft server: timeout). */
  accepts: ReadonlySet<ActionKind>;
  /** Workers compute gradients (and only they can turn Byzantine); absent: not a worker. */
  worker?: boolean;
  /** The engine drives it as Byzantine now. */
  byzantine?: boolean;
}

export interface LinkTarget {
  kind: 'link';
  from: NodeId;
  to: NodeId;
  cut: boolean;
  /** A man-in-the-middle is on this direction. */
  tampered?: boolean;
  /** The strategy sends parameter-server updates over links an attacker could alter (protocols/wire.ts). */
  wire?: boolean;
}

export interface ClusterTarget {
  kind: 'cluster';
  /** The partition tool's draft as an action, or null while it is incomplete. */
  partition: Action | null;
  /** The cluster runs a coordination service (c0…): metadata can be written through it. */
  coordination?: boolean;
}

export type Target = NodeTarget | LinkTarget | ClusterTarget;

/** A menu item: an action ready to apply, or the entry's form to open (partition groups, link settings). */
export type Choice = { spec: ActionSpec; action: Action } | { spec: ActionSpec; form: true; target: Target };

const targetKind: Record<ActionSpec['target'], Target['kind']> = { node: 'node', link: 'link', cluster: 'cluster', groups: 'cluster' };

function holds(c: Condition, t: Target, kind: ActionKind): boolean {
  switch (c) {
    case 'up':
      return t.kind === 'node' && t.up;
    case 'down':
      return t.kind === 'node' && !t.up;
    case 'intact':
      return t.kind === 'link' && !t.cut;
    case 'cut':
      return t.kind === 'link' && t.cut;
    case 'strategy':
      return t.kind === 'node' && t.accepts.has(kind);
    case 'coordination':
      return t.kind === 'cluster' && t.coordination === true;
    case 'worker':
      return t.kind === 'node' && t.worker === true;
    case 'faithful':
      return t.kind === 'node' && !t.byzantine;
    case 'byzantine':
      return t.kind === 'node' && t.byzantine === true;
    case 'untampered':
      return t.kind === 'link' && !t.tampered;
    case 'tampered':
      return t.kind === 'link' && t.tampered === true;
    case 'wire':
      return t.kind === 'link' && t.wire === true;
  }
}

export function applies(spec: ActionSpec, t: Target): boolean {
  return targetKind[spec.target] === t.kind && (spec.when ?? []).every((c) => holds(c, t, spec.do));
}

/** The fields every action of the target fills in: node, or from/to. */
function targetFields(t: Target): Record<string, unknown> {
  if (t.kind === 'node') return { node: t.id };
  if (t.kind === 'link') return { from: t.from, to: t.to };
  return {};
}

/** Numeric fields that must be chosen (no default, not optional): the action needs a form or choices. */
const needsValue = (f: FieldSpec) => f.kind === 'number' && !f.optional;

/**
 * An entry whose numeric fields are all optional with no default does nothing without values
 * (link settings): it opens its form. So does one with a required value that has no default, and
 * one with text to type (putMeta's key and value).
 */
function needsForm(spec: ActionSpec): boolean {
  if (spec.fields.some((f) => f.kind === 'text')) return true;
  const numbers = spec.fields.filter((f) => f.kind === 'number');
  if (numbers.length > 0 && numbers.every((f) => f.optional && f.default === undefined)) return true;
  return numbers.some((f) => needsValue(f) && f.default === undefined && !f.choices);
}

/** A field whose values a menu lists one item each: numbers with `choices`, or a `choice` field's options. */
function listed(spec: ActionSpec): { field: FieldSpec; values: ReadonlyArray<number | string> } | null {
  const numbers = spec.fields.filter(needsValue).find((f) => f.choices);
  if (numbers) return { field: numbers, values: numbers.choices! };
  const options = spec.fields.find((f) => f.kind === 'choice' && f.options);
  return options ? { field: options, values: options.options!.map((o) => o.value) } : null;
}

/**
 * Every table entry that applies to the target, in table order. A numeric field with `choices`,
 * or a choice field (an attack), becomes one item per value; an action that needs values the
 * target cannot give (link settings, an incomplete partition) becomes a form.
 */
export function choicesFor(t: Target): Choice[] {
  const out: Choice[] = [];
  for (const spec of actionTable) {
    if (!applies(spec, t)) continue;
    if (spec.target === 'groups') {
      out.push(t.kind === 'cluster' && t.partition ? { spec, action: t.partition } : { spec, form: true, target: t });
      continue;
    }
    if (needsForm(spec)) {
      out.push({ spec, form: true, target: t });
      continue;
    }
    const base = { do: spec.do, ...targetFields(t), ...defaults(spec.fields) };
    const list = listed(spec);
    if (list) {
      for (const v of list.values) out.push({ spec, action: { ...base, [list.field.name]: v } as Action });
    } else out.push({ spec, action: base as Action });
  }
  return out;
}

/**
 * What a key or a menu item sends beside its target and listed value: every numeric field with a
 * default (slow ×4; an attack's ×10) and a choice field's first option (its default attack).
 */
function defaults(fields: readonly FieldSpec[]): Record<string, number | boolean | string> {
  const out: Record<string, number | boolean | string> = {};
  for (const f of fields) {
    if (f.kind === 'number' && f.default !== undefined) out[f.name] = f.default;
    if (f.kind === 'choice' && f.options?.length) out[f.name] = f.options[0].value;
  }
  return out;
}

/**
 * What a key does with the current selection: the first entry bound to the key that applies to
 * its target (the selection for node and link entries, the cluster for heal and partition). A
 * key sends each field's default — or its `neutral` value when the target already holds another
 * value (s: slow ×4, and back to ×1).
 */
export function keyChoice(key: string, selection: NodeTarget | LinkTarget | null, cluster: ClusterTarget): Choice | null {
  for (const spec of actionsForKey(key)) {
    const t = targetKind[spec.target] === 'cluster' ? cluster : selection;
    if (!t || !applies(spec, t)) continue;
    if (spec.target === 'groups') return cluster.partition ? { spec, action: cluster.partition } : { spec, form: true, target: cluster };
    if (needsForm(spec)) return { spec, form: true, target: t };
    const valued = spec.fields.filter(needsValue);
    const values: Record<string, number | boolean | string> = defaults(spec.fields);
    for (const f of valued) {
      const current = t.kind === 'node' ? t.values[f.name] : undefined;
      values[f.name] = f.neutral !== undefined && current !== undefined && current !== f.neutral ? f.neutral : f.default!;
    }
    return { spec, action: { do: spec.do, ...targetFields(t), ...values } as Action };
  }
  return null;
}

/** A menu item's text: the action in words ("crash s1", "slow w2 ×4"), or the entry's label for a form. */
export function choiceLabel(c: Choice, lang: Lang): string {
  if ('action' in c) return describeAction(c.action, lang);
  return `${actionLabel(c.spec, lang)}…`;
}
