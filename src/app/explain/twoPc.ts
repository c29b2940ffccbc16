import type { NodeState } from '../../engine/index/runState';
import type { NodeFacts } from '../../protocols/facts';
import { list } from '../words/text';
import { blockedAvailability, S, type Sentence } from './common';
import type { ExplainState } from './state';

/**
 * Two-phase-commit-replicated parameter server (TRUTHS: needing every participant is two-phase
 * commit, which blocks when one participant fails; a prepared participant whose coordinator is
 * down is in doubt and can decide nothing alone). It keeps every replica identical (C) and pays
 * two rounds to every participant per update (PC/EC) — and loses A to a single crash.
 */

type TwoPcFacts = Extract<NodeFacts, { kind: '2pc-server' }>;

function servers(st: ExplainState): Array<{ n: NodeState; f: TwoPcFacts }> {
  return st.servers.flatMap((n) => (n.facts?.kind === '2pc-server' ? [{ n, f: n.facts }] : []));
}

export function twoPc(st: ExplainState): Sentence {
  const all = servers(st);
  const n = all.length;
  const coordId = st.cfg.kind === '2pc-ps' ? st.cfg.coordinator : 's0';
  const coord = all.find((x) => x.n.id === coordId) ?? null;
  const down = all.filter((x) => !x.n.up).map((x) => x.n.id);
  const inDoubt = all.filter((x) => x.n.up && x.f.prepared !== null && x.f.blocked).map((x) => x.n.id);
  const pacelc = st.cap?.pacelc ?? 'PC/EC';
  const a = blockedAvailability(st.availability);
  if (!st.started)
    return S(
      `Two-phase commit: coordinator ${coordId} sends PREPARE for each transaction to all ${n} participants and commits only if every one votes yes, writing the decision to its log before sending it. It needs every participant: one crash aborts every transaction, and a coordinator crash after PREPARE leaves prepared participants in doubt. Press ▶ to start.`,
      `两阶段提交：协调者 ${coordId} 为每个事务向全部 ${n} 个参与者发送 PREPARE，只有全体投赞成票才提交，并在发出决定之前先把它写进自己的日志。它需要每一个参与者：一台崩溃就让每个事务都中止，而协调者在 PREPARE 之后崩溃会让已准备的参与者陷入不确定状态。按 ▶ 开始。`,
    );
  if (inDoubt.length > 0 && (!coord || !coord.n.up))
    return S(
      `Coordinator ${coordId} is down after PREPARE: ${list(inDoubt, 'en')} voted yes and ${inDoubt.length === 1 ? 'is' : 'are'} in doubt — a participant can neither commit nor abort on its own, so ${inDoubt.length === 1 ? 'it blocks' : 'they block'} (${a.en}) until ${coordId} restarts and its log decides. This blocking is what a majority protocol such as Paxos avoids.`,
      `协调者 ${coordId} 在 PREPARE 之后宕机：${list(inDoubt, 'zh')} 已投赞成票，处于不确定状态——参与者不能自行提交或中止，只能阻塞（${a.zh}），直到 ${coordId} 重启、由它的日志做出决定。这种阻塞正是 Paxos 这类多数派协议所避免的。`,
    );
  if (coord && !coord.n.up)
    return S(
      `Coordinator ${coordId} is down: no transaction can begin, so every update waits (${a.en}) until it restarts and finishes, from its log, whatever it had begun.`,
      `协调者 ${coordId} 已宕机：没有事务能开始，所有更新都在等待（${a.zh}），直到它重启、根据日志收尾之前开始的事务。`,
    );
  if (down.length > 0)
    return S(
      `${list(down, 'en')} ${down.length === 1 ? 'is' : 'are'} down: every transaction misses ${down.length === 1 ? 'a vote' : 'votes'} and aborts on the vote timeout, so no update commits (${a.en}), although ${n - down.length} of ${n} servers are up. Two-phase commit needs every participant — a majority is not enough.`,
      `${list(down, 'zh')} 已宕机：每个事务都缺票，在投票超时后中止，所以没有更新能提交（${a.zh}），尽管 ${n} 台中仍有 ${n - down.length} 台在运行。两阶段提交需要每一个参与者——多数派不够。`,
    );
  // A cut or partition between the coordinator and a participant blocks 2PC as a crash does (the
  // run said "Coordinator s0 runs one transaction at a time …" throughout a partition, at availability 0).
  const apart = (id: string): boolean => st.brokenLinks.some((l) => (l.from === coordId && l.to === id) || (l.from === id && l.to === coordId));
  const cutOff = coord && coord.n.up ? all.filter((x) => x.n.id !== coordId && apart(x.n.id)).map((x) => x.n.id) : [];
  if (cutOff.length > 0) {
    const one = cutOff.length === 1;
    const doubt = inDoubt.filter((id) => cutOff.includes(id));
    const d1 = doubt.length === 1;
    const doubtS = doubt.length
      ? S(
          `; ${list(doubt, 'en')} voted yes and ${d1 ? 'is' : 'are'} in doubt: the decision cannot reach ${d1 ? 'it' : 'them'} across the cut, and ${d1 ? 'it' : 'they'} can neither commit nor abort alone`,
          `；${list(doubt, 'zh')} 已投赞成票，处于不确定状态：决定无法越过切断传到，也不能自行提交或中止`,
        )
      : S('', '');
    return S(
      `The network separates coordinator ${coordId} from ${list(cutOff, 'en')}: every transaction misses ${one ? 'its vote' : 'their votes'} and aborts on the vote timeout, so no update commits (${a.en}), although every server is up${doubtS.en}. Two-phase commit needs every participant; a majority protocol such as Paxos would keep going on the majority side.`,
      `网络把协调者 ${coordId} 与 ${list(cutOff, 'zh')} 隔开了：每个事务都缺少${one ? '它的' : '它们的'}投票，在投票超时后中止，所以没有更新能提交（${a.zh}），尽管所有服务器都在运行${doubtS.zh}。两阶段提交需要每一个参与者；Paxos 这类多数派协议在多数派一侧仍能继续。`,
    );
  }
  const resolved = st.recent['2pc.resolved'];
  if (resolved && resolved.what === '2pc.resolved' && st.recentlyHealed) {
    const learned = S(
      `${resolved.node ?? '?'} learned from ${resolved.data.from} that transaction ${resolved.data.tx} ${resolved.data.decision === 'commit' ? 'committed' : 'aborted'}`,
      `${resolved.node ?? '?'} 从 ${resolved.data.from} 得知事务 ${resolved.data.tx} ${resolved.data.decision === 'commit' ? '已提交' : '已中止'}`,
    );
    // The participants learn one by one: "the in-doubt participants are released" while two still waited.
    const then =
      inDoubt.length > 0
        ? S(
            `: it is released; ${list(inDoubt, 'en')} ${inDoubt.length === 1 ? 'is' : 'are'} still in doubt until the decision reaches ${inDoubt.length === 1 ? 'it' : 'them'}.`,
            `：它被释放了；${list(inDoubt, 'zh')} 仍处于不确定状态，直到决定传到。`,
          )
        : S(': the in-doubt participants are released and transactions flow again.', '：处于不确定状态的参与者被释放，事务恢复运行。');
    return S(`${learned.en}${then.en}`, `${learned.zh}${then.zh}`);
  }
  return S(
    `Coordinator ${coordId} runs one transaction at a time: PREPARE to all ${n} participants, commit once every one voted yes. Every replica applies the same updates in the same order, so the parameters' reads are linearizable (C); each update pays two rounds to every participant — ${pacelc} — and a single crash stops it.`,
    `协调者 ${coordId} 一次执行一个事务：向全部 ${n} 个参与者发送 PREPARE，全体赞成后提交。每个副本按同样的顺序应用同样的更新，所以参数的读取是线性一致的（C）；每次更新要与每个参与者往返两轮——${pacelc}——而且一台崩溃就会让它停下。`,
  );
}
