import type { ActionKind } from '../sim/types';
import type { I18nText, Lang } from './i18n';

/**
 * THE ACTION TABLE (DESIGN rule 5). Every user action is defined once here, next to its zod
 * schema in actionSchemas.ts: the UI builds menus, forms and keyboard shortcuts from it, scenario
 * timelines are validated with the same schema and node checks, and tests drive it through
 * parseAction (parseAction.ts). Adding an action = a schema in `actionSchemas` + a row here (+ the
 * engine's effect). Its short descriptions are describeAction.ts.
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
  options?: ReadonlyArray<{ value: string; label: I18nText }>;
  /** Values a menu offers as one item each (slow: ×1 ×2 ×4 ×8); without them a menu opens a form. */
  choices?: readonly number[];
  /**
   * The value that undoes the action (slow: factor 1). A key sends `default`, or `neutral` when
   * the target already holds a value other than it — the key toggles.
   */
  neutral?: number;
  label: I18nText;
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
  label: I18nText;
  hint: I18nText;
  /** Keyboard shortcut on the selected node/link. Two actions share a key when they toggle (cut/restore). */
  key?: string;
  /** The action that undoes this one; with a shared key the UI picks by the current state. */
  inverse?: ActionKind;
  target: 'cluster' | 'node' | 'link' | 'groups';
  /** All must hold for the entry to be offered (menus) or chosen (keys). */
  when?: readonly Condition[];
  fields: FieldSpec[];
}

const from: FieldSpec = { name: 'from', kind: 'node', label: { en: 'from', zh: '起点' } };
const to: FieldSpec = { name: 'to', kind: 'node', label: { en: 'to', zh: '终点' } };
const oneWay: FieldSpec = {
  name: 'oneWay',
  kind: 'boolean',
  optional: true,
  default: false,
  label: { en: 'one direction only', zh: '仅单向' },
};
const node: FieldSpec = { name: 'node', kind: 'node', label: { en: 'node', zh: '节点' } };

export const actionTable: readonly ActionSpec[] = [
  {
    do: 'partition',
    label: { en: 'Partition', zh: '网络分区' },
    hint: {
      en: 'Split the network: nodes in different groups cannot exchange messages. Unlisted nodes join the first group.',
      zh: '把网络分成几组：不同组的节点之间无法收发消息。未列出的节点归入第一组。',
    },
    key: 'p',
    inverse: 'heal',
    target: 'groups',
    fields: [{ name: 'groups', kind: 'groups', label: { en: 'groups', zh: '分组' } }],
  },
  {
    do: 'heal',
    label: { en: 'Heal', zh: '修复网络' },
    hint: {
      en: 'Remove every partition and restore every cut link (link settings stay).',
      zh: '消除所有网络分区，恢复所有被切断的链路（链路参数设置保持不变）。',
    },
    key: 'h',
    target: 'cluster',
    fields: [],
  },
  {
    do: 'cut',
    label: { en: 'Cut link', zh: '切断链路' },
    hint: {
      en: 'Cut the link between two nodes, in both directions unless "one direction only".',
      zh: '切断两个节点之间的链路；除非选择“仅单向”，两个方向都会断开。',
    },
    key: 'c',
    inverse: 'restore',
    target: 'link',
    when: ['intact'],
    fields: [from, to, oneWay],
  },
  {
    do: 'restore',
    label: { en: 'Restore link', zh: '恢复链路' },
    hint: { en: 'Reconnect a cut link.', zh: '重新接通被切断的链路。' },
    key: 'c',
    inverse: 'cut',
    target: 'link',
    when: ['cut'],
    fields: [from, to, oneWay],
  },
  {
    do: 'crash',
    label: { en: 'Crash', zh: '崩溃' },
    hint: {
      en: 'Stop the node: its volatile state is lost, persistent state (e.g. a Raft log) is kept.',
      zh: '让节点停止运行：易失状态丢失，持久化状态（如 Raft 日志）保留。',
    },
    key: 'x',
    inverse: 'restart',
    target: 'node',
    when: ['up'],
    fields: [node],
  },
  {
    do: 'restart',
    label: { en: 'Restart', zh: '重启' },
    hint: { en: 'Start a crashed node again.', zh: '重新启动已崩溃的节点。' },
    key: 'x',
    inverse: 'crash',
    target: 'node',
    when: ['down'],
    fields: [node],
  },
  {
    do: 'slow',
    label: { en: 'Slow down', zh: '减速' },
    hint: {
      en: 'Multiply the node’s step time from now on (1 restores normal speed).',
      zh: '从现在起把该节点的单步耗时乘以该倍数（设为 1 恢复正常速度）。',
    },
    key: 's',
    target: 'node',
    when: ['up'],
    fields: [
      node,
      { name: 'factor', kind: 'number', min: 0.1, max: 1000, step: 0.5, default: 4, choices: [1, 2, 4, 8], neutral: 1, unit: '×', label: { en: 'slowdown', zh: '减速倍数' } },
    ],
  },
  {
    do: 'timeout',
    label: { en: 'Election timeout', zh: '触发选举超时' },
    hint: {
      en: 'Fire the node’s election timer now, as if it had heard no leader (Raft; like RaftScope’s “timeout”).',
      zh: '立即触发该节点的选举计时器，就像它没有收到领导者的心跳一样（Raft；同 RaftScope 的 “timeout”）。',
    },
    key: 't',
    target: 'node',
    when: ['up', 'strategy'],
    fields: [node],
  },
  {
    do: 'link',
    label: { en: 'Link settings', zh: '链路设置' },
    hint: {
      en: 'Change the latency, bandwidth, loss or duplication of a link; fields left out keep their value.',
      zh: '修改链路的延迟、带宽、丢包率或重复率；未填写的项保持原值。',
    },
    key: 'l',
    target: 'link',
    fields: [
      from,
      to,
      oneWay,
      { name: 'latencyMs', kind: 'number', optional: true, min: 0, max: 10000, step: 1, unit: 'ms', label: { en: 'latency', zh: '延迟' } },
      { name: 'jitterMs', kind: 'number', optional: true, min: 0, max: 10000, step: 1, unit: 'ms', label: { en: 'jitter', zh: '抖动' } },
      { name: 'bandwidthMbps', kind: 'number', optional: true, min: 0.01, max: 100000, step: 1, unit: 'Mbps', label: { en: 'bandwidth', zh: '带宽' } },
      { name: 'loss', kind: 'number', optional: true, min: 0, max: 1, step: 0.01, label: { en: 'loss rate', zh: '丢包率' } },
      { name: 'duplicate', kind: 'number', optional: true, min: 0, max: 1, step: 0.01, label: { en: 'duplication rate', zh: '重复率' } },
    ],
  },
  {
    do: 'pause',
    label: { en: 'Pause 2 s (GC)', zh: '暂停 2 秒（GC）' },
    hint: {
      en: 'Freeze the process, as a garbage-collection pause or a VM freeze does: it handles nothing, its timers and its computation stop, messages to it wait. It then resumes where it was, unaware that time passed. Unlike a crash, all its state is kept.',
      zh: '冻结该进程，就像一次垃圾回收停顿或虚拟机冻结：它不处理任何事件，计时器和计算都停下，发给它的消息排队等候。之后它从原处继续运行，并不知道时间已经过去。与崩溃不同，它的全部状态都保留。',
    },
    key: 'g',
    target: 'node',
    when: ['up'],
    fields: [
      node,
      { name: 'ms', kind: 'number', min: 1, max: 600000, step: 100, default: 2000, unit: 'ms', label: { en: 'duration', zh: '时长' } },
    ],
  },
  {
    do: 'putMeta',
    label: { en: 'Write metadata', zh: '写入元数据' },
    hint: {
      en: 'Write a metadata key (for example the checkpoint pointer /ckpt/latest) through the coordination service’s leader, as a trainer moving the pointer would.',
      zh: '通过协调服务的领导者写入一个元数据键（例如检查点指针 /ckpt/latest），就像训练主控移动指针那样。',
    },
    key: 'w',
    target: 'cluster',
    when: ['coordination'],
    fields: [
      { name: 'key', kind: 'text', placeholder: '/ckpt/latest', label: { en: 'key', zh: '键' } },
      { name: 'value', kind: 'text', placeholder: 'ckpt-10000', label: { en: 'value', zh: '值' } },
    ],
  },
  {
    do: 'tamper',
    label: { en: 'Tamper', zh: '篡改' },
    hint: {
      en: 'A man-in-the-middle on this direction of the link alters the updates in flight and recomputes every check it can without a key (a plain SHA-256 digest, yes; an HMAC, no). "replay" re-sends genuine messages it recorded earlier.',
      zh: '在这条链路的这个方向上安插中间人：它篡改传输中的更新，并重新计算一切无需密钥就能算出的校验（普通 SHA-256 摘要可以，HMAC 不行）。“重放”会重发它先前录下的真实消息。',
    },
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
        label: { en: 'attack', zh: '攻击方式' },
        options: [
          { value: 'flip', label: { en: 'flip the sign (× scale)', zh: '取反（× 倍数）' } },
          { value: 'scale', label: { en: 'scale', zh: '放大' } },
          { value: 'noise', label: { en: 'add noise', zh: '加噪声' } },
          { value: 'replay', label: { en: 'replay recorded messages', zh: '重放录下的消息' } },
        ],
      },
      { name: 'scale', kind: 'number', optional: true, min: 0.001, max: 1e6, step: 1, default: 10, unit: '×', label: { en: 'scale (noise: std. deviation)', zh: '倍数（噪声：标准差）' } },
      { name: 'count', kind: 'number', optional: true, min: 1, max: 10000, step: 1, label: { en: 'messages (empty: until removed)', zh: '消息条数（留空：直到撤除）' } },
    ],
  },
  {
    do: 'untamper',
    label: { en: 'Remove attacker', zh: '撤除中间人' },
    hint: { en: 'Take the man-in-the-middle off this direction of the link.', zh: '把中间人从这条链路的这个方向上撤走。' },
    key: 'm',
    inverse: 'tamper',
    target: 'link',
    when: ['tampered'],
    fields: [from, to],
  },
  {
    do: 'byzantine',
    label: { en: 'Byzantine', zh: '拜占庭（内鬼）' },
    hint: {
      en: 'The worker turns malicious: it still holds valid keys, so every check passes, but it sends poisoned gradients. Only a robust aggregation rule can limit it.',
      zh: '该工作节点变成恶意节点：它仍持有有效密钥，所有校验都会通过，但它发送的是投毒梯度。只有鲁棒聚合规则能限制它。',
    },
    key: 'y',
    inverse: 'honest',
    target: 'node',
    when: ['up', 'worker', 'faithful'],
    fields: [
      { ...node, label: { en: 'worker', zh: '工作节点' } },
      {
        name: 'attack',
        kind: 'choice',
        label: { en: 'attack', zh: '攻击方式' },
        options: [
          { value: 'sign-flip', label: { en: 'sign flip (× scale)', zh: '符号翻转（× 倍数）' } },
          { value: 'large-norm', label: { en: 'huge gradient (× scale)', zh: '超大梯度（× 倍数）' } },
          { value: 'random', label: { en: 'random noise (std. scale)', zh: '随机噪声（标准差 = 倍数）' } },
          { value: 'alie', label: { en: '"A Little Is Enough"', zh: '“A Little Is Enough”（小扰动）' } },
        ],
      },
      { name: 'scale', kind: 'number', optional: true, min: 0.001, max: 1e6, step: 1, default: 10, unit: '×', label: { en: 'scale (alie: z)', zh: '倍数（alie：z 值）' } },
    ],
  },
  {
    do: 'honest',
    label: { en: 'Honest again', zh: '恢复诚实' },
    hint: { en: 'The worker sends its true gradients again.', zh: '该工作节点重新发送真实梯度。' },
    key: 'y',
    inverse: 'byzantine',
    target: 'node',
    when: ['worker', 'byzantine'],
    fields: [{ ...node, label: { en: 'worker', zh: '工作节点' } }],
  },
  {
    do: 'submit',
    label: { en: 'Submit an update', zh: '提交一次更新' },
    hint: {
      en: 'The worker pushes one update to the Raft servers now (a manual client, clientMode "manual"; the lesson on Raft’s Figure 8 scripts every update this way).',
      zh: '该工作节点立即向 Raft 服务器推送一次更新（手动客户端，clientMode 为 "manual"；讲 Raft 图 8 的那一课用它逐个安排每次更新）。',
    },
    key: 'u',
    target: 'node',
    when: ['up', 'worker', 'strategy'],
    fields: [
      { ...node, label: { en: 'worker', zh: '工作节点' } },
      { name: 'count', kind: 'number', optional: true, min: 1, max: 100, step: 1, default: 1, label: { en: 'updates', zh: '更新次数' } },
    ],
  },
  {
    do: 'network',
    label: { en: 'Whole network', zh: '整个网络' },
    hint: {
      en: 'Change the latency, jitter, bandwidth or loss of every link at once; fields left out keep their value.',
      zh: '一次性修改所有链路的延迟、抖动、带宽或丢包率；未填写的项保持原值。',
    },
    key: 'n',
    target: 'cluster',
    fields: [
      { name: 'latencyMs', kind: 'number', optional: true, min: 0, max: 10000, step: 1, unit: 'ms', label: { en: 'latency', zh: '延迟' } },
      { name: 'jitterMs', kind: 'number', optional: true, min: 0, max: 10000, step: 1, unit: 'ms', label: { en: 'jitter', zh: '抖动' } },
      { name: 'bandwidthMbps', kind: 'number', optional: true, min: 0.01, max: 100000, step: 1, unit: 'Mbps', label: { en: 'bandwidth', zh: '带宽' } },
      { name: 'loss', kind: 'number', optional: true, min: 0, max: 1, step: 0.01, label: { en: 'loss rate', zh: '丢包率' } },
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
