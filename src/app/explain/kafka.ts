import type { NodeState } from '../../engine/index/runState';
import type { KafkaPsConfig } from '../../protocols/kafka/knobs';
import { p0 } from '../words/nodeWords';
import { list, num, setOf } from '../words/text';
import { S, type Sentence } from './common';
import type { ExplainState } from './state';

/**
 * Kafka-fed parameter server (TRUTHS: the topic partition's log is totally ordered; acks=all with
 * min.insync.replicas ≥ 2 and no unclean election refuses writes rather than lose them — that is
 * durability over write availability, not C; acks=1 with a leader crash loses the unreplicated
 * tail; unclean election loses committed data; the eventual consistency comes from workers
 * reading stale parameters). 主题分区 is a topic partition, 网络分区 a network partition.
 */

interface Broker {
  n: NodeState;
  part: ReturnType<typeof p0>;
}

function brokers(st: ExplainState): Broker[] {
  return st.brokers.map((n) => ({ n, part: n.facts?.kind === 'kafka-broker' ? p0(n.facts) : undefined }));
}

/** Why this configuration is or is not durable, and its class, in one clause. */
function classClause(cfg: KafkaPsConfig, st: ExplainState): Sentence {
  const pacelc = st.cap?.pacelc ?? 'PA/EL';
  const minIsr = cfg['min.insync.replicas'];
  if (st.cap?.partitionKeeps === 'durability')
    return S(
      `With acks=all, min.insync.replicas=${minIsr} and no unclean election, a fault makes it refuse writes rather than lose acknowledged ones: durability over write availability (${pacelc}). That is not C — workers still read stale parameters.`,
      `acks=all、min.insync.replicas=${minIsr} 且不允许 unclean 选举时，出故障它会拒绝写入，而不是丢失已确认的写入：以写入可用性换持久性（${pacelc}）。这不是 C——工作节点读到的参数仍然可能陈旧。`,
    );
  const why: Sentence[] = [];
  if (cfg.acks === '1') why.push(S('acks=1 acknowledges a record once the leader alone has it, so a leader crash can lose acknowledged writes', 'acks=1 在只有领导者拿到记录时就确认，领导者崩溃就可能丢失已确认的写入'));
  else if (cfg.acks === '0') why.push(S('acks=0 never waits for any broker, so a write can vanish unnoticed', 'acks=0 从不等待任何 broker，写入可能悄无声息地丢失'));
  else if (minIsr < 2) why.push(S(`min.insync.replicas=${minIsr} lets the leader keep acknowledging writes alone when the ISR shrinks to it`, `min.insync.replicas=${minIsr} 允许 ISR 缩到只剩领导者时，它仍独自确认写入`));
  if (cfg['unclean.leader.election.enable']) why.push(S('an unclean election may crown a replica that lacks acknowledged records, losing them to stay available', 'unclean 选举可能让缺少已确认记录的副本当选，为了可用而丢掉这些记录'));
  if (why.length === 0 && cfg['num.partitions'] > 1)
    why.push(S(`with ${cfg['num.partitions']} topic partitions there is no single total order, and an offline topic partition stops only its own producers`, `有 ${cfg['num.partitions']} 个主题分区时不存在单一的全序，一个主题分区下线只会挡住它自己的生产者`));
  if (why.length === 0) return S(`In this configuration it is ${pacelc}.`, `这一配置下是 ${pacelc}。`);
  return S(`In this configuration ${why.map((x) => x.en).join('; ')} (${pacelc}).`, `在这一配置下，${why.map((x) => x.zh).join('；')}（${pacelc}）。`);
}

export function kafka(st: ExplainState): Sentence {
  if (st.cfg.kind !== 'kafka-ps') return S('', '');
  const cfg = st.cfg;
  const bs = brokers(st);
  const acks = cfg.acks;
  const minIsr = cfg['min.insync.replicas'];
  const unclean = cfg['unclean.leader.election.enable'];
  const leader = bs.find((b) => b.n.up && b.part?.role === 'leader') ?? null;
  const isr = leader?.part?.isr ?? [];
  const lag = num(st.metrics.consumerLag ?? null);
  // The instant a consumer is cut off it has no lag yet: "stops while the log grows (consumer lag 0)".
  const lagSoFar = (st.metrics.consumerLag ?? 0) > 0 ? S('', '') : S(' so far', '目前');
  const lost = num(st.metrics.lostUpdates ?? 0);
  const rejected = num(st.metrics.rejectedWrites ?? 0);
  const stale = num(st.staleness);
  const acksS =
    acks === 'all'
      ? S('acks=all: acknowledged once every in-sync replica has it', 'acks=all：所有同步副本都写入后才确认')
      : acks === '1'
        ? S('acks=1: acknowledged as soon as the leader has it', 'acks=1：领导者写入即确认')
        : S('acks=0: never acknowledged', 'acks=0：从不确认');
  if (!st.started)
    return S(
      `Kafka-fed parameter server: workers append their gradients to a replicated topic-partition log on ${bs.length} broker${bs.length === 1 ? '' : 's'} (${acksS.en}); PS replicas consume the log in order, each at its own offset, and workers read parameters from one of them. ${classClause(cfg, st).en} Press ▶ to start.`,
      `Kafka 驱动的参数服务器：工作节点把梯度追加到 ${bs.length} 个 broker 上复制的主题分区日志（${acksS.zh}）；参数服务器副本按顺序消费日志，各自维护偏移量，工作节点从其中一个副本读取参数。${classClause(cfg, st).zh}按 ▶ 开始。`,
    );

  const uncleanNote = st.recent.uncleanElection;
  if (uncleanNote)
    return S(
      `Unclean leader election: ${uncleanNote.node ?? 'a broker'}, which was not in the ISR, became leader, and the records it never copied — committed ones included — are gone (lost updates ${lost}). unclean.leader.election.enable buys availability with durability.`,
      `unclean 领导者选举：不在 ISR 中的 ${uncleanNote.node ?? '某个 broker'} 当选领导者，它没复制到的记录——包括已提交的——都丢了（丢失的更新 ${lost}）。unclean.leader.election.enable 是用持久性换可用性。`,
    );

  if (!leader) {
    const down = bs.find((b) => !b.n.up && b.part?.role === 'leader') ?? bs.find((b) => !b.n.up) ?? null;
    const offline = bs.some((b) => b.n.up && b.part?.offline) || st.recent.partitionOffline !== undefined;
    if (offline && !unclean)
      return S(
        `Topic partition 0 is offline: ${down ? `leader ${down.n.id} is down and ` : ''}no in-sync replica is alive to take over. With unclean.leader.election.enable=false Kafka waits rather than elect a replica that lacks committed records; producers retry and nothing is written (rejected writes ${rejected}) — durability over availability: no acknowledged record is lost.`,
        `主题分区 0 已下线：${down ? `领导者 ${down.n.id} 已宕机，且` : ''}没有存活的同步副本可以接替。unclean.leader.election.enable=false 时，Kafka 宁可等待，也不让缺少已提交记录的副本当选；生产者不断重试，什么都写不进去（被拒绝的写入 ${rejected}）——以可用性换持久性：已确认的记录一条都不会丢。`,
      );
    return S(
      `Leader ${down?.n.id ?? '?'} is down: the controller fences it once broker.session.timeout.ms (${cfg['broker.session.timeout.ms']} ms) passes without a heartbeat, then elects a leader${unclean ? '' : ' from the ISR'}. Until then producers wait and retry.`,
      `领导者 ${down?.n.id ?? '?'} 已宕机：控制器在 broker.session.timeout.ms（${cfg['broker.session.timeout.ms']} ms）内收不到它的心跳后将其隔离，再${unclean ? '' : '从同步副本中'}选出新领导者。在此之前生产者只能等待并重试。`,
    );
  }

  // Only while the ISR is short: a refusal from before the replicas rejoined said "The ISR shrank to
  // {b0, b2, b1}, fewer than min.insync.replicas=2". The count only from a sample that has one.
  if (st.recent.notEnoughReplicas && acks === 'all' && isr.length < minIsr) {
    const count = (st.metrics.rejectedWrites ?? 0) > 0 ? S(`, rejected writes ${rejected}`, `，被拒绝的写入 ${rejected}`) : S('', '');
    return S(
      `The ISR shrank to ${setOf(isr)}, fewer than min.insync.replicas=${minIsr}: leader ${leader.n.id} refuses writes (NotEnoughReplicas${count.en}) rather than acknowledge records that one crash could lose. Here Kafka chooses durability over write availability — a totally ordered log is not what would make this path "AP", and refusing writes is not C either: the PS replicas still serve stale parameters.`,
      `ISR 缩小为 ${setOf(isr)}，少于 min.insync.replicas=${minIsr}：领导者 ${leader.n.id} 拒绝写入（NotEnoughReplicas${count.zh}），而不是确认一条一次崩溃就可能丢失的记录。此时 Kafka 以写入可用性换持久性——全序日志并不是让这条路径成为“AP”的原因，拒绝写入也不等于 C：参数服务器副本提供的参数仍可能陈旧。`,
    );
  }

  const down = bs.filter((b) => !b.n.up);
  if (down.length > 0) {
    const elected = st.recent.leaderElected;
    const old = down.find((b) => elected && elected.t >= (st.crashedAt[b.n.id] ?? Infinity)) ?? null;
    if (old) {
      // The lost-updates count only from a sample taken after the election: one from before it
      // read "are gone (lost updates 0)" while 8 were.
      const counted = st.sampledAt !== null && st.sampledAt >= elected!.t ? (st.metrics.lostUpdates ?? 0) : null;
      const lostS = counted === null ? S('', '') : S(` (lost updates ${lost})`, `（丢失的更新 ${lost}）`);
      if (acks === 'all')
        return S(
          `Leader ${old.n.id} crashed; ${leader.n.id}, an in-sync replica, took over. With acks=all every acknowledged record was already on every in-sync replica, so nothing acknowledged is lost${lostS.en}; writes paused only for the election.`,
          `领导者 ${old.n.id} 崩溃；同步副本 ${leader.n.id} 接任。acks=all 时每条已确认的记录都已在每个同步副本上，所以已确认的更新一条都没丢${lostS.zh}；写入只在选举期间暂停。`,
        );
      const gone =
        counted === 0
          ? S(`the followers had copied every record it acknowledged, so ${leader.n.id} leads with all of them${lostS.en}; had they lagged, those records would be gone`, `跟随者已复制它确认过的每条记录，所以 ${leader.n.id} 接任时一条不缺${lostS.zh}；若跟随者落后，这些记录就会丢失`)
          : S(`records it acknowledged that the followers had not copied yet are gone — ${leader.n.id} leads without them${lostS.en}`, `它已确认、但跟随者还没复制的记录都丢了——${leader.n.id} 在没有这些记录的情况下担任领导者${lostS.zh}`);
      const shorter = counted === 0 ? S('', '') : S('; the log stays totally ordered, it is just shorter', '；日志依旧全序，只是变短了');
      return S(
        `Leader ${old.n.id} crashed with acks=${acks}: ${gone.en}. acks=${acks} trades durability for latency${shorter.en}.`,
        `领导者 ${old.n.id} 在 acks=${acks} 下崩溃：${gone.zh}。acks=${acks} 是用持久性换延迟${shorter.zh}。`,
      );
    }
    return S(
      `${list(down.map((b) => b.n.id), 'en')} crashed; the leader drops ${down.length === 1 ? 'it' : 'them'} from the ISR once replica.lag.time.max.ms passes without a fetch (ISR now ${setOf(isr)}). Leader ${leader.n.id} keeps accepting writes while the ISR has at least min.insync.replicas=${minIsr}.`,
      `${list(down.map((b) => b.n.id), 'zh')} 崩溃；超过 replica.lag.time.max.ms 没有拉取后，领导者把它移出 ISR（ISR 现在是 ${setOf(isr)}）。只要 ISR 不少于 min.insync.replicas=${minIsr}，领导者 ${leader.n.id} 就继续接受写入。`,
    );
  }

  // Cut links or a network partition: who cannot reach the leader, and what that does.
  const cutFromLeader = (id: string) => st.brokenLinks.some((l) => (l.from === id && l.to === leader.n.id) || (l.from === leader.n.id && l.to === id));
  const cutWorkers = st.workers.filter((w) => cutFromLeader(w.id)).map((w) => w.id);
  const cutServers = st.servers.filter((x) => cutFromLeader(x.id)).map((x) => x.id);
  const cutFollowers = bs.filter((b) => b.n.id !== leader.n.id && b.n.up && cutFromLeader(b.n.id)).map((b) => b.n.id);
  const parts: Sentence[] = [];
  if (cutFollowers.length) {
    const out = cutFollowers.filter((id) => !isr.includes(id));
    const lagMs = cfg['replica.lag.time.max.ms'];
    parts.push(
      out.length === cutFollowers.length
        ? S(`${list(cutFollowers, 'en')} cannot fetch from leader ${leader.n.id} and ${out.length === 1 ? 'has' : 'have'} left the ISR (now ${setOf(isr)})`, `${list(cutFollowers, 'zh')} 从领导者 ${leader.n.id} 拉取不到日志，已被移出 ISR（现在是 ${setOf(isr)}）`)
        : S(
            `${list(cutFollowers, 'en')} cannot fetch from leader ${leader.n.id}; after replica.lag.time.max.ms (${lagMs} ms) without a fetch the leader drops ${cutFollowers.length === 1 ? 'it' : 'them'} from the ISR (now ${setOf(isr)})`,
            `${list(cutFollowers, 'zh')} 从领导者 ${leader.n.id} 拉取不到日志；超过 replica.lag.time.max.ms（${lagMs} ms）没有拉取，领导者就把它移出 ISR（现在是 ${setOf(isr)}）`,
          ),
    );
  }
  if (cutWorkers.length)
    parts.push(
      S(
        `${list(cutWorkers, 'en')} cannot reach leader ${leader.n.id}: ${cutWorkers.length === 1 ? 'its' : 'their'} appends fail and are retried`,
        `${list(cutWorkers, 'zh')} 连不上领导者 ${leader.n.id}：追加失败，只能重试`,
      ),
    );
  if (cutServers.length)
    parts.push(
      S(
        `${list(cutServers, 'en')} cannot fetch: ${cutServers.length === 1 ? 'its' : 'their'} offset stops while the log grows (consumer lag ${lag}${lagSoFar.en}), so workers reading from ${cutServers.length === 1 ? 'it' : 'them'} train on stale parameters (staleness ${stale})`,
        `${list(cutServers, 'zh')} 拉取不到日志：偏移量停住而日志在增长（${lagSoFar.zh}消费滞后 ${lag}），从它读参数的工作节点在陈旧参数上训练（陈旧度 ${stale}）`,
      ),
    );
  const replicas = bs.filter((b) => b.part !== undefined).length;
  const shrunk =
    acks === 'all' && isr.length < replicas && isr.length >= minIsr
      ? S(
          `with min.insync.replicas=${minIsr} leader ${leader.n.id} keeps acknowledging writes that only ${isr.length === 1 ? 'it holds' : `${isr.length} brokers hold`} — ${unclean ? 'if it crashes, an unclean election would lose them' : 'if it crashes, the topic partition goes offline until it returns'}`,
          `min.insync.replicas=${minIsr} 时，领导者 ${leader.n.id} 继续确认只有${isr.length === 1 ? '它自己' : ` ${isr.length} 个 broker `}持有的写入——${unclean ? '它一旦崩溃，unclean 选举就会丢掉这些写入' : '它一旦崩溃，主题分区就会下线，直到它回来'}`,
        )
      : null;
  if (parts.length) {
    if (shrunk && cutFollowers.some((id) => !isr.includes(id))) parts.push(shrunk);
    return S(
      `${st.partition ? 'Network partition' : 'Cut links'}: ${parts.map((x) => x.en).join('; ')}. The log itself stays one total order on the leader's side.`,
      `${st.partition ? '网络分区' : '链路被切断'}：${parts.map((x) => x.zh).join('；')}。日志本身在领导者一侧仍保持单一的全序。`,
    );
  }

  // The ISR has shrunk to fewer replicas than the topic partition has, yet still meets min.insync.replicas.
  if (shrunk) return S(`The ISR is ${setOf(isr)}: ${shrunk.en}.`, `ISR 是 ${setOf(isr)}：${shrunk.zh}。`);

  if (st.recentlyHealed) {
    // "Healed" beside a count of lost updates read as if healing had brought them back.
    const gone =
      (st.metrics.lostUpdates ?? 0) > 0
        ? S(
            ` Lost updates ${lost}: acknowledged records that are not in the leader's log, so no replica fetches them — catching up copies only what the leader holds.`,
            `丢失的更新 ${lost}：这些已确认的记录不在领导者的日志里，所以没有副本能拉取到——追赶只复制领导者已有的记录。`,
          )
        : S('', '');
    // The brokers' followers catch up; the PS consumers' lag is another thing (it rose 0 → 3 under
    // "catch up" as producers' retried writes came in after the heal): not quoted here.
    return S(
      `Healed: lagging replicas fetch what they missed, in log order, and catch up; nothing is merged — there is one log.${gone.en}`,
      `已恢复：落后的副本按日志顺序拉取错过的记录并追上进度；不需要任何合并——日志只有一份。${gone.zh}`,
    );
  }

  // A replica "that is behind" beside staleness 0 contradicted itself (at the start, or caught up).
  const behind =
    st.staleness !== null && st.staleness > 0
      ? S(`a replica that is behind (staleness ${stale})`, `落后的副本读取参数（陈旧度 ${stale}）`)
      : S(`a replica that may be behind (staleness ${stale} now)`, `可能落后的副本读取参数（目前陈旧度 ${stale}）`);
  return S(
    `Workers append gradients to ${leader.n.id}'s topic-partition log (${acksS.en}, ISR ${setOf(isr)}); PS replicas apply it in log order at their own offsets (consumer lag ${lag}). The log is totally ordered: the eventual consistency comes from workers reading parameters from ${behind.en}. ${classClause(cfg, st).en}`,
    `工作节点把梯度追加到 ${leader.n.id} 的主题分区日志（${acksS.zh}，ISR ${setOf(isr)}）；参数服务器副本按日志顺序、各自按偏移量应用（消费滞后 ${lag}）。日志是全序的：最终一致性来自工作节点从${behind.zh}。${classClause(cfg, st).zh}`,
  );
}
