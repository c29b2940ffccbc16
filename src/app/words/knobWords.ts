import type { Lang } from '../i18n/lang';

/**
 * What each strategy knob does, in both languages: the knob's tooltip in the strategy row (the row
 * shows the key as a scenario file writes it — "rtoMs", Kafka's own "linger.ms" — which says
 * little to a student). A lazy chunk (components/knobHelp.ts): fetched when the row is first
 * pointed at or focused, not with the first paint. Each sentence follows the knob's schema comment
 * and the code it configures (protocols/…).
 */
type Words = { en: string; zh: string };

/** Knobs that mean the same in every strategy that has them. */
const shared: Record<string, Words> = {
  rtoMs: {
    en: 'Retransmission timeout (ms): a message that got no answer within this time is sent again.',
    zh: '重传超时（毫秒）：在这段时间内没有得到回应的消息会被重发。',
  },
  lrLinearScaling: {
    en: 'Linear scaling rule (Goyal et al. 2017): the learning rate is multiplied by the number of gradients combined, i.e. the sum is applied rather than the mean.',
    zh: '线性缩放规则（Goyal 等 2017）：学习率乘以参与合并的梯度个数，即应用梯度之和而不是平均值。',
  },
  lrStaleness: {
    en: '"inverse": each gradient’s learning rate is divided by its staleness τ at apply (1/max(1, τ), Zhang et al. 2016); "none": no scaling.',
    zh: '"inverse"：每个梯度的学习率除以它被应用时的陈旧度 τ（1/max(1, τ)，Zhang 等 2016）；"none"：不缩放。',
  },
  electionTimeoutMs: {
    en: 'Election timeout [min, max] (ms), drawn at random each time the timer is reset: a follower that hears no leader for that long starts an election.',
    zh: '选举超时 [最小, 最大]（毫秒），每次重置计时器时随机抽取：跟随者在这段时间内没听到领导者，就发起选举。',
  },
  heartbeatMs: {
    en: 'How often the leader sends heartbeats (ms) to keep its followers from starting an election.',
    zh: '领导者发送心跳的间隔（毫秒），让跟随者不发起选举。',
  },
  clientRetryMs: {
    en: 'A worker whose request got no answer resends it after this time (ms).',
    zh: '请求没有得到回应的工作节点，在这段时间（毫秒）后重发。',
  },
  updateTimeoutMs: {
    en: 'A worker gives up an update not acknowledged within this time (ms) and reads fresh parameters.',
    zh: '在这段时间（毫秒）内未被确认的更新，工作节点会放弃它并重新读取参数。',
  },
};

/** Knobs of one strategy (kind:key), or whose meaning there differs from `shared`. */
const byKind: Record<string, Words> = {
  'ps-async:pushTimeoutMs': {
    en: 'A worker whose pushed gradient is not acknowledged within this time (ms) stops waiting and trains on its local copy.',
    zh: '推送的梯度在这段时间（毫秒）内没有被确认时，工作节点不再等待，改用本地副本继续训练。',
  },
  'ps-async:checkpointEveryMs': {
    en: 'How often (ms) the server checkpoints its parameters; a crash loses the updates since the last checkpoint. 0: never.',
    zh: '服务器为参数做检查点的间隔（毫秒）；崩溃会丢失上一个检查点之后的更新。0 表示从不。',
  },
  'ps-async:writeLock': {
    en: '"lease": before each update a worker takes a lock from the coordination service, reads, computes, writes and releases it; "none": asynchronous pushes without a lock.',
    zh: '"lease"：每次更新前，工作节点先从协调服务拿锁，读取、计算、写回后释放；"none"：不加锁的异步推送。',
  },
  'ps-async:writeMode': {
    en: '"add": the server applies each gradient; "set": a worker writes back the whole vector it computed, so a late write overwrites the others’.',
    zh: '"add"：服务器应用每个梯度；"set"：工作节点写回它算出的整个向量，晚到的写入会覆盖别人的。',
  },
  'ps-async:fencing': {
    en: 'The server checks each write’s fencing token and refuses one older than the newest it has seen.',
    zh: '服务器检查每次写入的 fencing token，拒绝比它见过的最新令牌更旧的写入。',
  },
  'ps-sync:backupWorkers': {
    en: 'b backup workers: each round the server combines the first N − b gradients and drops the rest, so the slowest b never hold the round up.',
    zh: 'b 个备份工作节点：每一轮服务器只合并最先到达的 N − b 个梯度，丢弃其余的，最慢的 b 个不再拖住这一轮。',
  },
  'ps-sync:aggregation': {
    en: 'How a round’s gradients are combined: the mean, or a Byzantine-robust rule (coordinate-wise median, trimmed mean, Krum, Multi-Krum).',
    zh: '每一轮梯度的合并方式：平均值，或抗拜占庭的规则（逐坐标中位数、截尾均值、Krum、Multi-Krum）。',
  },
  'ps-sync:trim': {
    en: 'Trimmed mean: the fraction β of values cut from each end of every coordinate (⌊β·n⌋ per side).',
    zh: '截尾均值：每个坐标两端各去掉的比例 β（每端 ⌊β·n⌋ 个值）。',
  },
  'ps-sync:f': {
    en: 'Krum and Multi-Krum: the number f of Byzantine workers assumed (Krum needs n > 2f + 2 gradients).',
    zh: 'Krum 与 Multi-Krum：假定的拜占庭工作节点数 f（Krum 需要 n > 2f + 2 个梯度）。',
  },
  'ssp:staleness': {
    en: 's: how many clocks a worker may run ahead of the slowest before it waits. 0 is BSP (a barrier every step), "inf" is ASP.',
    zh: 's：工作节点最多可领先最慢节点多少个时钟，再多就要等待。0 就是 BSP（每一步一个栅栏），"inf" 就是 ASP。',
  },
  'degrade:base': {
    en: 'The strong strategy used while the cluster is healthy.',
    zh: '集群健康时使用的强一致策略。',
  },
  'degrade:detectTimeoutMs': {
    en: 'Failure detector (ms): a worker whose ring made no progress for this long decides it is partitioned and switches to local training.',
    zh: '故障检测（毫秒）：环在这段时间内没有进展的工作节点判定发生了网络分区，切换为本地训练。',
  },
  'degrade:healStableMs': {
    en: 'After hearing every worker again, a degraded worker waits this long (ms) before it joins the merge, so a flapping link does not trigger one.',
    zh: '重新听到所有工作节点后，降级的工作节点再等这么久（毫秒）才参与合并，免得时断时续的链路触发合并。',
  },
  'degrade:merge': {
    en: 'How the sides merge on heal: "discard" keeps the majority side’s parameters and drops the others’ steps, "average" averages the sides, "replay" applies the other sides’ gradients on top of the majority’s parameters.',
    zh: '恢复时各侧如何合并："discard" 保留多数派一侧的参数、丢弃其他侧的步骤，"average" 对各侧取平均，"replay" 在多数派的参数上重新应用其他侧的梯度。',
  },
  'degrade:averageWeights': {
    en: '"size": each side weighted by its number of workers (every worker counts once); "equal": each side counts the same.',
    zh: '"size"：按工作节点数给各侧加权（每个工作节点算一次）；"equal"：每一侧权重相同。',
  },
  'degrade:replayLr': {
    en: 'Replay: "inverse" divides a replayed gradient’s learning rate by its staleness; "none" applies it at full rate.',
    zh: '重放："inverse" 把重放梯度的学习率除以它的陈旧度；"none" 按原学习率应用。',
  },
  'degrade:replayMaxStaleness': {
    en: 'Replay: gradients staler than this many versions are dropped (counted as lost work).',
    zh: '重放：陈旧度超过这么多个版本的梯度会被丢弃（计入丢失的工作）。',
  },
  'degrade:fencing': {
    en: 'The checkpoint store refuses a write carrying an older epoch than the newest it has seen; off, a minority side’s stale checkpoint can replace the majority’s.',
    zh: '检查点存储拒绝纪元号比它见过的最新纪元更旧的写入；关闭时，少数派一侧的过时检查点可能覆盖多数派的。',
  },
  'degrade:checkpointEveryMs': {
    en: 'How often (ms) the lowest-id worker of each side writes its parameters, with its epoch, to the checkpoint store.',
    zh: '每一侧编号最小的工作节点把参数连同纪元号写入检查点存储的间隔（毫秒）。',
  },
  'raft-ps:readMode': {
    en: 'How reads are answered: "readIndex" (the leader confirms it still leads first: linearizable), "log" (the read is a log entry), "lease" (the leader answers alone while its lease holds), "local" (any server from its own copy: may be stale).',
    zh: '读取如何应答："readIndex"（领导者先确认自己仍是领导者：线性一致），"log"（读取本身是一条日志条目），"lease"（租约有效期内领导者直接应答），"local"（任意服务器用自己的副本应答：可能陈旧）。',
  },
  'raft-ps:leaderNoop': {
    en: 'A new leader appends a no-op of its term, so that entries of earlier terms commit (Raft §8); off, they wait for a client entry of the new term.',
    zh: '新领导者追加一条本任期的空操作条目，让之前任期的条目得以提交（Raft §8）；关闭时，它们要等新任期的客户端条目。',
  },
  'raft-ps:checkQuorum': {
    en: 'etcd’s CheckQuorum: a leader that has not heard from a majority for an election timeout steps down.',
    zh: 'etcd 的 CheckQuorum：一个选举超时内没有收到多数派回应的领导者会主动下台。',
  },
  'raft-ps:preVote': {
    en: 'PreVote (Raft thesis §9.6): a server raises its term only once a majority says it would vote for it; off, a server cut off from the majority keeps raising its term and deposes the leader when it rejoins.',
    zh: 'PreVote（Raft 论文 §9.6）：服务器先确认多数派愿意投票给它，才提升任期；关闭时，与多数派隔开的服务器会不断提升任期，重新连上时罢黜领导者。',
  },
  'raft-ps:clientMode': {
    en: '"training": workers loop read → compute → update; "manual": a worker updates only when the timeline or the learner submits.',
    zh: '"training"：工作节点循环执行读取 → 计算 → 更新；"manual"：只有时间线或学习者提交时才更新。',
  },
  'raft-ps:fsyncMs': {
    en: 'Modelled fsync of new log entries (ms): an entry counts toward a majority only once it is on disk.',
    zh: '模拟新日志条目的 fsync（毫秒）：条目写到磁盘后才计入多数派。',
  },
  'raft-ps:maxRequestBytes': {
    en: 'Largest request a server accepts, in bytes (etcd’s --max-request-bytes); a larger update is refused: "request is too large".',
    zh: '服务器接受的最大请求字节数（etcd 的 --max-request-bytes）；更大的更新会被拒绝：“request is too large”。',
  },
  'raft-ps:snapshotEvery': {
    en: 'Log compaction (Raft §7): a server snapshots its parameters every this many applied entries and drops older entries from its log, keeping this many before the snapshot for followers a little behind; a follower further behind gets the snapshot. 0: never.',
    zh: '日志压缩（Raft §7）：服务器每应用这么多条目就为参数做一次快照，并删除更早的日志条目，只在快照之前保留这么多条，供稍稍落后的跟随者追赶；落后更多的跟随者会收到快照。0：从不压缩。',
  },
  'kafka-ps:acks': {
    en: 'Producer acks: "0" never acknowledged, "1" once the leader has the record, "all" once every in-sync replica has it.',
    zh: '生产者 acks："0" 从不确认，"1" 领导者写入即确认，"all" 所有同步副本写入后才确认。',
  },
  'kafka-ps:min.insync.replicas': {
    en: 'With acks=all, the leader refuses writes (NotEnoughReplicas) while the ISR has fewer replicas than this.',
    zh: 'acks=all 时，只要 ISR 中的副本少于这个数，领导者就拒绝写入（NotEnoughReplicas）。',
  },
  'kafka-ps:replica.lag.time.max.ms': {
    en: 'A follower that has not caught up with the leader for this long (ms) leaves the ISR.',
    zh: '跟随者在这段时间（毫秒）内没有追上领导者，就会被移出 ISR。',
  },
  'kafka-ps:unclean.leader.election.enable': {
    en: 'If no in-sync replica is alive, a replica outside the ISR may become leader, losing the records it lacks (availability over durability).',
    zh: '没有存活的同步副本时，允许 ISR 之外的副本成为领导者，丢掉它缺少的记录（可用性优先于持久性）。',
  },
  'kafka-ps:linger.ms': {
    en: 'How long (ms) the producer waits to fill a batch before sending it.',
    zh: '生产者为凑满一个批次而等待的时间（毫秒）。',
  },
  'kafka-ps:batch.size': {
    en: 'The largest batch the producer sends at once, in bytes.',
    zh: '生产者一次发送的最大批次（字节）。',
  },
  'kafka-ps:enable.idempotence': {
    en: 'The producer numbers its records, so the leader drops a retried duplicate instead of appending it twice.',
    zh: '生产者为记录编号，领导者会丢弃重试产生的重复记录，而不是追加两次。',
  },
  'kafka-ps:max.in.flight.requests.per.connection': {
    en: 'How many produce requests may be unacknowledged at once.',
    zh: '同时允许多少个未被确认的生产请求。',
  },
  'kafka-ps:request.timeout.ms': {
    en: 'A produce request not answered within this time (ms) is retried.',
    zh: '生产请求在这段时间（毫秒）内没有应答就重试。',
  },
  'kafka-ps:replication.factor': {
    en: 'How many brokers hold a copy of each topic partition (default: up to 3).',
    zh: '每个主题分区在多少个 broker 上有副本（默认最多 3 个）。',
  },
  'kafka-ps:num.partitions': {
    en: 'How many topic partitions the gradient log is split into.',
    zh: '梯度日志被分成多少个主题分区。',
  },
  'kafka-ps:broker.session.timeout.ms': {
    en: 'KRaft: the controller fences a broker whose heartbeats stop for this long (ms), then elects new leaders for its partitions.',
    zh: 'KRaft：broker 的心跳停止这么久（毫秒）后，控制器将其隔离，并为它的主题分区选出新领导者。',
  },
  'kafka-ps:consumerPollMs': {
    en: 'How often (ms) each PS replica polls the log for new records.',
    zh: '每个参数服务器副本轮询日志、拉取新记录的间隔（毫秒）。',
  },
  'kafka-ps:readFrom': {
    en: 'Which PS replica each worker reads parameters from, e.g. {"w0": "s1"} (default: round-robin).',
    zh: '每个工作节点从哪个参数服务器副本读取参数，例如 {"w0": "s1"}（默认轮流分配）。',
  },
  'paxos-ps:electionTimeoutMs': {
    en: 'Election timeout [min, max] (ms), drawn at random each time it is reset: a server that hears no leader for that long starts phase 1 with a higher ballot.',
    zh: '选举超时 [最小, 最大]（毫秒），每次重置时随机抽取：在这段时间内没听到领导者的服务器，以更高的提案编号发起第一阶段。',
  },
  '2pc-ps:coordinator': {
    en: 'The server that coordinates every transaction (it is a participant too).',
    zh: '协调所有事务的服务器（它同时也是参与者）。',
  },
  '2pc-ps:voteTimeoutMs': {
    en: 'The coordinator aborts a transaction whose votes are not all in within this time (ms); a prepared participant waits twice this for the decision before it asks the others.',
    zh: '协调者在这段时间（毫秒）内没收齐所有投票就中止事务；已准备的参与者等待决定两倍于此的时间后，才去询问其他参与者。',
  },
};

/** The knob's description in `lang`, or undefined where none is written. */
export function knobHelp(kind: string, key: string, lang: Lang): string | undefined {
  const w = byKind[`${kind}:${key}`] ?? shared[key];
  return w?.[lang];
}
