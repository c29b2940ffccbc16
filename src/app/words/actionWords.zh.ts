import type { ActionWords } from './actionWords';

/** The action table's words in Chinese (the glossary's terms, CURRICULUM §2): each action's label and hint, its fields' and options' labels. */
export const actionsZh: ActionWords = {
  partition: {
    label: '网络分区',
    hint: '把网络分成几组：不同组的节点之间无法收发消息。未列出的节点归入第一组。',
    fields: { groups: '分组' },
  },
  heal: {
    label: '修复网络',
    hint: '消除所有网络分区，恢复所有被切断的链路（链路参数设置保持不变）。',
  },
  cut: {
    label: '切断链路',
    hint: '切断两个节点之间的链路；除非选择“仅单向”，两个方向都会断开。',
    fields: { from: '起点', to: '终点', oneWay: '仅单向' },
  },
  restore: {
    label: '恢复链路',
    hint: '重新接通被切断的链路。',
    fields: { from: '起点', to: '终点', oneWay: '仅单向' },
  },
  crash: {
    label: '崩溃',
    hint: '让节点停止运行：易失状态丢失，持久化状态（如 Raft 日志）保留。',
    fields: { node: '节点' },
  },
  restart: {
    label: '重启',
    hint: '重新启动已崩溃的节点。',
    fields: { node: '节点' },
  },
  slow: {
    label: '减速',
    hint: '从现在起把该节点的单步耗时乘以该倍数（设为 1 恢复正常速度）。',
    fields: { node: '节点', factor: '减速倍数' },
  },
  timeout: {
    label: '触发选举超时',
    hint: '立即触发该节点的选举计时器，就像它没有收到领导者的心跳一样（Raft；同 RaftScope 的 “timeout”）。',
    fields: { node: '节点' },
  },
  link: {
    label: '链路设置',
    hint: '修改链路的延迟、带宽、丢包率或重复率；未填写的项保持原值。',
    fields: { from: '起点', to: '终点', oneWay: '仅单向', latencyMs: '延迟', jitterMs: '抖动', bandwidthMbps: '带宽', loss: '丢包率', duplicate: '重复率' },
  },
  pause: {
    label: '暂停 2 秒（GC）',
    hint: '冻结该进程，就像一次垃圾回收停顿或虚拟机冻结：它不处理任何事件，计时器和计算都停下，发给它的消息排队等候。之后它从原处继续运行，并不知道时间已经过去。与崩溃不同，它的全部状态都保留。',
    fields: { node: '节点', ms: '时长' },
  },
  putMeta: {
    label: '写入元数据',
    hint: '通过协调服务的领导者写入一个元数据键（例如检查点指针 /ckpt/latest），就像训练主控移动指针那样。',
    fields: { key: '键', value: '值' },
  },
  tamper: {
    label: '篡改',
    hint: '在这条链路的这个方向上安插中间人：它篡改传输中的更新，并重新计算一切无需密钥就能算出的校验（普通 SHA-256 摘要可以，HMAC 不行）。“重放”会重发它先前录下的真实消息。',
    fields: { from: '起点', to: '终点', attack: '攻击方式', scale: '倍数（噪声：标准差）', count: '消息条数（留空：直到撤除）' },
    options: { attack: { flip: '取反（× 倍数）', scale: '放大', noise: '加噪声', replay: '重放录下的消息' } },
  },
  untamper: {
    label: '撤除中间人',
    hint: '把中间人从这条链路的这个方向上撤走。',
    fields: { from: '起点', to: '终点' },
  },
  byzantine: {
    label: '拜占庭（内鬼）',
    hint: '该工作节点变成恶意节点：它仍持有有效密钥，所有校验都会通过，但它发送的是投毒梯度。只有鲁棒聚合规则能限制它。',
    fields: { node: '工作节点', attack: '攻击方式', scale: '倍数（alie：z 值）' },
    options: { attack: { 'sign-flip': '符号翻转（× 倍数）', 'large-norm': '超大梯度（× 倍数）', random: '随机噪声（标准差 = 倍数）', alie: '“A Little Is Enough”（小扰动）' } },
  },
  honest: {
    label: '恢复诚实',
    hint: '该工作节点重新发送真实梯度。',
    fields: { node: '工作节点' },
  },
  submit: {
    label: '提交一次更新',
    hint: '该工作节点立即向 Raft 服务器推送一次更新（手动客户端，clientMode 为 "manual"；讲 Raft 图 8 的那一课用它逐个安排每次更新）。',
    fields: { node: '工作节点', count: '更新次数' },
  },
  network: {
    label: '整个网络',
    hint: '一次性修改所有链路的延迟、抖动、带宽或丢包率；未填写的项保持原值。',
    fields: { latencyMs: '延迟', jitterMs: '抖动', bandwidthMbps: '带宽', loss: '丢包率' },
  },
};
