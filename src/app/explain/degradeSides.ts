import type { NodeState } from '../../engine/index/runState';
import type { NodeFacts } from '../../protocols/facts';
import { list, setOf } from '../words/text';
import { S, secs, type Sentence } from './common';
import type { ExplainState } from './state';

/**
 * The sides of a degrade run as its workers in eventual mode see them: each worker keeps the side it
 * counted when it switched (whom it had heard within detectTimeoutMs) until it hears every worker
 * again. Judged against the run at that moment, a side is the network's, a detector's lagging view,
 * a side the network split later, or the view of a worker that switched as it resumed from a pause.
 */

type DegradeFacts = Extract<NodeFacts, { kind: 'degrade-worker' }>;

export function facts(n: NodeState): DegradeFacts | null {
  return n.facts?.kind === 'degrade-worker' ? n.facts : null;
}

/** The sides the workers in eventual mode keep (their facts), each judged (Side.view). */
export function sidesOf(st: ExplainState, eventual: readonly NodeState[], episodeFault: boolean): Side[] {
  const sides = new Map<string, Side>();
  for (const w of eventual) {
    const f = facts(w)!;
    const ids = f.side ?? [w.id];
    const key = ids.join(',');
    const since = st.lastNote('partitionDetected', (n) => n.node === w.id)?.t ?? st.t;
    const known = sides.get(key);
    if (known) {
      known.holders.push(w.id);
      known.since = Math.max(known.since, since);
    } else sides.set(key, { ids, majority: f.majoritySide === true, epoch: f.epoch, holders: [w.id], since, dead: [], view: null, cut: false });
  }
  // Whether the network at `at` splits a side: its workers in different groups of the partition,
  // or a link from one of them to a holder cut (the holder cannot hear it).
  const splitAt = (side: Side, at: number): boolean => {
    const groups = st.partitionAt(at);
    const groupOf = (id: string): number => (groups ? Math.max(0, groups.findIndex((g) => g.includes(id))) : 0);
    const cut = new Set(st.cutsAt(at).map(([a, b]) => `${a}>${b}`));
    return new Set(side.ids.map(groupOf)).size > 1 || side.holders.some((h) => side.ids.some((m) => m !== h && cut.has(`${m}>${h}`)));
  };
  // A side split by the network when its holders counted it was a lagging view then; one split
  // only since (a later partition) was right when counted (seed 83 of the exploration called the
  // side {w2, w3}, counted at 7.65 s under the partition it matched, a view that lagged at 19.4 s).
  // A worker it counts that was down when counted (seed 84: w0, w1 switched 556 ms after w2 crashed
  // and counted it; "with one-way or non-transitive cuts" was said of a run with no cut at all).
  for (const side of sides.values()) {
    side.cut = splitAt(side, side.since);
    side.dead = side.ids.flatMap((m): Side['dead'] => (side.holders.includes(m) ? [] : st.downAt(m, side.since) ? [{ id: m, how: 'crash' }] : st.pausedAt(m, side.since) ? [{ id: m, how: 'pause' }] : []));
    if (side.cut || side.dead.length > 0) side.view = 'lagging';
    else if (splitAt(side, st.t)) side.view = 'outdated';
    // Seed 441: w4, paused 1.48-2.97 s, switched as it resumed, with everyone's queued messages heard.
    else if (side.holders.every((h) => st.pausedAt(h, side.since - 1))) side.view = 'resumed';
    else side.view = episodeFault && st.workers.every((w) => side.ids.includes(w.id)) ? 'hearsAll' : null;
  }
  return [...sides.values()];
}

export interface Side {
  ids: string[];
  majority: boolean;
  epoch: number;
  /** The workers that see this side. */
  holders: string[];
  /** When its holders switched to eventual mode and counted it (the newest of them). */
  since: number;
  /** Workers it counts that were down or paused then (stopped within detectTimeoutMs before the switch). */
  dead: Array<{ id: string; how: 'crash' | 'pause' }>;
  /**
   * Not the network's sides: `lagging`, it counts a worker that could no longer reach its holders
   * when they counted it (a view its detector took soon after the cut); `outdated`, right when
   * counted, but the network has split it since (a side is kept until every worker is heard again);
   * `resumed`, counted by holders as they resumed from a pause, every worker whose messages waited
   * in their queue counted as heard; `hearsAll`, every worker, heard by holders whom a one-way cut silences no one to. Null: a side
   * as the network draws it.
   */
  view: 'lagging' | 'outdated' | 'resumed' | 'hearsAll' | null;
  /** Lagging because the network split it when counted (not only a crashed worker in it). */
  cut: boolean;
}

/**
 * A detector counts as its side every worker it heard within detectTimeoutMs, so one that switches
 * soon after the cut still counts workers across it ("Every worker is on one side" was said under a
 * partition at 1 s, and "with one-way or non-transitive cuts" of a clean two-way one).
 */
export function viewS(sides: Side[], detectMs: number, pauseTold: ReadonlySet<string> = new Set()): Sentence {
  const v = sides.find((x) => x.view === 'lagging') ?? sides.find((x) => x.view !== null);
  if (!v) return S('', '');
  const one = v.holders.length === 1;
  // Several holders switch a few ms apart: "by" the newest of them.
  const when = S(`${one ? 'at' : 'by'} ${secs(v.since)} s`, one ? `在 ${secs(v.since)} 秒` : `截至 ${secs(v.since)} 秒`);
  if (v.view === 'outdated') {
    const all = v.holders.length === v.ids.length;
    return S(
      ` ${setOf(v.ids)} is the side ${all ? 'its workers' : list(v.holders, 'en')} counted when ${one ? 'it' : 'they'} switched ${when.en}; the network has split it since, and a worker in eventual mode keeps its side until it hears every worker again.`,
      `${setOf(v.ids)} 是${all ? '其中的工作节点' : ` ${list(v.holders, 'zh')} `}${when.zh}切换时算出的一侧；此后网络又把它分开了，而处于最终一致模式的工作节点会一直沿用这一侧，直到重新听到所有工作节点。`,
    );
  }
  if (v.view === 'lagging' && v.dead.length > 0 && !v.cut) {
    // Heard less than detectMs before the switch, so crashed less than detectMs before it too.
    const d = v.dead.length === 1;
    const ids = v.dead.map((x) => x.id);
    const hows = new Set(v.dead.map((x) => x.how));
    const how = hows.size > 1 ? S(d ? 'its crash or pause' : 'their crashes or pauses', '崩溃或暂停') : hows.has('pause') ? S(d ? 'its pause' : 'their pauses', '暂停') : S(d ? 'its crash' : 'their crashes', '崩溃');
    const what = hows.size > 1 ? S('a crash or a pause', '崩溃或暂停') : hows.has('pause') ? S('a pause', '暂停') : S('a crash', '崩溃');
    return S(
      ` ${setOf(v.ids)} is the view of ${list(v.holders, 'en')}: ${one ? 'it' : 'they'} switched ${when.en}, still counting ${list(ids, 'en')} as heard (within ${detectMs} ms of ${how.en}) — a failure detector's view lags behind ${what.en} too.`,
      `${setOf(v.ids)} 是 ${list(v.holders, 'zh')} 的视角：${one ? '它' : '它们'}${when.zh}切换时，仍把 ${list(ids, 'zh')} 算作“听得到”（距其${how.zh}不到 ${detectMs} ms）——故障检测器的视角同样落后于${what.zh}。`,
    );
  }
  if (v.view === 'resumed') {
    // Where the caption's false-alarm sentence already gave the pause and the stalled ring: not twice.
    const told = v.holders.every((h) => pauseTold.has(h));
    return S(
      ` ${setOf(v.ids)} is the view of ${list(v.holders, 'en')}: ${told ? '' : `paused until ${secs(v.since)} s, `}${one ? 'it' : 'they'} switched on resuming${told ? ',' : ` — the ring had stalled for longer than ${detectMs} ms —`} and counted as heard every worker whose messages had waited in ${one ? 'its' : 'their'} queue.`,
      `${setOf(v.ids)} 是 ${list(v.holders, 'zh')} 的视角：${one ? '它' : '它们'}${told ? '' : `暂停到 ${secs(v.since)} 秒，`}一恢复就切换了${told ? '' : `（环已停滞超过 ${detectMs} ms）`}，并把消息在${one ? '它' : '它们'}的队列里等着的工作节点都算作“听得到”。`,
    );
  }
  if (v.view === 'hearsAll')
    return S(
      ` ${setOf(v.ids)}, every worker, is the view of ${list(v.holders, 'en')}: ${one ? 'it hears' : 'they hear'} each of them, for the cut stops messages one way only — the ring stalls, yet no one falls silent to ${one ? 'it' : 'them'}.`,
      `${setOf(v.ids)}（所有工作节点）是 ${list(v.holders, 'zh')} 的视角：${one ? '它' : '它们'}听得到每一个节点，因为切断只挡住了单向的消息——环路停住了，却没有谁对${one ? '它' : '它们'}沉默。`,
    );
  return S(
    ` ${setOf(v.ids)} is the view of ${list(v.holders, 'en')}: ${one ? 'its detector' : 'their detectors'} switched ${when.en}, soon after the cut, while workers across it were still within the ${detectMs} ms ${one ? 'it counts' : 'they count'} as heard — a failure detector's view lags the network.`,
    `${setOf(v.ids)} 是 ${list(v.holders, 'zh')} 的视角：${one ? '它' : '它们'}的故障检测器${when.zh}、切断后不久就切换了，那时切断另一侧的节点仍在${one ? '它' : '它们'}视作“听得到”的 ${detectMs} ms 之内——故障检测器的视角总是落后于网络。`,
  );
}

/**
 * Epochs each side takes from its own failure detector (no coordination service): what they
 * cannot promise — under one-way or non-transitive cuts two sides can both believe they hold the
 * majority and take the same epoch, and the store cannot tell their writes apart.
 */
export function detectorEpochs(majors: Side[], storeS: Sentence): Sentence {
  const stale = majors.some((m) => m.view === 'lagging' || m.view === 'outdated' || m.view === 'resumed');
  if (majors.length > 1)
    return S(
      ` ${majors.length} sides each believe they hold a majority (${majors.map((m) => setOf(m.ids)).join(' and ')}): ${stale ? 'the detectors disagree' : 'with one-way or non-transitive cuts the detectors disagree'}, and epochs each side takes for itself can collide — an epoch is a fencing token only if one authority grants it once.`,
      `有 ${majors.length} 侧都认为自己是多数派（${majors.map((m) => setOf(m.ids)).join(' 与 ')}）：${stale ? '各侧的故障检测器看法不一' : '单向或不可传递的切断让各侧的故障检测器看法不一'}，各自拿到的纪元号可能相撞——纪元号只有由一个权威只发一次时，才算得上防护令牌。`,
    );
  if (majors.length === 1 && majors[0].view !== null) {
    const m = majors[0];
    const one = m.holders.length === 1;
    // Named once when the holders are the side itself ("Only {w0, w1, w2} believe they hold…").
    const whole = m.holders.length === m.ids.length;
    const who = whole ? { en: setOf(m.ids), zh: setOf(m.ids) } : { en: list(m.holders, 'en'), zh: list(m.holders, 'zh') };
    const side = whole ? { en: '', zh: '' } : { en: ` — the side ${setOf(m.ids)} —`, zh: ` ${setOf(m.ids)}` };
    return S(
      ` Only ${who.en} ${one ? 'believes it holds' : 'believe they hold'} a majority${side.en} and took epoch ${m.epoch} to write the checkpoint; the others' writes carry the old epoch${storeS.en}. That epoch comes from a failure detector, not from one authority, so it cannot promise a single writer.`,
      `只有 ${who.zh} 认为自己是多数派${side.zh}，取了纪元号 ${m.epoch} 来写检查点；其他节点的写入带着旧的纪元号${storeS.zh}。这个纪元号来自故障检测器，而不是一个统一的权威，所以它不能保证只有一个写入者。`,
    );
  }
  if (majors.length === 1)
    return S(
      ` Only the majority side ${setOf(majors[0].ids)} (epoch ${majors[0].epoch}) may take a new epoch and write the checkpoint; the minority's writes carry the old epoch${storeS.en}. That epoch comes from the side's own failure detector, not from one authority, so it cannot promise a single writer: under one-way or non-transitive cuts two sides can both believe they hold the majority and take the same epoch.`,
      `只有多数派一侧 ${setOf(majors[0].ids)}（纪元号 ${majors[0].epoch}）可以取新的纪元号并写检查点；少数派的写入带着旧的纪元号${storeS.zh}。这个纪元号来自这一侧自己的故障检测器，而不是一个统一的权威，所以它不能保证只有一个写入者：单向或不可传递的切断下，两侧可能都认为自己是多数派，取到同一个纪元号。`,
    );
  return S(' No side holds a majority, so neither may take a new epoch.', '哪一侧都不是多数派，所以谁都不能取新的纪元号。');
}
