import type { Lang, Text } from '../i18n/lang';

/**
 * Every label the four views draw, in English and Simplified Chinese. Chinese terms follow the
 * curriculum glossary (版本, 陈旧度, 副本分歧, 损失, 准确率, 网络分区, 主题分区 …) so a lesson's text and the
 * picture it points at use the same words.
 */
export const viewStrings = {
  // topology
  topology: { en: 'Topology', zh: '拓扑' },
  topologyHint: { en: 'click a link: cut / restore · drag a worker across the middle: partition', zh: '点击链路：切断／恢复 · 把工作节点拖过中线：制造网络分区' },
  heal: { en: 'heal', zh: '修复网络分区' },
  crashed: { en: 'crashed', zh: '已崩溃' },
  failed: { en: 'worker failed', zh: '工作节点出错' },
  cutLink: { en: 'link cut', zh: '链路已切断' },
  clickToCut: { en: 'click to cut', zh: '点击切断' },
  clickToRestore: { en: 'click to restore', zh: '点击恢复' },
  partitioned: { en: 'partitioned', zh: '被网络分区隔开' },
  messages: { en: 'messages', zh: '消息' },
  slow: { en: 'slowed', zh: '已减速' },
  paused: { en: 'paused (process frozen)', zh: '已暂停（进程冻结）' },
  term: { en: 'term', zh: '任期' },
  epoch: { en: 'epoch', zh: '纪元' },
  leader: { en: 'leader', zh: '领导者' },
  candidate: { en: 'candidate', zh: '候选者' },
  follower: { en: 'follower', zh: '跟随者' },
  topologyKeys: {
    en: 'Keyboard: arrow keys move between nodes and links; Enter on a node opens its actions, on a link cuts or restores it; the menu key (Shift+F10) opens the actions of either.',
    zh: '键盘：方向键在节点和链路之间移动；在节点上按回车打开它的操作，在链路上按回车切断或恢复；菜单键（Shift+F10）打开两者的操作。',
  },

  // timeline
  timeline: { en: 'Version timeline', zh: '版本时间线' },
  timeAxis: { en: 'simulated time (s)', zh: '模拟时间（秒）' },
  partition: { en: 'partition', zh: '网络分区' },
  live: { en: 'live', zh: '实时' },
  scrubHint: { en: 'click / drag: go back in time · double-click: live', zh: '单击／拖动：回看 · 双击：回到实时' },
  dropped: { en: 'dropped', zh: '丢弃' },
  timelineKeys: {
    en: 'Keyboard: left and right arrows go back or forward 0.1 s, Page Up and Page Down 1 s, Home to the start, End back to live.',
    zh: '键盘：左右方向键后退或前进 0.1 秒，PgUp／PgDn 一秒，Home 回到开头，End 回到实时。',
  },

  // charts
  lossVsSteps: { en: 'Loss vs steps', zh: '损失随步数变化' },
  lossVsTime: { en: 'Loss vs time', zh: '损失随时间变化' },
  divergence: { en: 'Replica divergence', zh: '副本分歧' },
  staleness: { en: 'Staleness', zh: '陈旧度' },
  divergenceNote: { en: 'forked replicas, not lagging', zh: '只计分叉，不计落后' },
  stalenessNote: { en: 'versions behind', zh: '落后的版本数' },
  steps: { en: 'cluster steps', zh: '集群步数' },
  stepsAxis: { en: 'steps (per worker)', zh: '步数（每个工作节点）' },
  timeSec: { en: 'time (s)', zh: '时间（秒）' },
  loss: { en: 'loss', zh: '损失' },
  l2: { en: 'max L2 distance', zh: '最大 L2 距离' },
  versions: { en: 'versions behind', zh: '落后的版本数' },
  noData: { en: 'no data yet', zh: '暂无数据' },

  // replicas
  replicas: { en: 'Replicas: decision boundary', zh: '副本：决策边界' },
  accuracy: { en: 'accuracy', zh: '准确率' },
  version: { en: 'version', zh: '版本' },
} satisfies Record<string, Text>;

export type ViewStringKey = keyof typeof viewStrings;

export function vs(lang: Lang, key: ViewStringKey): string {
  return viewStrings[key][lang];
}

/** Message kinds, as a legend names them. Unknown kinds fall back to their engine name. */
const kindNames: Record<string, Text> = {
  chunk: { en: 'chunk', zh: '分块' },
  gradient: { en: 'gradient', zh: '梯度' },
  params: { en: 'parameters', zh: '参数' },
  pull: { en: 'pull', zh: '拉取' },
  ack: { en: 'ack', zh: '确认' },
  nack: { en: 'refuse / redirect', zh: '拒绝／重定向' },
  state: { en: 'state', zh: '状态' },
  'state-req': { en: 'state request', zh: '状态请求' },
  vote: { en: 'vote', zh: '投票' },
  append: { en: 'append entries', zh: '追加条目' },
  heartbeat: { en: 'heartbeat', zh: '心跳' },
  fetch: { en: 'fetch', zh: '拉取日志' },
  records: { en: 'log records', zh: '日志记录' },
  merged: { en: 'merged model', zh: '合并后的模型' },
  contribution: { en: 'local work', zh: '本地成果' },
  prepare: { en: 'prepare', zh: '准备' },
  promise: { en: 'promise', zh: '承诺' },
  accept: { en: 'accept request', zh: '接受请求' },
  accepted: { en: 'accepted', zh: '已接受' },
  decision: { en: 'commit / abort', zh: '提交／中止' },
  ask: { en: 'decision request', zh: '询问决定' },
  coord: { en: 'coordination request', zh: '协调请求' },
};

export function kindName(kind: string, lang: Lang): string {
  return kindNames[kind]?.[lang] ?? kind;
}
