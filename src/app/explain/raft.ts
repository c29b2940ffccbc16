import type { NodeState } from '../../engine/index/runState';
import type { NodeFacts } from '../../protocols/facts';
import { list, majority, mib, num, setOf, tolerance } from '../words/text';
import { join, minoritySide, S, type Sentence } from './common';
import { deposedBefore, deposedByRejoin, deposedWhy, leaderlessWhy, minorityTerms, rejoinedAbove } from './rejoin';
import type { ExplainState } from './state';

/**
 * Raft-replicated parameter server (TRUTHS: majority quorum; a leader commits by counting only
 * entries of its own term (Figure 8) and earlier entries beneath them; a minority side never
 * commits; unavailability after a leader crash ≈ election timeout + one round; only committed
 * prefixes never disagree). Reads are linearizable except with `readMode: "local"`.
 */

type RaftFacts = Extract<NodeFacts, { kind: 'raft-server' }>;
interface Server {
  n: NodeState;
  f: RaftFacts;
}

function servers(st: ExplainState): Server[] {
  return st.servers.flatMap((n) => (n.facts?.kind === 'raft-server' ? [{ n, f: n.facts }] : []));
}

/** The commit rule, for the leader's current term T (Figure 8). */
function commitRule(term: number | null, need: number, n: number): Sentence {
  if (term === null)
    return S(
      `an entry commits once a majority (${need} of ${n}) stores it — counted only for an entry of the leader's own term; earlier entries commit beneath it (Figure 8)`,
      `条目被多数派（${n} 台中的 ${need} 台）存下才提交——只对领导者本任期的条目计数，更早任期的条目随它一起提交（图 8）`,
    );
  return S(
    `an entry of term ${term} commits once a majority (${need} of ${n}) stores it, and every entry before it commits with it; entries of earlier terms are never committed by counting (Figure 8)`,
    `任期 ${term} 的条目被多数派（${n} 台中的 ${need} 台）存下即提交，它之前的所有条目随之提交；更早任期的条目从不靠计数提交（图 8）`,
  );
}

/** What a read returns under the configured readMode. */
function reads(st: ExplainState): Sentence {
  const mode = st.cfg.kind === 'raft-ps' ? st.cfg.readMode : 'readIndex';
  switch (mode) {
    case 'readIndex':
      // "The parameters'": a coordination service may run beside, with reads of its own (ZooKeeper's are not linearizable).
      return S("The parameters' reads use ReadIndex: the leader confirms it still leads before answering, so they are linearizable.", '参数的读取使用 ReadIndex：领导者先确认自己仍是领导者再回答，所以是线性一致的。');
    case 'log':
      return S('Reads go through the log like writes, so they are linearizable.', '读取和写入一样经过日志，所以是线性一致的。');
    case 'lease':
      return S('Reads are served under a leader lease: linearizable while clocks keep time, as they do in the simulator.', '读取在领导者租约下直接应答：只要时钟准确（模拟器中是准确的），就是线性一致的。');
    case 'local':
      return S(
        'With readMode "local" each server answers reads from its own state, which may be behind: reads can be stale, so they are not linearizable (a committed prefix, not C).',
        'readMode 为 "local" 时，每台服务器用自己的状态回答读取，而它可能落后：读取可能陈旧，因此不是线性一致的（只是已提交的前缀，不是 C）。',
      );
  }
}

/** "C kept" is true only where reads are linearizable; with local reads name what is kept. */
function kept(st: ExplainState): Sentence {
  return st.cap?.consistency === 'linearizable'
    ? S('C kept', '保住了 C')
    : S('committed prefixes kept (local reads may be stale)', '已提交的前缀保持一致（本地读取可能陈旧）');
}

export function raft(st: ExplainState): Sentence {
  const all = servers(st);
  const n = all.length;
  const need = majority(n);
  const live = all.filter((x) => x.n.up);
  const leaders = live.filter((x) => x.f.role === 'leader');
  const newest = leaders.slice().sort((a, b) => b.f.term - a.f.term)[0] ?? null;
  const candidates = live.filter((x) => x.f.role === 'candidate');
  const crashed = all.filter((x) => !x.n.up).map((x) => x.n.id);
  const cfg = st.cfg.kind === 'raft-ps' ? st.cfg : null;
  const eto = cfg?.electionTimeoutMs ?? [150, 300];
  const etoText = `${eto[0]}–${eto[1]} ms`;
  const pacelc = st.cap?.pacelc ?? 'PC/EC';
  const lead = (x: Server): Sentence => S(`${x.n.id} (term ${x.f.term})`, `${x.n.id}（任期 ${x.f.term}）`);

  if (!st.started) {
    const rule = commitRule(null, need, n);
    const r = reads(st);
    return S(
      `Raft-replicated parameter server: ${n} servers elect a leader; every update is an entry in the leader's log, and ${rule.en}. ${capital(tolerance(n, 'en'))}. ${r.en} Press ▶ to start.`,
      `Raft 复制的参数服务器：${n} 台服务器选出一个领导者；每次更新都是领导者日志中的一个条目，${rule.zh}。${tolerance(n, 'zh')}。${r.zh}按 ▶ 开始。`,
    );
  }

  // Requests over the servers' limit (maxRequestBytes; etcd's "request is too large"): nothing commits.
  const tooLarge = st.recent.requestTooLarge;
  if (tooLarge?.what === 'requestTooLarge') {
    const d = tooLarge.data;
    // Counted from the notes up to t (one per refusal): the sampled metric lags by up to one sample.
    const rejected = st.countNotes('requestTooLarge');
    const fsync = cfg?.fsyncMs ? S(` with a ${cfg.fsyncMs} ms disk sync`, `和一次 ${cfg.fsyncMs} ms 的落盘`) : S('', '');
    return S(
      `Every update is refused: a request carrying the parameters is ${mib(d.bytes)}, over the servers' ${mib(d.limit)} limit (maxRequestBytes), so it is answered "request is too large" and nothing commits (rejected writes ${rejected}, availability ${num(st.availability)}). An etcd-like store is built for small metadata — membership, configuration, checkpoint pointers, epochs, fencing tokens — not for parameters; even a write that fit would be a Raft commit${fsync.en}.`,
      `每次更新都被拒绝：携带参数的请求有 ${mib(d.bytes)}，超过了服务器 ${mib(d.limit)} 的上限（maxRequestBytes），于是得到“request is too large”的答复，什么都提交不了（被拒绝的写入 ${rejected}，可用性 ${num(st.availability)}）。类 etcd 存储是为小的元数据设计的——成员信息、配置、检查点指针、纪元号、防护令牌——不是为参数；即使请求能放得下，每次写入也要经过一次 Raft 提交${fsync.zh}。`,
    );
  }

  // A partition that splits the servers: only a side with a majority can commit.
  if (st.partition) {
    const ids = new Set(all.map((x) => x.n.id));
    const sides = st.partition.map((g) => ({ g, servers: live.filter((x) => g.includes(x.n.id)) })).filter((x) => x.g.some((id) => ids.has(id)));
    if (sides.length > 1 || st.partition.some((g) => !g.some((id) => ids.has(id)))) {
      const major = sides.find((x) => x.servers.length >= need) ?? null;
      const minorityWorkers = st.workers.filter((w) => !major || !major.g.includes(w.id)).map((w) => w.id);
      const minorityServers = all.filter((x) => !major || !major.g.includes(x.n.id)).map((x) => x.n.id);
      const staleLeader = leaders.find((x) => major && !major.g.includes(x.n.id)) ?? null;
      if (!major)
        return S(
          `Network partition: no side holds a majority of the ${n} servers (${need} needed), so nothing commits anywhere and every worker's update waits. Raft gives up A rather than consistency until the partition heals.`,
          `网络分区：没有任何一侧拥有 ${n} 台服务器中的多数派（需要 ${need} 台），所以哪里都无法提交，每个工作节点的更新都在等待。网络分区恢复之前，Raft 宁可放弃 A，也不放弃一致性。`,
        );
      const majorLeader = major.servers.find((x) => x.f.role === 'leader') ?? null;
      const mIds = setOf(major.servers.map((x) => x.n.id));
      const stale = staleLeader
        ? S(
            ` ${staleLeader.n.id} still believes it leads (term ${staleLeader.f.term}) and may append entries, but it can never commit them: no majority answers it. Those uncommitted entries are why only committed prefixes never disagree.`,
            `${staleLeader.n.id} 仍以为自己是领导者（任期 ${staleLeader.f.term}），还可能追加条目，但永远提交不了：没有多数派回应它。正因为有这些未提交的条目，才只有“已提交的前缀”永不分歧。`,
          )
        : S('', '');
      const one = major.servers.length === 1;
      const majorS = majorLeader
        ? S(`${one ? 'keeps' : 'keep'} committing under leader ${lead(majorLeader).en}`, `在领导者 ${lead(majorLeader).zh} 之下继续提交`)
        : S(`${one ? 'is' : 'are'} electing a new leader and will commit again once one wins`, '正在选举新的领导者，选出后即可继续提交');
      // The other side: servers that cannot commit, or workers cut off from every server alone
      // (a dragged worker), or nothing that trains or stores (no minority clause).
      const minority = minoritySide(minorityServers, minorityWorkers, { en: ['never commits', 'never commit'], zh: '永远无法提交' }, kept(st));
      // Followers and candidates cut off from the majority (a stale leader has its own clause).
      const cutOff = live.filter((x) => !major.g.includes(x.n.id) && x.f.role !== 'leader').map((x) => ({ id: x.n.id, term: x.f.term }));
      const terms = minorityTerms(cfg?.preVote ?? false, cutOff, Math.max(...major.servers.map((x) => x.f.term)));
      return S(
        `Network partition: ${mIds} ${major.servers.length === 1 ? 'is' : 'are'} a majority (${major.servers.length} of ${n}) and ${majorS.en}.${minority.en}${stale.en}${terms.en}`,
        `网络分区：${mIds} 是多数派（${n} 台中的 ${major.servers.length} 台），${majorS.zh}。${minority.zh}${stale.zh}${terms.zh}`,
      );
    }
  }

  if (live.length < need)
    return S(
      `Only ${live.length} of ${n} servers are up — fewer than a majority (${need}): no leader can be elected and nothing commits. Raft gives up A rather than consistency.`,
      `${n} 台服务器中只有 ${live.length} 台在运行，不足多数派（${need} 台）：选不出领导者，什么都无法提交。Raft 宁可放弃 A，也不放弃一致性。`,
    );

  if (!newest) {
    // A leader that stepped down for a rejoining server's term, with no leader elected since.
    const why = leaderlessWhy(st, 'raft');
    if (candidates.length > 0) {
      const c = candidates[0];
      return S(
        `${why.en}Election in progress: ${c.n.id} is a candidate for term ${c.f.term} and asks the others for votes (${c.f.votes ?? 1} so far; it needs ${need} of ${n}). Until a leader wins, no update commits and the workers wait — consistency kept, A paused.`,
        `${why.zh}选举进行中：${c.n.id} 以任期 ${c.f.term} 成为候选者，正在向其他服务器拉票（目前 ${c.f.votes ?? 1} 票；需要 ${n} 台中的 ${need} 票）。在领导者产生之前没有更新能提交，工作节点只能等待——保住一致性，A 暂时中断。`,
      );
    }
    return S(
      `${why.en}No leader${crashed.length ? `: ${list(crashed, 'en')} crashed` : ''}. The followers wait for their randomised election timeout (${etoText} without a heartbeat); the first to expire becomes a candidate. Meanwhile nothing commits — consistency kept, A paused.`,
      `${why.zh}没有领导者${crashed.length ? `：${list(crashed, 'zh')} 已崩溃` : ''}。跟随者等待各自的随机选举超时（${etoText} 没收到心跳）；最先超时的成为候选者。在此期间什么都无法提交——保住一致性，A 暂时中断。`,
    );
  }

  const elected = st.recent.leaderElected;
  if (elected && elected.node === newest.n.id && newest.f.term > 1) {
    // Past tense only once something has committed in the new term (Figure 8 with no no-op waits
    // longer: "was" read as over, beside a gap of 0 ms). The measured gap is quoted only where it
    // spans at least an election timeout, so it can be the failover's pause and not a round's.
    const resumed = st.recent.commit !== undefined && st.recent.commit.t >= elected.t;
    const gap = typeof st.metrics.maxCommitGapMs === 'number' ? Math.round(st.metrics.maxCommitGapMs) : null;
    const gapS = gap !== null && gap >= eto[0] ? S(` (longest gap between commits so far: ${gap} ms${gap < 1000 ? ' — not seconds' : ''})`, `（目前两次提交之间最长间隔 ${gap} ms${gap < 1000 ? '，而不是几秒' : ''}）`) : S('', '');
    const noop =
      cfg?.leaderNoop === false
        ? S(
            `It appends no no-op (leaderNoop off): entries left from earlier terms commit only when an entry of term ${newest.f.term} does (Figure 8).`,
            `它不追加空操作条目（leaderNoop 关闭）：之前任期留下的条目，要等到任期 ${newest.f.term} 的某个条目提交时才随之提交（图 8）。`,
          )
        : S(
            `It appends a no-op of term ${newest.f.term}; once a majority stores it, it commits, and every entry before it with it (Figure 8).`,
            `它追加一条任期 ${newest.f.term} 的空操作条目；多数派存下后它即提交，之前的所有条目随之提交（图 8）。`,
          );
    // A leader deposed by a rejoining server's higher term, since the election before this one.
    const rejoin = deposedBefore(st, 'raft', elected.t);
    // A candidacy forced by a `timeout` action did not wait for a timer: the pause is then the
    // script's (or the user's) doing, and "about one election timeout" would name the wrong cause.
    const forced = st.forcedElection(newest.n.id, newest.f.term);
    const who = forced === 'user' ? S('you forced', '你对它强制触发了') : S('the script forced', '脚本对它强制触发了');
    const pause = rejoin
      ? S(`The pause in commits was that step-down plus one election${gapS.en}.`, `提交中断的时间是这次下台加一次选举${gapS.zh}。`)
      : forced
      ? S(
          `${newest.n.id} stood for election because ${who.en} a timeout on it, not because its timer ran out: how long commits paused was set by when that timeout was forced, not by one election timeout${gapS.en}.`,
          `${newest.n.id} 成为候选者，是因为${who.zh}超时，而不是它的计时器到期：提交中断多久，取决于何时强制超时，而不是一个选举超时${gapS.zh}。`,
        )
      : S(`The pause in commits was about one election timeout plus one round${gapS.en}.`, `提交中断的时间大约是一个选举超时加一轮通信${gapS.zh}。`);
    return join([
      S(`${newest.n.id} won the election for term ${newest.f.term} with a majority of votes.`, `${newest.n.id} 以多数票赢得任期 ${newest.f.term} 的选举。`),
      rejoin ? join([S('Why an election at all:', '为什么要选举：'), deposedWhy(rejoin, 'raft')], S(' ', '')) : S('', ''),
      noop,
      resumed ? pause : S(`Nothing has committed in term ${newest.f.term} yet.`, `任期 ${newest.f.term} 还没有提交任何条目。`),
    ]);
  }
  if (crashed.length > 0)
    return S(
      `${list(crashed, 'en')} crashed, but ${live.length} of ${n} servers are still a majority: leader ${lead(newest).en} keeps committing. ${capital(tolerance(n, 'en'))}; a restarted server keeps its term, vote and log and catches up as a follower.`,
      `${list(crashed, 'zh')} 已崩溃，但 ${n} 台中的 ${live.length} 台仍是多数派：领导者 ${lead(newest).zh} 继续提交。${tolerance(n, 'zh')}；重启的服务器保留任期、投票和日志，以跟随者身份追上进度。`,
    );
  if (st.recentlyHealed) {
    const over = typeof st.metrics.overwrittenEntries === 'number' ? st.metrics.overwrittenEntries : 0;
    // About one restarted server ("it") or the servers that were cut off ("they"). The count is the
    // run's: a restarted server is not said to own it (s2's restart was credited with the 10 entries
    // a deposed leader lost after an earlier heal).
    const overS = (one: boolean) =>
      over > 0
        ? S(
            ` ${one ? "Uncommitted entries that conflicted with a leader's log have been overwritten in this run" : "Their uncommitted entries that conflicted with the leader's log were overwritten"} (overwritten entries ${over}): Raft logs do diverge — only committed prefixes never disagree, and committed entries never change.`,
            `${one ? '本次运行中，与领导者日志冲突的未提交条目已被覆盖' : '它们日志中与领导者冲突的未提交条目被覆盖了'}（被覆盖的条目 ${over}）：Raft 的日志确实会分歧——只有已提交的前缀永不分歧，已提交的条目永远不变。`,
          )
        : S(` Nothing had to be overwritten: every entry ${one ? 'it holds' : 'they hold'} is in the leader's log too.`, `没有条目需要覆盖：${one ? '它' : '它们'}持有的每个条目领导者的日志里也有。`);
    const r = st.lastRepair;
    // Back with a higher term than the leader's, which has not heard it yet (no PreVote).
    // (Only one that was cut off from the leader until this repair: a forced timeout also outruns its term.)
    const above = live.filter((x) => x.f.term > newest.f.term).sort((a, b) => b.f.term - a.f.term)[0];
    if (above && r && r.kind !== 'restart' && !cfg?.preVote && st.netFaultDuring(r.t - 0.001, r.t - 0.001, [above.n.id, newest.n.id])) return rejoinedAbove({ id: above.n.id, term: above.f.term }, { id: newest.n.id, term: newest.f.term });
    // …and once it has deposed the leader: the term it follows now came from that election.
    const deposed = r && r.kind !== 'restart' ? deposedByRejoin(st, 'raft') : null;
    if (deposed && r && deposed.at >= r.t)
      return S(
        `Healed: ${deposed.carrier ?? deposed.by} is back and follows leader ${newest.n.id} (term ${newest.f.term}), elected after ${deposed.by}'s term ${deposed.term}${deposed.carrier ? `, which ${deposed.carrier} brought back,` : ''} made ${deposed.leader} step down.${overS(true).en}`,
        `已恢复：${deposed.carrier ?? deposed.by} 回来了，跟随领导者 ${newest.n.id}（任期 ${newest.f.term}）——${deposed.by} 的任期 ${deposed.term}${deposed.carrier ? `（由 ${deposed.carrier} 带回）` : ''}让 ${deposed.leader} 下台之后，才选出了它。${overS(true).zh}`,
      );
    if (r?.kind === 'restart' && r.node && all.some((x) => x.n.id === r.node)) {
      const back = all.find((x) => x.n.id === r.node)!;
      const node = r.node;
      // Log compaction (§7): the restart began from its own snapshot; what it lacked may have come as the leader's.
      const installed = st.lastNote('snapshotInstalled', (x) => x.node === node && x.t >= r.t);
      const got = installed?.what === 'snapshotInstalled' ? installed.data : null;
      const before = (x: { node?: string; t: number }) => x.node === node && x.t < r.t;
      const own = st.lastNote('snapshotTaken', before) ?? st.lastNote('snapshotInstalled', before);
      const snap = own !== null && back.f.snapshot !== undefined;
      return S(
        `${node} restarted with its term, vote${snap ? ', log and snapshot' : ' and log'} intact (they are persistent)${snap ? '; its parameters restart from the snapshot' : ''}; it sees term ${newest.f.term}, follows leader ${newest.n.id} and catches up on what it missed.${got ? ` The entries it lacked had been compacted out of ${got.from}'s log, so ${got.from} sent its snapshot up to index ${got.index} instead (InstallSnapshot, Raft §7).` : ''}${overS(true).en}`,
        `${node} 重启了，任期、投票${snap ? '、日志和快照' : '和日志'}都完好（它们是持久化的）${snap ? '；它的参数从快照重新开始' : ''}；它看到任期 ${newest.f.term}，跟随领导者 ${newest.n.id}，补上错过的内容。${got ? `它缺少的条目已从 ${got.from} 的日志中压缩掉，所以 ${got.from} 改为发送截至索引 ${got.index} 的快照（InstallSnapshot，Raft §7）。` : ''}${overS(true).zh}`,
      );
    }
    // A worker's restart changes nothing in Raft (it said "servers that were cut off see the higher
    // term" after w3 restarted on a whole network).
    if (r?.kind === 'restart' && r.node && st.workers.some((w) => w.id === r.node))
      return S(
        `${r.node} restarted: it sends its updates to leader ${newest.n.id} (term ${newest.f.term}) again and reads parameters as before. A worker holds no Raft state, so the servers' logs and terms are untouched.`,
        `${r.node} 重启了：它重新把更新发给领导者 ${newest.n.id}（任期 ${newest.f.term}），并像之前一样读取参数。工作节点不持有任何 Raft 状态，所以服务器的日志和任期都不受影响。`,
      );
    // A partition that cut off only workers left the servers one group: no server saw a higher term
    // ("servers that were cut off see the higher term 1" followed a cut of w4, w5 alone).
    // (Only the partition this heal ended: a heal of cut links says nothing of an older partition.)
    const groups = r?.kind === 'heal' && st.lastPartition?.end === r.t ? st.lastPartition.groups : null;
    if (groups) {
      // An unlisted node is in the first group (the partition action's rule).
      const groupOf = (id: string): number => Math.max(0, groups.findIndex((g) => g.includes(id)));
      const home = groupOf(newest.n.id);
      const cutServers = all.filter((x) => groupOf(x.n.id) !== home);
      const cutWorkers = st.workers.filter((w) => groupOf(w.id) !== home).map((w) => w.id);
      if (cutServers.length === 0 && cutWorkers.length > 0)
        return S(
          `Healed: ${list(cutWorkers, 'en')} ${cutWorkers.length === 1 ? 'reaches' : 'reach'} the servers again. The servers were never split, so leader ${newest.n.id} (term ${newest.f.term}) simply serves ${cutWorkers.length === 1 ? 'it' : 'them'} again: nothing to catch up, no new term.`,
          `已恢复：${list(cutWorkers, 'zh')} 重新连上了服务器。服务器之间从未被隔开，所以领导者 ${newest.n.id}（任期 ${newest.f.term}）照常为${cutWorkers.length === 1 ? '它' : '它们'}服务：没有要追赶的条目，也没有新任期。`,
        );
      // The leader was elected before the cut: the servers cut off come back in its term (with
      // PreVote, or too briefly cut off to time out) — there is no higher term for them to see.
      const since = st.lastNote('leaderElected', (x) => x.node === newest.n.id);
      const back = cutServers.filter((x) => x.n.up);
      if (back.length > 0 && since && since.t < st.lastPartition!.start) {
        const one = back.length === 1;
        const ids = back.map((x) => x.n.id);
        const pre = cfg?.preVote ? S(` (PreVote kept ${one ? 'it' : 'them'} from raising it)`, '（PreVote 让任期没有上升）') : S('', '');
        return S(
          `Healed: ${list(ids, 'en')} ${one ? 'is' : 'are'} back in term ${newest.f.term}, the term ${one ? 'it' : 'they'} had when cut off${pre.en}, and ${one ? 'follows' : 'follow'} leader ${newest.n.id} again, catching up on the entries ${one ? 'it' : 'they'} missed: no new election.${overS(one).en}`,
          `已恢复：${list(ids, 'zh')} 回到任期 ${newest.f.term}——被隔开时的任期${pre.zh}，重新跟随领导者 ${newest.n.id}，补上错过的条目：没有新的选举。${overS(one).zh}`,
        );
      }
      // Elected after the cut, and every server cut off already held its term at the heal
      // (raft-figure-8: s2, cut off before any election, timed out into term 1 beside leader s0's
      // term 1): no higher term to see — the leader's AppendEntries make it follow (a candidate of
      // that term stands down). Terms as they stood at the heal: by now they may have caught up.
      const termAtHeal = (id: string): number | null => {
        const f = st.factsAt(id, r!.t);
        return f?.kind === 'raft-server' ? f.term : null;
      };
      if (back.length > 0 && back.every((x) => termAtHeal(x.n.id) === newest.f.term)) {
        const one = back.length === 1;
        const ids = back.map((x) => x.n.id);
        return S(
          `Healed: ${list(ids, 'en')} ${one ? 'is' : 'are'} back, already in term ${newest.f.term}, the leader's own: there is no higher term to see, and ${one ? 'it follows' : 'they follow'} leader ${newest.n.id} as soon as its AppendEntries arrive.${overS(one).en}`,
          `已恢复：${list(ids, 'zh')} 回来了，本来就在任期 ${newest.f.term}，与领导者相同：没有更高的任期可看；领导者 ${newest.n.id} 的追加条目消息一到，${one ? '它' : '它们'}就跟随它。${overS(one).zh}`,
        );
      }
    }
    // Cut links repaired (no partition ended here): unless one joined two servers, the servers were
    // never split ("servers that were cut off see the higher term 2" after restoring w2→s2).
    if (!groups && r && r.kind !== 'restart') {
      const now = new Set(st.cutsAt(r.t).map(([a, b]) => `${a}>${b}`));
      const repaired = st.cutsAt(r.t, true).filter(([a, b]) => !now.has(`${a}>${b}`));
      const isServer = (id: string): boolean => all.some((x) => x.n.id === id);
      if (repaired.length > 0 && !repaired.some(([a, b]) => isServer(a) && isServer(b))) {
        const links = repaired.map(([a, b]) => `${a}→${b}`).join(', ');
        return S(
          `Healed: the cut ${repaired.length === 1 ? 'link' : 'links'} (${links}) ${repaired.length === 1 ? 'is' : 'are'} whole again. None joined two servers, so leader ${newest.n.id} (term ${newest.f.term}) simply goes on: the repair brings no new term and nothing to catch up.`,
          `已恢复：被切断的链路（${links}）重新连通。其中没有一条连接两台服务器，所以领导者 ${newest.n.id}（任期 ${newest.f.term}）照常工作：这次修复不带来新任期，也没有要追赶的条目。`,
        );
      }
    }
    return S(
      `Healed: servers that were cut off see the higher term ${newest.f.term} and follow leader ${newest.n.id}.${overS(false).en}`,
      `已恢复：被隔开的服务器看到更高的任期 ${newest.f.term}，跟随领导者 ${newest.n.id}。${overS(false).zh}`,
    );
  }
  const split = leaders.length > 1
    ? S(
        ` (${leaders.length} servers believe they lead, in different terms; only the one a majority answers — term ${newest.f.term} — can commit.)`,
        `（有 ${leaders.length} 台服务器以为自己是领导者，任期不同；只有多数派回应的那一台——任期 ${newest.f.term}——能提交。）`,
      )
    : S('', '');
  const rule = commitRule(newest.f.term, need, n);
  const r = reads(st);
  return S(
    `Leader ${lead(newest).en} appends every update to its log and replicates it; ${rule.en}.${split.en} ${r.en} Even with no fault each update pays a replication round trip — ${pacelc}.`,
    `领导者 ${lead(newest).zh}把每次更新追加到自己的日志并复制出去；${rule.zh}。${split.zh}${r.zh}即使没有故障，每次更新也要付出一轮复制的往返——${pacelc}。`,
  );
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
