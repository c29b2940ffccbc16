import type { NodeState } from '../../engine/index/runState';
import type { CoordServerFacts, NodeFacts } from '../../protocols/facts';
import { list, majority, num, tokenText } from '../words/text';
import { S, type Sentence } from './common';
import { metric, type ExplainState } from './state';

/**
 * What a coordination service shows (CURRICULUM L11; TRUTHS): ps-async's lock recipe (lock → read
 * → compute → write the whole vector → release) under an etcd- or ZooKeeper-like lock, and the
 * service's own metadata reads. True for the configuration on screen:
 *
 * - A lock (a lease) alone does not guarantee one writer: a holder frozen past its lease wakes up
 *   believing it still holds the lock. Only a fencing token checked where the data lives (the
 *   parameter server) refuses its late write.
 * - ZooKeeper's writes are linearizable, its reads are local and may be stale; sync() narrows the
 *   window without making reads strictly linearizable. etcd's reads are linearizable by default
 *   (ReadIndex through the leader: correct, but they wait for a slow leader link); serializable
 *   reads answer from the member's own state and may be stale.
 */

type WorkerFacts = Extract<NodeFacts, { kind: 'ps-worker' }>;
type Lock = NonNullable<WorkerFacts['lock']>;

interface Holder {
  n: NodeState;
  lock: Lock;
}

function lockOf(n: NodeState): Lock | null {
  return n.facts?.kind === 'ps-worker' && n.facts.lock ? n.facts.lock : null;
}

function serverFacts(n: NodeState): CoordServerFacts | null {
  return n.up && n.facts?.kind === 'coord-server' ? n.facts : null;
}

/** The service's leader at t (the newest term or epoch among live servers that lead), and its facts. */
function leaderOf(st: ExplainState): { n: NodeState; f: CoordServerFacts } | null {
  let best: { n: NodeState; f: CoordServerFacts } | null = null;
  for (const n of st.coord?.servers ?? []) {
    const f = serverFacts(n);
    if (f && f.role === 'leader' && !n.paused && (!best || f.term > best.f.term)) best = { n, f };
  }
  return best;
}

interface Words {
  svc: string;
  /** lease (etcd) or session (ZooKeeper), and the Chinese word. */
  lease: Sentence;
}

function wordsOf(st: ExplainState): Words {
  const zk = st.coord?.service === 'zookeeper';
  return zk
    ? { svc: 'ZooKeeper', lease: S('session', '会话') }
    : { svc: 'etcd', lease: S('lease', '租约') };
}

/** The metadata key's newest version at the leader, and servers whose applied copy is older. */
function metaLag(st: ExplainState): { key: string; newest: number; behind: Array<{ id: string; version: number }> } | null {
  const key = st.coord?.metaKey;
  const lead = leaderOf(st);
  if (!key || !lead) return null;
  const newest = lead.f.meta.find((m) => m.key === key)?.version ?? 0;
  const behind: Array<{ id: string; version: number }> = [];
  for (const n of st.coord!.servers) {
    const f = serverFacts(n);
    if (!f || n.id === lead.n.id) continue;
    const v = f.meta.find((m) => m.key === key)?.version ?? 0;
    if (v < newest) behind.push({ id: n.id, version: v });
  }
  return { key, newest, behind };
}

/** How metadata reads behave in this configuration, in one sentence (the class of the service's reads). */
export function serviceReads(st: ExplainState): Sentence {
  const c = st.coord;
  if (!c) return S('', '');
  switch (c.reads) {
    case 'local':
      return S(
        "ZooKeeper's writes are linearizable, but each read is answered by the session's own server from its local copy, so reads may be stale.",
        'ZooKeeper 的写是线性一致的，但每次读都由会话所在的服务器用本地副本应答，所以读可能是陈旧的。',
      );
    case 'sync-then-local':
      return S(
        "ZooKeeper's writes are linearizable; here each read calls sync() first, so the server catches up with the leader before it answers — that narrows the window, but reads are still not strictly linearizable.",
        'ZooKeeper 的写是线性一致的；这里每次读之前先调用 sync()，让服务器先追上领导者再应答——这缩小了窗口，但读仍不是严格线性一致的。',
      );
    case 'linearizable':
      return S(
        "etcd's reads are linearizable by default: each goes through the leader (ReadIndex), so it is correct but waits whenever the leader's links are slow.",
        'etcd 的读默认是线性一致的：每次读都经过领导者（ReadIndex），结果正确，但领导者的链路一慢它就得等。',
      );
    case 'serializable':
      return S(
        "etcd's reads are serializable here: each member answers from its own state — fast, and possibly stale.",
        '这里 etcd 的读是 serializable 的：每个成员用自己的状态应答——快，但可能陈旧。',
      );
  }
}

/** 防护令牌（fencing token） at its first use on the screen (CURRICULUM §2): each explanation stands alone. */
function glossed(x: Sentence): Sentence {
  return x.zh.includes('防护令牌（fencing token）') ? x : { en: x.en, zh: x.zh.replace('防护令牌', '防护令牌（fencing token）') };
}

/** ps-async under a lock from the coordination service (writeLock "lease"). */
export function lockRecipe(st: ExplainState): Sentence {
  return glossed(lockSentence(st));
}

function lockSentence(st: ExplainState): Sentence {
  if (st.cfg.kind !== 'ps-async') return S('', '');
  const cfg = st.cfg;
  const c = st.coord;
  const wd = wordsOf(st);
  const ttl = c ? `${c.leaseTtlMs} ms` : '—';
  const server = st.servers[0]?.id ?? 's0';
  const set = cfg.writeMode === 'set';
  // Counted from the notes up to t: the sampled metric lags the event it would count by up to one sample.
  const fencedN = st.countNotes('fenced', (n) => n.what === 'fenced' && n.data.what === 'write');
  const pacelc = st.cap?.pacelc ?? 'PC/EC';
  const lead = leaderOf(st);
  const lock = lead?.f.locks[0] ?? null;

  if (!st.started)
    return S(
      `Before each update a worker takes the lock /locks/params in ${wd.svc} (${c?.service === 'zookeeper' ? 'an ephemeral sequential node, which lives as long as its session' : 'a key attached to its lease'} — a lease that lapses ${ttl} after its holder stops sending heartbeats), reads the parameters from ${server}, computes, ${set ? 'writes the whole vector back' : 'writes its gradient'} and releases. Each grant carries a fencing token (${c?.service === 'zookeeper' ? 'the zxid of its node' : "its key's create revision"}); ${server} ${cfg.fencing ? 'checks it and refuses one older than the newest it has seen' : 'does not check it'}. Press ▶ to start.`,
      `每次更新前，工作节点先在 ${wd.svc} 上拿锁 /locks/params（${c?.service === 'zookeeper' ? '一个临时顺序节点，与会话同生共死' : '一个绑定在它租约上的键'}——本质是租约，持有者停止发送心跳 ${ttl} 后失效），从 ${server} 读取参数、计算、${set ? '把整个向量写回' : '写入梯度'}，然后释放。每次授予锁都附带一个防护令牌（fencing token），即${c?.service === 'zookeeper' ? '该节点的 zxid' : '该键创建时的 revision'}；${server} ${cfg.fencing ? '会检查它，拒绝比已见过的更旧的令牌' : '不检查它'}。按 ▶ 开始。`,
    );

  // A holder frozen inside its critical section: it cannot learn that its lease ran out.
  const frozen: Holder | null = st.workers.flatMap((n) => {
    const l = lockOf(n);
    return n.up && n.paused && l?.state === 'held' ? [{ n, lock: l }] : [];
  })[0] ?? null;
  if (frozen) {
    const tok = tokenText(frozen.lock.token ?? 0);
    if (lock && lock.holder !== frozen.n.id) {
      const newer = tokenText(lock.token);
      // Refused only once the server has seen the newer token (the new holder's first read or write).
      const wake = cfg.fencing
        ? S(
            `When it wakes it will write anyway; ${server} checks tokens, and once ${lock.holder} has used ${newer} there, it refuses ${tok}.`,
            `它醒来后照样会写入；${server} 检查令牌，只要 ${lock.holder} 已在那里用过 ${newer}，它就会拒绝 ${tok}。`,
          )
        : S(`When it wakes it will write anyway, and ${server}, which does not check tokens, will accept it: two writers.`, `它醒来后照样会写入，而不检查令牌的 ${server} 会接受：出现两个写入者。`);
      return S(
        `${frozen.n.id} is paused (a GC pause) and still believes it holds the lock with fencing token ${tok}. The service heard no heartbeat for ${ttl}, ended its ${wd.lease.en} and gave the lock to ${lock.holder} (token ${newer}); nothing can tell a frozen process that it lost its ${wd.lease.en}. ${wake.en}`,
        `${frozen.n.id} 被暂停了（GC 停顿），仍以为自己持有防护令牌为 ${tok} 的锁。协调服务 ${ttl} 没有收到它的心跳，结束了它的${wd.lease.zh}，把锁交给了 ${lock.holder}（防护令牌 ${newer}）；没有任何办法告诉一个被冻结的进程它已失去${wd.lease.zh}。${wake.zh}`,
      );
    }
    return S(
      `${frozen.n.id} is paused (a GC pause) while it holds the lock (fencing token ${tok}); the others wait for the lock. If the pause outlasts its ${ttl} ${wd.lease.en}, the service will give the lock to the next in line while ${frozen.n.id} still believes it holds it.`,
      `${frozen.n.id} 在持有防护令牌为 ${tok} 的锁时被暂停了（GC 停顿）；其他节点都在等这把锁。如果暂停时间超过${wd.lease.zh}的 ${ttl} 有效期，协调服务会把锁交给下一个排队者，而 ${frozen.n.id} 仍以为自己持有它。`,
    );
  }

  const accepted = st.recent.staleWriteAccepted;
  if (accepted?.what === 'staleWriteAccepted' && 'token' in accepted.data) {
    const d = accepted.data;
    // Paused past its lease (the lesson's case), or granted late by a lagging server: either way its lock had moved on.
    const resumed = st.recent.resumed;
    const how =
      resumed?.node === d.from && resumed.t <= accepted.t
        ? S(`${d.from} woke up and wrote under its old fencing token ${tokenText(d.token)}.`, `${d.from} 醒来后带着旧的防护令牌 ${tokenText(d.token)} 写入。`)
        : S(`${d.from} wrote under fencing token ${tokenText(d.token)}, from a grant the service had already moved past.`, `${d.from} 带着防护令牌 ${tokenText(d.token)} 写入，而这次授予在协调服务那里早已过时。`);
    // The lost-update count once a metric sample has seen this write (samples lag events).
    const lost = st.sampledAt !== null && st.sampledAt >= accepted.t ? metric(st, 'lostUpdates') : null;
    // The count is of acknowledged updates off the current lineage, so it can fall: say why when
    // it has ("now 1" after "now 4" left a class asking where three lost updates went).
    const peak = lost === null ? null : st.metricPeak('lostUpdates');
    const lostS =
      lost === null
        ? S('', '')
        : set && peak !== null && peak > lost
          ? S(
              ` (lost updates now ${num(lost)}; it was ${num(peak)} earlier in the run: it counts acknowledged updates missing from the current parameters, and with whole-vector writes a later write based on an earlier read can put some back)`,
              `（当前丢失的更新 ${num(lost)}；本次运行中曾达到 ${num(peak)}：它统计的是当前参数中缺失的已确认更新，整向量写入时，之后一次基于更早读取的写入可能把其中一些带回来）`,
            )
          : S(` (lost updates now ${num(lost)})`, `（当前丢失的更新 ${num(lost)}）`);
    const what = set
      ? S(`its whole-vector write replaced everything written since its read${lostS.en}`, `它写回的整个向量覆盖了它读取之后写入的一切${lostS.zh}`)
      : S(`its gradient, computed on old parameters, was applied after the newer holder's${lostS.en}`, `它基于旧参数算出的梯度被应用在新持有者之后${lostS.zh}`);
    return S(
      `${how.en} ${server} does not check tokens, so it accepted the write although it had already seen ${tokenText(d.newest)}: two lock holders wrote, and ${what.en}. A lock without a fencing token does not guarantee a single writer.`,
      `${how.zh}${server} 不检查令牌，尽管已见过 ${tokenText(d.newest)}，仍接受了这次写入：两个持锁者都写了，${what.zh}。没有防护令牌的锁并不能保证只有一个写入者。`,
    );
  }
  const fenced = st.recent.fenced;
  if (fenced?.what === 'fenced' && 'token' in fenced.data) {
    const d = fenced.data;
    const op = d.what === 'write' ? S('write', '写入') : S('read', '读取');
    const resumed = st.recent.resumed;
    const paused = resumed?.node === d.from && resumed.t <= fenced.t;
    const how = paused ? S('while it was paused', '在暂停期间') : S('while it worked', '在干活期间');
    const who = paused ? S('the paused holder', '被暂停的持有者') : S('the stale holder', '过时的持有者');
    const count = d.what === 'write' ? S(` (fenced writes ${fencedN})`, `（被拦截的写入 ${fencedN}）`) : S('', '');
    // The refusal itself loses nothing; say "no update lost" only while the count agrees.
    const lost = metric(st, 'lostUpdates');
    const safe = lost === 0 ? S(' — no acknowledged update is lost (lost updates 0)', '——没有任何已确认的更新丢失（丢失的更新 0）') : S('', '');
    return S(
      `${d.from} lost the lock ${how.en} and tried to ${op.en} with its old fencing token ${tokenText(d.token)}; ${server} had already seen ${tokenText(d.newest)} and refused it${count.en}. The lock did not stop ${who.en}; the token checked where the data lives did${safe.en}.`,
      `${d.from} ${how.zh}失去了锁，又带着旧的防护令牌 ${tokenText(d.token)} 来${op.zh}；${server} 已见过 ${tokenText(d.newest)}，拒绝了它${count.zh}。锁没能拦住${who.zh}，在数据所在之处检查的令牌拦住了${safe.zh}。`,
    );
  }

  const reads = metadataReads(st);
  if (reads) return reads;

  // Servers down or cut off: the service works while a majority of it is up and connected.
  const servers = c?.servers ?? [];
  const down = servers.filter((n) => !n.up).map((n) => n.id);
  if (down.length > 0 || (st.networkFault && !lead))
    return S(
      `${down.length ? `${list(down, 'en')} ${down.length === 1 ? 'is' : 'are'} down. ` : ''}The service grants locks only while a majority (${majority(servers.length)} of ${servers.length}) of its servers agree${lead ? `; leader ${lead.n.id} still has one` : ', and none leads now'}. A worker that cannot take the lock waits: the recipe gives up A rather than let two writers in — ${pacelc}.`,
      `${down.length ? `${list(down, 'zh')} 已停止。` : ''}只有当多数派（${servers.length} 台中的 ${majority(servers.length)} 台）服务器意见一致时，协调服务才能授予锁${lead ? `；领导者 ${lead.n.id} 仍有多数派` : '，而此刻没有领导者'}。拿不到锁的工作节点只能等待：这种做法宁可放弃 A，也不让两个写入者同时进入——${pacelc}。`,
    );

  const waiting = lock?.waiting.length ?? 0;
  const turns = lock
    ? S(
        `${lock.holder} holds the lock now (fencing token ${tokenText(lock.token)})${waiting ? ` and ${waiting} ${waiting === 1 ? 'waits' : 'wait'}` : ''}`,
        `${lock.holder} 此刻持有锁，防护令牌为 ${tokenText(lock.token)}${waiting ? `，${waiting} 个在等待` : ''}`,
      )
    : S('nobody holds the lock this instant', '此刻没有人持有锁');
  const guard = cfg.fencing
    ? S(`${server} checks each read's and write's token and refuses one older than the newest it has seen.`, `${server} 检查每次读写的令牌，拒绝比已见过的更旧的令牌。`)
    : S(`${server} does not check tokens: the lock alone keeps writers apart — until a holder pauses past its lease.`, `${server} 不检查令牌：只靠锁把写入者隔开——直到某个持有者的暂停超过了租约。`);
  return S(
    `Writers take turns under the lock: ${turns.en}. Every update pays the lock's round trips, and a worker that cannot reach the service waits — ${pacelc}. ${guard.en} ${serviceReads(st).en}`,
    `写入者在锁下轮流进行：${turns.zh}。每次更新都要付出加锁的往返延迟，连不上协调服务的工作节点只能等待——${pacelc}。${guard.zh}${serviceReads(st).zh}`,
  );
}

/**
 * A server's copy of the metadata key lags the leader's, or a read just returned an old version:
 * what the configured reads do about it.
 */
function metadataReads(st: ExplainState): Sentence | null {
  const c = st.coord;
  const lag = metaLag(st);
  const stale = st.recent.staleRead;
  // The service's stale reads (they name the key), counted from the notes up to t.
  const staleN = st.countNotes('staleRead', (n) => n.what === 'staleRead' && n.data.key !== undefined);
  if (!c || !lag) return null;
  const slow = lag.behind[0] ?? null;
  if (stale?.what === 'staleRead' && stale.data.key !== undefined) {
    const d = stale.data;
    return S(
      `${stale.node} read ${d.key} from ${d.server} and got version ${d.version}, although version ${d.newest} was committed before its read began: a stale read (stale reads ${staleN}). ${serviceReads(st).en}`,
      `${stale.node} 从 ${d.server} 读取 ${d.key}，得到版本 ${d.version}，而版本 ${d.newest} 在这次读开始之前就已提交：陈旧读（陈旧读 ${staleN}）。${serviceReads(st).zh}`,
    );
  }
  if (!slow) return null;
  const behind = S(`${slow.id}'s copy of ${lag.key} is at version ${slow.version} while the leader committed version ${lag.newest}`, `${slow.id} 上 ${lag.key} 的副本还是版本 ${slow.version}，而领导者已提交版本 ${lag.newest}`);
  if (c.reads === 'linearizable')
    return S(
      `${behind.en}. etcd's reads are linearizable by default, so no client reads that old version: each read goes through the leader (ReadIndex) and waits for the slow link instead (stale reads ${staleN}) — PACELC's L.`,
      `${behind.zh}。etcd 的读默认是线性一致的，所以没有客户端会读到那个旧版本：每次读都经过领导者（ReadIndex），宁可等那条慢链路（陈旧读 ${staleN}）——这就是 PACELC 里的 L。`,
    );
  return S(`${behind.en}. ${serviceReads(st).en}`, `${behind.zh}。${serviceReads(st).zh}`);
}
