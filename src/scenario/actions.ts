import type { Action, ActionKind, ByzantineAttack, TamperAttack } from '../sim/types';
import { actionSchema, actionSchemas } from './schema';
import { fieldNamesOf, formatIssues, makeSuggester } from './issues';
import { actionNodeProblems } from './nodes';
import type { I18nText, Lang } from './i18n';

/**
 * THE ACTION TABLE (DESIGN rule 5). Every user action is defined once here, next to its zod
 * schema in schema.ts: the UI builds menus, forms and keyboard shortcuts from it, scenario
 * timelines are validated with the same schema and node checks, and tests drive it through
 * parseAction. Adding an action = a schema in `actionSchemas` + a row here (+ the engine's effect).
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

const suggest = makeSuggester(fieldNamesOf(actionSchema));

/**
 * Validates an action from the UI, a test or a pasted snippet, with the same schema, node checks
 * and messages as a scenario's timeline entries (paths start at the action: `groups: node "w9" …`).
 */
export function parseAction(input: unknown, nodeIds: readonly string[]): { ok: true; action: Action } | { ok: false; error: string } {
  const parsed = actionSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) return { ok: false, error: formatIssues(parsed.error.issues, { root: 'action', suggest }).join('; ') };
  const action = parsed.data as Action;
  const problems = actionNodeProblems(action, nodeIds);
  if (problems.length > 0) return { ok: false, error: problems.map(([field, msg]) => `${field}: ${msg}`).join('; ') };
  return { ok: true, action };
}

// ---------------------------------------------------------------------------------------------
// Short descriptions, for the timeline, the history list and narration.

const arrow = (a: { from: string; to: string; oneWay?: boolean }) => `${a.from}${a.oneWay ? '→' : '↔'}${a.to}`;

function fmtNum(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(4)));
}

/** 2000 → "2 s" / "2 秒"; 250 → "250 ms". */
function fmtSeconds(ms: number, lang: Lang): string {
  if (ms >= 1000 && ms % 100 === 0) return `${fmtNum(ms / 1000)} ${lang === 'zh' ? '秒' : 's'}`;
  return `${fmtNum(ms)} ms`;
}

function linkChanges(a: Extract<Action, { do: 'link' }>, lang: Lang): string {
  const zh = lang === 'zh';
  const parts: string[] = [];
  if (a.latencyMs !== undefined) parts.push(`${zh ? '延迟' : 'latency'} ${fmtNum(a.latencyMs)} ms`);
  if (a.jitterMs !== undefined) parts.push(`${zh ? '抖动' : 'jitter'} ${fmtNum(a.jitterMs)} ms`);
  if (a.bandwidthMbps !== undefined) parts.push(`${zh ? '带宽' : 'bandwidth'} ${fmtNum(a.bandwidthMbps)} Mbps`);
  if (a.loss !== undefined) parts.push(`${zh ? '丢包率' : 'loss'} ${fmtNum(a.loss * 100)}%`);
  if (a.duplicate !== undefined) parts.push(`${zh ? '重复率' : 'duplicate'} ${fmtNum(a.duplicate * 100)}%`);
  if (parts.length === 0) return zh ? '无变化' : 'no change';
  return parts.join(zh ? '，' : ', ');
}

/**
 * `partition {w0,w1} | {w2,w3}`, `cut w1↔w2` (both directions) or `cut w1→w2` (oneWay),
 * `crash w3`, `slow w2 ×4`, `link w0↔w1: latency 50 ms, loss 10%`; Chinese with the glossary's terms.
 */
export function describeAction(a: Action, lang: Lang): string {
  const zh = lang === 'zh';
  switch (a.do) {
    case 'partition': {
      const groups = a.groups.map((g) => `{${g.join(',')}}`).join(' | ');
      return zh ? `网络分区 ${groups}` : `partition ${groups}`;
    }
    case 'heal':
      return zh ? '修复网络' : 'heal';
    case 'cut':
      return zh ? `切断 ${arrow(a)}` : `cut ${arrow(a)}`;
    case 'restore':
      return zh ? `恢复 ${arrow(a)}` : `restore ${arrow(a)}`;
    case 'crash':
      return zh ? `崩溃 ${a.node}` : `crash ${a.node}`;
    case 'restart':
      return zh ? `重启 ${a.node}` : `restart ${a.node}`;
    case 'slow':
      if (a.factor === 1) return zh ? `${a.node} 恢复正常速度` : `${a.node} back to normal speed`;
      return zh ? `减速 ${a.node} ×${fmtNum(a.factor)}` : `slow ${a.node} ×${fmtNum(a.factor)}`;
    case 'timeout':
      return zh ? `${a.node} 选举超时` : `election timeout on ${a.node}`;
    case 'link':
      return zh ? `链路 ${arrow(a)}：${linkChanges(a, lang)}` : `link ${arrow(a)}: ${linkChanges(a, lang)}`;
    case 'pause':
      return zh ? `暂停 ${a.node} ${fmtSeconds(a.ms, lang)}（GC）` : `pause ${a.node} ${fmtSeconds(a.ms, lang)} (GC)`;
    case 'putMeta':
      return zh ? `写入元数据 ${a.key} = "${a.value}"` : `put ${a.key} = "${a.value}"`;
    case 'tamper': {
      const words = zh ? tamperWordsZh : tamperWordsEn;
      const parts = [words[a.attack]];
      if (a.scale !== undefined) parts.push(`×${fmtNum(a.scale)}`);
      if (a.count !== undefined) parts.push(zh ? `${a.count} 条` : `${a.count} messages`);
      return zh ? `篡改 ${a.from}→${a.to}：${parts.join(' ')}` : `tamper ${a.from}→${a.to}: ${parts.join(' ')}`;
    }
    case 'untamper':
      return zh ? `撤除 ${a.from}→${a.to} 上的中间人` : `remove the attacker from ${a.from}→${a.to}`;
    case 'byzantine': {
      const w = (zh ? byzantineWordsZh : byzantineWordsEn)[a.attack];
      const scale = a.scale !== undefined ? ` ×${fmtNum(a.scale)}` : '';
      return zh ? `${a.node} 变为拜占庭节点：${w}${scale}` : `${a.node} turns Byzantine: ${w}${scale}`;
    }
    case 'honest':
      return zh ? `${a.node} 恢复诚实` : `${a.node} is honest again`;
    case 'submit': {
      const n = a.count ?? 1;
      return zh ? `${a.node} 提交 ${n} 次更新` : `${a.node} submits ${n === 1 ? 'an update' : `${n} updates`}`;
    }
    case 'network': {
      const changes = linkChanges({ from: '', to: '', ...a, do: 'link' }, lang);
      return zh ? `全部链路：${changes}` : `every link: ${changes}`;
    }
  }
}

const tamperWordsEn: Record<TamperAttack, string> = { flip: 'flip', scale: 'scale', noise: 'noise', replay: 'replay' };
const tamperWordsZh: Record<TamperAttack, string> = { flip: '取反', scale: '放大', noise: '加噪声', replay: '重放' };
const byzantineWordsEn: Record<ByzantineAttack, string> = { 'sign-flip': 'sign flip', 'large-norm': 'huge gradient', random: 'random noise', alie: '"A Little Is Enough"' };
const byzantineWordsZh: Record<ByzantineAttack, string> = { 'sign-flip': '符号翻转', 'large-norm': '超大梯度', random: '随机噪声', alie: '“A Little Is Enough”' };

/** Keys of each action's zod schema except `do`: used by the table's consistency test. */
export function schemaFieldNames(kind: ActionKind): string[] {
  return Object.keys(actionSchemas[kind].shape).filter((k) => k !== 'do');
}
