import type { ActionKind } from '../sim/types';
import type { I18nText, Lang } from './i18n';

/**
 * THE ACTION TABLE (DESIGN rule 5). Every user action is defined once here, next to its zod
 * schema in actionSchemas.ts: the UI builds menus, forms and keyboard shortcuts from it, scenario
 * timelines are validated with the same schema and node checks, and tests drive it through
 * parseAction (parseAction.ts). Adding an action = a schema in `actionSchemas` + a row here (+ the
 * engine's effect) + its words in each other language (app/words/actionWords.<lang>.ts, which a
 * test checks). Its short descriptions are describeAction.ts.
 */

export type { Lang, I18nText };

export type FieldKind = 'node' | 'number' | 'boolean' | 'groups' | 'text' | 'choice';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  /** Optional fields may be left out; the engine keeps the current value. */
  optional?: boolean;
  /** A text field's suggested value (e.g. the checkpoint pointer's key). */
  placeholder?: string;
  min?: number;
  max?: number;
  step?: number;
  default?: number | boolean;
  /** Display unit for numbers (ms, Mbps, ×, %). */
  unit?: string;
  /** `choice` fields: the values, in menu order, with their labels. */
  options?: ReadonlyArray<{ value: string; label: string }>;
  /** Values a menu offers as one item each (slow: ×1 ×2 ×4 ×8); without them a menu opens a form. */
  choices?: readonly number[];
  /**
   * The value that undoes the action (slow: factor 1). A key sends `default`, or `neutral` when
   * the target already holds a value other than it — the key toggles.
   */
  neutral?: number;
  /** In English; other languages' words are the app's (app/words/actionWords.ts). */
  label: string;
}

/**
 * When an entry applies to its target, checked against the state at the cursor time: a node that
 * is `up` or `down`, a link that is `intact` or `cut`; `strategy`: only where the running strategy
 * acts on it for that node (Simulation.acceptsAction — Raft's timeout on a server);
 * `coordination`: only in a cluster with a coordination service (putMeta). Security:
 * a `worker` node that is `faithful` or `byzantine`; a link that is `untampered` or `tampered`, and
 * `wire`: the strategy sends parameter-server updates over it an attacker could alter.
 */
export type Condition = 'up' | 'down' | 'intact' | 'cut' | 'strategy' | 'coordination' | 'worker' | 'faithful' | 'byzantine' | 'untampered' | 'tampered' | 'wire';

export interface ActionSpec {
  do: ActionKind;
  /** In English, as `hint`; other languages' words are the app's (app/words/actionWords.ts). */
  label: string;
  hint: string;
  /** Keyboard shortcut on the selected node/link. Two actions share a key when they toggle (cut/restore). */
  key?: string;
  /** The action that undoes this one; with a shared key the UI picks by the current state. */
  inverse?: ActionKind;
  target: 'cluster' | 'node' | 'link' | 'groups';
  /** All must hold for the entry to be offered (menus) or chosen (keys). */
  when?: readonly Condition[];
  fields: FieldSpec[];
}

const from: FieldSpec = { name: 'from', kind: 'node', label: 'from' };
const to: FieldSpec = { name: 'to', kind: 'node', label: 'to' };
const oneWay: FieldSpec = {
  name: 'oneWay',
  kind: 'boolean',
  optional: true,
  default: false,
  label: 'one direction only',
};
const node: FieldSpec = { name: 'node', kind: 'node', label: 'node' };

export const actionTable: readonly ActionSpec[] = [
  {
    do: 'partition',
    label: 'Partition',
    hint: 'Split the network: nodes in different groups cannot exchange messages. Unlisted nodes join the first group.',
    key: 'p',
    inverse: 'heal',
    target: 'groups',
    fields: [{ name: 'groups', kind: 'groups', label: 'groups' }],
  },
  {
    do: 'heal',
    label: 'Heal',
    hint: 'Remove every partition and restore every cut link (link settings stay).',
    key: 'h',
    target: 'cluster',
    fields: [],
  },
  {
    do: 'cut',
    label: 'Cut link',
    hint: 'Cut the link between two nodes, in both directions unless "one direction only".',
    key: 'c',
    inverse: 'restore',
    target: 'link',
    when: ['intact'],
    fields: [from, to, oneWay],
  },
  {
    do: 'restore',
    label: 'Restore link',
    hint: 'Reconnect a cut link.',
    key: 'c',
    inverse: 'cut',
    target: 'link',
    when: ['cut'],
    fields: [from, to, oneWay],
  },
  {
    do: 'crash',
    label: 'Crash',
    hint: 'Stop the node: its volatile state is lost, persistent state (e.g. a Raft log) is kept.',
    key: 'x',
    inverse: 'restart',
    target: 'node',
    when: ['up'],
    fields: [node],
  },
  {
    do: 'restart',
    label: 'Restart',
    hint: 'Start a crashed node again.',
    key: 'x',
    inverse: 'crash',
    target: 'node',
    when: ['down'],
    fields: [node],
  },
  {
    do: 'slow',
    label: 'Slow down',
    hint: 'Multiply the node’s step time from now on (1 restores normal speed).',
    key: 's',
    target: 'node',
    when: ['up'],
    fields: [
      node,
      { name: 'factor', kind: 'number', min: 0.1, max: 1000, step: 0.5, default: 4, choices: [1, 2, 4, 8], neutral: 1, unit: '×', label: 'slowdown' },
    ],
  },
  {
    do: 'timeout',
    label: 'Election timeout',
    hint: 'Fire the node’s election timer now, as if it had heard no leader (Raft; like RaftScope’s “timeout”).',
    key: 't',
    target: 'node',
    when: ['up', 'strategy'],
    fields: [node],
  },
  {
    do: 'link',
    label: 'Link settings',
    hint: 'Change the latency, bandwidth, loss or duplication of a link; fields left out keep their value.',
    key: 'l',
    target: 'link',
    fields: [
      from,
      to,
      oneWay,
      { name: 'latencyMs', kind: 'number', optional: true, min: 0, max: 10000, step: 1, unit: 'ms', label: 'latency' },
      { name: 'jitterMs', kind: 'number', optional: true, min: 0, max: 10000, step: 1, unit: 'ms', label: 'jitter' },
      { name: 'bandwidthMbps', kind: 'number', optional: true, min: 0.01, max: 100000, step: 1, unit: 'Mbps', label: 'bandwidth' },
      { name: 'loss', kind: 'number', optional: true, min: 0, max: 1, step: 0.01, label: 'loss rate' },
      { name: 'duplicate', kind: 'number', optional: true, min: 0, max: 1, step: 0.01, label: 'duplication rate' },
    ],
  },
  {
    do: 'pause',
    label: 'Pause 2 s (GC)',
    hint: 'Freeze the process, as a garbage-collection pause or a VM freeze does: it handles nothing, its timers and its computation stop, messages to it wait. It then resumes where it was, unaware that time passed. Unlike a crash, all its state is kept.',
    key: 'g',
    target: 'node',
    when: ['up'],
    fields: [
      node,
      { name: 'ms', kind: 'number', min: 1, max: 600000, step: 100, default: 2000, unit: 'ms', label: 'duration' },
    ],
  },
  {
    do: 'putMeta',
    label: 'Write metadata',
    hint: 'Write a metadata key (for example the checkpoint pointer /ckpt/latest) through the coordination service’s leader, as a trainer moving the pointer would.',
    key: 'w',
    target: 'cluster',
    when: ['coordination'],
    fields: [
      { name: 'key', kind: 'text', placeholder: '/ckpt/latest', label: 'key' },
      { name: 'value', kind: 'text', placeholder: 'ckpt-10000', label: 'value' },
    ],
  },
  {
    do: 'tamper',
    label: 'Tamper',
    hint: 'A man-in-the-middle on this direction of the link alters the updates in flight and recomputes every check it can without a key (a plain SHA-256 digest, yes; an HMAC, no). "replay" re-sends genuine messages it recorded earlier.',
    key: 'm',
    inverse: 'untamper',
    target: 'link',
    when: ['untampered', 'wire'],
    fields: [
      from,
      to,
      {
        name: 'attack',
        kind: 'choice',
        label: 'attack',
        options: [
          { value: 'flip', label: 'flip the sign (× scale)' },
          { value: 'scale', label: 'scale' },
          { value: 'noise', label: 'add noise' },
          { value: 'replay', label: 'replay recorded messages' },
        ],
      },
      { name: 'scale', kind: 'number', optional: true, min: 0.001, max: 1e6, step: 1, default: 10, unit: '×', label: 'scale (noise: std. deviation)' },
      { name: 'count', kind: 'number', optional: true, min: 1, max: 10000, step: 1, label: 'messages (empty: until removed)' },
    ],
  },
  {
    do: 'untamper',
    label: 'Remove attacker',
    hint: 'Take the man-in-the-middle off this direction of the link.',
    key: 'm',
    inverse: 'tamper',
    target: 'link',
    when: ['tampered'],
    fields: [from, to],
  },
  {
    do: 'byzantine',
    label: 'Byzantine',
    hint: 'The worker turns malicious: it still holds valid keys, so every check passes, but it sends poisoned gradients. Only a robust aggregation rule can limit it.',
    key: 'y',
    inverse: 'honest',
    target: 'node',
    when: ['up', 'worker', 'faithful'],
    fields: [
      { ...node, label: 'worker' },
      {
        name: 'attack',
        kind: 'choice',
        label: 'attack',
        options: [
          { value: 'sign-flip', label: 'sign flip (× scale)' },
          { value: 'large-norm', label: 'huge gradient (× scale)' },
          { value: 'random', label: 'random noise (std. scale)' },
          { value: 'alie', label: '"A Little Is Enough"' },
        ],
      },
      { name: 'scale', kind: 'number', optional: true, min: 0.001, max: 1e6, step: 1, default: 10, unit: '×', label: 'scale (alie: z)' },
    ],
  },
  {
    do: 'honest',
    label: 'Honest again',
    hint: 'The worker sends its true gradients again.',
    key: 'y',
    inverse: 'byzantine',
    target: 'node',
    when: ['worker', 'byzantine'],
    fields: [{ ...node, label: 'worker' }],
  },
  {
    do: 'submit',
    label: 'Submit an update',
    hint: 'The worker pushes one update to the Raft servers now (a manual client, clientMode "manual"; the lesson on Raft’s Figure 8 scripts every update this way).',
    key: 'u',
    target: 'node',
    when: ['up', 'worker', 'strategy'],
    fields: [
      { ...node, label: 'worker' },
      { name: 'count', kind: 'number', optional: true, min: 1, max: 100, step: 1, default: 1, label: 'updates' },
    ],
  },
  {
    do: 'network',
    label: 'Whole network',
    hint: 'Change the latency, jitter, bandwidth or loss of every link at once; fields left out keep their value.',
    key: 'n',
    target: 'cluster',
    fields: [
      { name: 'latencyMs', kind: 'number', optional: true, min: 0, max: 10000, step: 1, unit: 'ms', label: 'latency' },
      { name: 'jitterMs', kind: 'number', optional: true, min: 0, max: 10000, step: 1, unit: 'ms', label: 'jitter' },
      { name: 'bandwidthMbps', kind: 'number', optional: true, min: 0.01, max: 100000, step: 1, unit: 'Mbps', label: 'bandwidth' },
      { name: 'loss', kind: 'number', optional: true, min: 0, max: 1, step: 0.01, label: 'loss rate' },
    ],
  },
];

export function actionSpec(kind: ActionKind): ActionSpec {
  const spec = actionTable.find((a) => a.do === kind);
  if (!spec) throw new Error(`no action-table entry for "${kind}"`); // a programming error, caught by tests
  return spec;
}

/** Entries bound to a keyboard key (cut and restore share `c`: pick by the link's state). */
export function actionsForKey(key: string): ActionSpec[] {
  const k = key.toLowerCase();
  return actionTable.filter((a) => a.key === k);
}
