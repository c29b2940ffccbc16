import type { NodeState } from '../../engine/index/runState';
import type { NodeFacts } from '../../protocols/facts';
import { list, majority, setOf, tolerance } from '../words/text';
import { blockedAvailability, minoritySide, S, type Sentence } from './common';
import { deposedBefore, deposedWhy, leaderlessWhy, minorityBallots } from './rejoin';
import type { ExplainState } from './state';

/**
 * Multi-Paxos-replicated parameter server (TRUTHS: a value is chosen when a majority of acceptors
 * accepts it; any two majorities intersect; 2f + 1 acceptors tolerate f crashes; needing every
 * participant is two-phase commit). A distinguished proposer runs phase 1 once per leadership and
 * phase 2 per update; a new leader re-proposes values accepted under earlier ballots.
 */

type PaxosFacts = Extract<NodeFacts, { kind: 'paxos-server' }>;

function servers(st: ExplainState): Array<{ n: NodeState; f: PaxosFacts }> {
  return st.servers.flatMap((n) => (n.facts?.kind === 'paxos-server' ? [{ n, f: n.facts }] : []));
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function paxos(st: ExplainState): Sentence {
  const all = servers(st);
  const n = all.length;
  const need = majority(n);
  const live = all.filter((x) => x.n.up);
  const crashed = all.filter((x) => !x.n.up).map((x) => x.n.id);
  const leader = live.filter((x) => x.f.role === 'leader').sort((a, b) => (b.f.ballot ?? 0) - (a.f.ballot ?? 0))[0] ?? null;
  const candidate = live.find((x) => x.f.role === 'candidate') ?? null;
  const pacelc = st.cap?.pacelc ?? 'PC/EC';
  const a = blockedAvailability(st.availability);
  if (!st.started)
    return S(
      `Multi-Paxos-replicated parameter server: ${n} servers; a distinguished proposer (the leader) runs phase 1 once per leadership, then phase 2 for every update. A value is chosen once a majority of acceptors (${need} of ${n}) accepts it, and any two majorities share an acceptor, so ${tolerance(n, 'en')}. Press ▶ to start.`,
      `Multi-Paxos 复制的参数服务器：${n} 台服务器；一个特定的提议者（领导者）每届领导只做一次第一阶段，之后每次更新做一次第二阶段。一个值被多数派接受者（${n} 台中的 ${need} 台）接受即被选定，任意两个多数派必有一个共同的接受者，所以 ${tolerance(n, 'zh')}。按 ▶ 开始。`,
    );
  if (live.length < need)
    return S(
      `Only ${live.length} of ${n} servers are up — fewer than a majority (${need}): no value can be chosen, so every update waits (${a.en}). Paxos stops rather than risk two histories: it keeps consistency and gives up A (PC).`,
      `${n} 台服务器中只有 ${live.length} 台在运行，不足多数派（${need} 台）：没有值能被选定，所有更新都在等待（${a.zh}）。Paxos 宁可停下，也不冒出现两份历史的风险：保住一致性，放弃 A（PC）。`,
    );
  if (st.partition) {
    const sides = st.partition.map((g) => live.filter((x) => g.includes(x.n.id)));
    const major = sides.find((g) => g.length >= need) ?? null;
    if (!major)
      return S(
        `Network partition: no side holds a majority of the ${n} acceptors (${need} needed), so no value is chosen anywhere — consistency kept, A lost until the partition heals.`,
        `网络分区：没有任何一侧拥有 ${n} 个接受者中的多数派（需要 ${need} 个），所以哪里都选定不了值——保住一致性，在网络分区恢复之前放弃 A。`,
      );
    // What each side holds, as Raft's sentence says it (minoritySide): the majority chooses once it
    // has a leader there ("keep choosing" was said of a majority that had lost its leader); the other
    // side's servers and workers, whichever it has ("so its workers wait" of a side with none).
    const group = st.partition.find((g) => g.includes(major[0].n.id)) ?? [];
    const otherServers = live.filter((x) => !group.includes(x.n.id)).map((x) => x.n.id);
    const otherWorkers = st.workers.filter((w) => w.up && !group.includes(w.id)).map((w) => w.id);
    const leads = leader !== null && group.includes(leader.n.id);
    const doing = leads
      ? S(`keep choosing values under leader ${leader.n.id}`, `在领导者 ${leader.n.id} 之下继续选定值`)
      : S('choose nothing until one of them leads (phase 1)', '在其中一台成为领导者（第一阶段）之前什么都选定不了');
    const other = minoritySide(otherServers, otherWorkers, { en: ['chooses nothing', 'choose nothing'], zh: '什么都选定不了' }, S('consistency kept', '保住了一致性'));
    const cutOff = live.filter((x) => !group.includes(x.n.id) && x.f.role !== 'leader').map((x) => ({ id: x.n.id, ballot: x.f.ballot ?? x.f.promised }));
    const ballots = leads ? minorityBallots(cutOff, { id: leader.n.id, ballot: leader.f.ballot ?? leader.f.promised }) : S('', '');
    return S(
      `Network partition: ${setOf(major.map((x) => x.n.id))} hold a majority (${major.length} of ${n}) and ${doing.en}.${other.en}${ballots.en}`,
      `网络分区：${setOf(major.map((x) => x.n.id))} 是多数派（${n} 台中的 ${major.length} 台），${doing.zh}。${other.zh}${ballots.zh}`,
    );
  }
  if (!leader) {
    // A leader that stepped down for a rejoining server's ballot, with no leader elected since.
    const why = leaderlessWhy(st, 'paxos');
    if (candidate)
      return S(
        `${why.en}Phase 1: ${candidate.n.id} runs ballot ${candidate.f.ballot ?? '?'} and holds ${candidate.f.promises ?? 1} of the ${candidate.f.need ?? need} promises it needs. Until a majority has promised, nothing is proposed and updates wait — consistency kept, A paused.`,
        `${why.zh}第一阶段：${candidate.n.id} 以提案编号 ${candidate.f.ballot ?? '?'} 征求承诺，已得 ${candidate.f.promises ?? 1} 个，需要 ${candidate.f.need ?? need} 个。在多数派承诺之前什么都不提议，更新只能等待——保住一致性，A 暂时中断。`,
      );
    return S(
      `${why.en}No leader${crashed.length ? `: ${list(crashed, 'en')} crashed` : ''}. A server whose election timeout expires without hearing a leader starts phase 1 with a higher ballot; meanwhile no value is chosen — consistency kept, A paused.`,
      `${why.zh}没有领导者${crashed.length ? `：${list(crashed, 'zh')} 已崩溃` : ''}。选举超时内没有收到领导者消息的服务器会用更高的提案编号开始第一阶段；在此期间没有值被选定——保住一致性，A 暂时中断。`,
    );
  }
  const ballot = leader.f.ballot ?? leader.f.promised;
  const rec = st.recent['paxos.recovered'];
  // Elected after a leader a rejoining server's ballot deposed (since the election before this one).
  const deposed = rec ? deposedBefore(st, 'paxos', rec.t) : null;
  const why = deposed ? S(` Why a new leader: ${deposedWhy(deposed, 'paxos').en}`, `为什么换了领导者：${deposedWhy(deposed, 'paxos').zh}`) : S('', '');
  if (rec && rec.node === leader.n.id && rec.what === 'paxos.recovered' && rec.data.recovered + rec.data.noops === 0)
    return S(
      `${leader.n.id} leads with ballot ${ballot}: a majority promised it, and none of them had accepted a value it does not know, so it proposes new updates at once.${why.en}`,
      `${leader.n.id} 以提案编号 ${ballot} 成为领导者：多数派已向它承诺，且其中没有它不知道的已接受值，所以它立即提议新的更新。${why.zh}`,
    );
  if (rec && rec.node === leader.n.id && rec.what === 'paxos.recovered') {
    // Each part only where there is some ("re-proposed 1 of them and filled 0 gaps").
    const { recovered, noops } = rec.data;
    const parts = [
      ...(recovered > 0 ? [S(`re-proposed ${recovered} of them`, `重新提议了其中 ${recovered} 个`)] : []),
      ...(noops > 0 ? [S(`filled ${noops} ${noops === 1 ? 'gap' : 'gaps'} with no-ops`, `用空操作填补了 ${noops} 个空位`)] : []),
    ];
    const did = S(parts.map((x) => x.en).join(' and '), parts.map((x) => x.zh).join('，并'));
    return S(
      `${leader.n.id} leads with ballot ${ballot}: phase 1 told it which values a majority had accepted, and it ${did.en} before anything new — a value that may have been chosen is never replaced.${why.en}`,
      `${leader.n.id} 以提案编号 ${ballot} 成为领导者：第一阶段让它知道多数派已接受了哪些值，它在提议新值之前先${did.zh}——可能已被选定的值永远不会被替换。${why.zh}`,
    );
  }
  if (crashed.length > 0)
    return S(
      `${list(crashed, 'en')} crashed, but ${live.length} of ${n} acceptors are still a majority: leader ${leader.n.id} (ballot ${ballot}) keeps getting values chosen. ${capital(tolerance(n, 'en'))}. Needing every server would be two-phase commit, not Paxos.`,
      `${list(crashed, 'zh')} 已崩溃，但 ${n} 个接受者中的 ${live.length} 个仍是多数派：领导者 ${leader.n.id}（提案编号 ${ballot}）继续让值被选定。${tolerance(n, 'zh')}。需要所有服务器的是两阶段提交，而不是 Paxos。`,
    );
  return S(
    `Leader ${leader.n.id} (ballot ${ballot}) proposes every update in phase 2; a value is chosen once a majority (${need} of ${n}) of acceptors accepts it, and every server applies the chosen slots in order, so all workers see one linearizable history (C). Each update pays a majority round trip even without a fault — ${pacelc}.`,
    `领导者 ${leader.n.id}（提案编号 ${ballot}）在第二阶段提议每次更新；一个值被多数派接受者（${n} 个中的 ${need} 个）接受即被选定，每台服务器按顺序应用已选定的槽位，因此所有工作节点看到的是同一个线性一致的历史（C）。即使没有故障，每次更新也要付出一次多数派往返——${pacelc}。`,
  );
}
