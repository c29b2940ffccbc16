import type { NoteEvent } from '../../engine/index/runIndex';
import type { NodeId } from '../../sim/types';
import { S, secs, type Sentence } from './common';
import type { ExplainState } from './state';

/**
 * A server cut off from the leader keeps timing out and standing for election. Without PreVote
 * (Raft thesis §9.6) each try raises its term, and once it can reach the leader again that higher
 * term makes the leader step down and the servers elect again although nothing failed; this
 * Multi-Paxos does the same with ballots. The captions told that election as if a timer or a crash
 * had caused it ("the pause in commits was about one election timeout") and the heal as "servers
 * that were cut off see the higher term 1".
 */

function termOf(n: NoteEvent): number | null {
  return 'term' in n.data && typeof n.data.term === 'number' ? n.data.term : null;
}

/** A leader that stepped down on seeing a term another server raised while cut off from it. */
export interface Deposed {
  leader: NodeId;
  leaderTerm: number;
  by: NodeId;
  term: number;
  at: number;
  /**
   * The server whose message brought the term (Raft) or ballot (Paxos) back, where it is not `by`:
   * cut off beside `by`, it took the term from `by`'s vote requests (promised `by`'s ballots) and
   * reached the leader while `by` stayed cut off.
   */
  carrier?: NodeId;
}

/**
 * The newest step-down at or before `before` that a rejoining server caused (null: none). The note
 * names the server whose message showed the leader the higher term or ballot (`from`) and that term
 * or ballot. The rival is the newest candidacy at it by a server cut off from the leader: `from`
 * itself, or a server `from` stood beside, cut off with it (exploration seed 815: s2 stood for term
 * 11 with s4 beside it; s4 rejoined s1 at 3.82 s while s2 stayed cut off, and the caption said s2
 * had reached s1).
 */
export function deposedByRejoin(st: ExplainState, protocol: 'raft' | 'paxos', before = st.t): Deposed | null {
  const down = st.lastNote('leaderStepDown', (n) => n.t <= before);
  if (!down?.node) return null;
  const leader = down.node;
  const from = 'from' in down.data && typeof down.data.from === 'string' ? down.data.from : null;
  if (from === null) return null; // CheckQuorum: no one's term deposed it
  // The election that made it leader, with no other leader elected between it and the step-down.
  const won = st.lastNote('leaderElected', (n) => n.t <= down.t);
  const leaderTerm = won ? termOf(won) : null;
  if (!won || won.node !== leader || leaderTerm === null) return null;
  const seen = protocol === 'raft' ? termOf(down) : 'seen' in down.data && typeof down.data.seen === 'number' ? down.data.seen : null;
  if (seen === null || seen <= leaderTerm) return null;
  const apart = (t: number, a: NodeId, b: NodeId): boolean => st.netFaultDuring(t, t, [a, b]);
  // A candidacy at the term or ballot seen, while cut off from the leader.
  const stood = (n: NoteEvent): boolean => {
    const term = termOf(n);
    return n.t <= down.t && n.node !== undefined && n.node !== leader && term === seen && apart(n.t, n.node, leader);
  };
  const own = st.lastNote('electionStarted', (n) => stood(n) && n.node === from);
  const rival = own ?? st.lastNote('electionStarted', (n) => stood(n) && !apart(n.t, n.node!, from) && apart(n.t, from, leader));
  const term = rival ? termOf(rival) : null;
  if (!rival?.node || term === null) return null;
  const by = rival.node;
  // No one won that term: a term a majority elected someone in is a real election's, not one a
  // cut-off server raised alone.
  if (st.lastNote('leaderElected', (n) => n.t <= down.t && termOf(n) === term)) return null;
  return { leader, leaderTerm, by, term, at: down.t, ...(by !== from ? { carrier: from } : {}) };
}

/**
 * The rejoining server's step-down that led to the election at `electedAt` (none given: to the
 * leaderless state at t), with no leader elected between the two; null where there is none.
 */
export function deposedBefore(st: ExplainState, protocol: 'raft' | 'paxos', electedAt?: number): Deposed | null {
  const d = deposedByRejoin(st, protocol, electedAt ?? st.t);
  if (!d) return null;
  return st.lastNote('leaderElected', (n) => n.t > d.at && (electedAt === undefined || n.t < electedAt)) ? null : d;
}

/** While no one leads after such a step-down: why, as the lead of the caption (empty otherwise). */
export function leaderlessWhy(st: ExplainState, protocol: 'raft' | 'paxos'): Sentence {
  const d = deposedBefore(st, protocol);
  if (!d) return S('', '');
  const why = deposedWhy(d, protocol);
  return S(`${why.en} `, why.zh);
}

/** Why the servers are electing (or elected) again: a step-down the rejoining server caused. */
export function deposedWhy(d: Deposed, protocol: 'raft' | 'paxos'): Sentence {
  if (protocol === 'paxos' && d.carrier)
    return S(
      `${d.by}, cut off from leader ${d.leader} with ${d.carrier}, kept timing out and starting phase 1 with ever higher ballots that no majority answered (${d.term} by then); ${d.carrier} promised them, and once ${d.carrier} could reach ${d.leader} again, ${d.leader} (ballot ${d.leaderTerm}) saw the higher ballot in ${d.carrier}'s answer and stepped down at ${secs(d.at)} s, though it had not failed. Acceptors here promise any higher ballot: this Multi-Paxos has no leader lease or pre-vote check to stop a server that was cut off from deposing the leader.`,
      `${d.by} 与 ${d.carrier} 一起和领导者 ${d.leader} 隔开后不断超时，用越来越高的提案编号开始第一阶段，却没有多数派回应（那时已到 ${d.term}）；${d.carrier} 对这些提案编号作了承诺，等 ${d.carrier} 重新连上 ${d.leader}，${d.leader}（提案编号 ${d.leaderTerm}）在 ${d.carrier} 的回复里看到更高的提案编号，于 ${secs(d.at)} 秒下台，尽管它并没有出故障。这里的接受者对任何更高的提案编号都会承诺：这个 Multi-Paxos 没有领导者租约或预投票检查，挡不住被隔开过的服务器罢黜领导者。`,
    );
  if (protocol === 'paxos')
    return S(
      `${d.by}, cut off from leader ${d.leader}, kept timing out and starting phase 1 with ever higher ballots that no majority answered (${d.term} by then); once the two could talk again, ${d.leader} (ballot ${d.leaderTerm}) saw that higher ballot and stepped down at ${secs(d.at)} s, though it had not failed. Acceptors here promise any higher ballot: this Multi-Paxos has no leader lease or pre-vote check to stop a server that was cut off from deposing the leader.`,
      `${d.by} 与领导者 ${d.leader} 隔开后不断超时，用越来越高的提案编号开始第一阶段，却没有多数派回应（那时已到 ${d.term}）；两者重新连通后，${d.leader}（提案编号 ${d.leaderTerm}）看到这个更高的提案编号，于 ${secs(d.at)} 秒下台，尽管它并没有出故障。这里的接受者对任何更高的提案编号都会承诺：这个 Multi-Paxos 没有领导者租约或预投票检查，挡不住被隔开过的服务器罢黜领导者。`,
    );
  if (d.carrier)
    return S(
      `${d.by}, cut off from leader ${d.leader} with ${d.carrier}, kept timing out and standing for election with no majority to answer, and reached term ${d.term}; ${d.carrier} took that term from its vote requests, and once ${d.carrier} could reach ${d.leader} again, ${d.leader} (term ${d.leaderTerm}) saw that higher term and stepped down at ${secs(d.at)} s. The leader had not failed: this Raft runs without PreVote (thesis §9.6), which would have kept ${d.by}'s term from rising while it was cut off.`,
      `${d.by} 与 ${d.carrier} 一起和领导者 ${d.leader} 隔开后不断超时、发起选举，却没有多数派回应，任期一路升到 ${d.term}；${d.carrier} 从它的投票请求中得到了这个任期，等 ${d.carrier} 重新连上 ${d.leader}，${d.leader}（任期 ${d.leaderTerm}）看到这个更高的任期，于 ${secs(d.at)} 秒下台。领导者并没有出故障：这个 Raft 没有开启 PreVote（论文 §9.6），否则 ${d.by} 被隔开时任期不会上升。`,
    );
  return S(
    `${d.by}, cut off from leader ${d.leader}, kept timing out and standing for election with no majority to answer, and reached term ${d.term}; once it could reach ${d.leader} again, ${d.leader} (term ${d.leaderTerm}) saw that higher term and stepped down at ${secs(d.at)} s. The leader had not failed: this Raft runs without PreVote (thesis §9.6), which would have kept ${d.by}'s term from rising while it was cut off.`,
    `${d.by} 与领导者 ${d.leader} 隔开后不断超时、发起选举，却没有多数派回应，任期一路升到 ${d.term}；等它重新连上 ${d.leader}，${d.leader}（任期 ${d.leaderTerm}）看到这个更高的任期，于 ${secs(d.at)} 秒下台。领导者并没有出故障：这个 Raft 没有开启 PreVote（论文 §9.6），否则 ${d.by} 被隔开时任期不会上升。`,
  );
}

/** Healed, before the leader has heard it: a server back with a term above the leader's. */
export function rejoinedAbove(by: { id: NodeId; term: number }, leader: { id: NodeId; term: number }): Sentence {
  return S(
    `Healed: ${by.id} rejoins with term ${by.term}, above leader ${leader.id}'s term ${leader.term}. Cut off, it kept timing out and standing for election, and without PreVote (thesis §9.6) each try raised its term by one. On seeing that term the leader steps down, and the servers elect again in a higher term although it has not failed.`,
    `已恢复：${by.id} 带着任期 ${by.term} 重新连上，高于领导者 ${leader.id} 的任期 ${leader.term}。被隔开期间它不断超时、发起选举，而没有 PreVote（论文 §9.6），每次尝试都让任期加一。领导者看到这个任期就会下台，服务器们要在更高的任期重新选举，尽管它并没有出故障。`,
  );
}

/**
 * During a partition: what the minority side's servers do to their terms. Without PreVote the
 * highest one is named with its term against the majority's; with PreVote, that terms stay put.
 */
export function minorityTerms(preVote: boolean, minority: ReadonlyArray<{ id: NodeId; term: number }>, majorTerm: number): Sentence {
  if (minority.length === 0) return S('', '');
  const top = minority.reduce((a, b) => (b.term > a.term ? b : a));
  if (!preVote) {
    if (top.term <= majorTerm) return S('', '');
    return S(
      ` Cut off, ${top.id} keeps timing out and standing for election with no majority to answer; without PreVote (thesis §9.6) each try raises its term — ${top.term} now, against the majority's ${majorTerm}. When the partition heals, that higher term will make the leader step down and the servers elect again.`,
      `被隔开的 ${top.id} 不断超时、发起选举，却没有多数派回应；没有 PreVote（论文 §9.6），每次尝试都让任期加一——现在是 ${top.term}，多数派一侧是 ${majorTerm}。网络分区恢复后，这个更高的任期会让领导者下台，服务器们重新选举。`,
    );
  }
  const one = minority.length === 1;
  const ids = minority.map((x) => x.id).join(', ');
  return S(
    ` With PreVote (thesis §9.6) ${ids} ${one ? 'asks' : 'ask'} whether a majority would vote before standing: none answers, so ${one ? 'its term stays' : 'their terms stay'} as ${one ? 'it was' : 'they were'}, and ${one ? 'it' : 'they'} will rejoin without deposing the leader.`,
    `开启了 PreVote（论文 §9.6），${ids} 在发起选举前先问多数派是否会投票：没有多数派回应，所以任期保持不变，重新连上时也不会罢黜领导者。`,
  );
}

/** Paxos during a partition: a server cut off from the leader, its ballot above the leader's. */
export function minorityBallots(minority: ReadonlyArray<{ id: NodeId; ballot: number }>, leader: { id: NodeId; ballot: number }): Sentence {
  const top = minority.reduce<{ id: NodeId; ballot: number } | null>((a, b) => (a === null || b.ballot > a.ballot ? b : a), null);
  if (!top || top.ballot <= leader.ballot) return S('', '');
  return S(
    ` Cut off, ${top.id} keeps timing out and starting phase 1 with ever higher ballots — ${top.ballot} now, against leader ${leader.id}'s ${leader.ballot} — that no majority answers. When the partition heals, the leader will see that higher ballot and step down: this Multi-Paxos has no leader lease or pre-vote check to stop it.`,
    `被隔开的 ${top.id} 不断超时，用越来越高的提案编号开始第一阶段——现在是 ${top.ballot}，领导者 ${leader.id} 的是 ${leader.ballot}——却没有多数派回应。网络分区恢复后，领导者会看到这个更高的提案编号并下台：这个 Multi-Paxos 没有领导者租约或预投票检查来阻止它。`,
  );
}
