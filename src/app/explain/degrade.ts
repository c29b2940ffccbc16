import type { NodeState } from '../../engine/index/runState';
import { list, majority, mergeRuleName, num, setOf } from '../words/text';
import { S, secs, type Sentence } from './common';
import { detectorEpochs, facts, sidesOf, viewS, type Side } from './degradeSides';
import type { ExplainState } from './state';

/**
 * Degrade on partition, merge on heal (TRUTHS: the minority side can only train locally; on heal
 * a merge rule with a visible cost; split brain is prevented only by fencing; local SGD averages
 * workers equally — so sides by size — and equal weight per side gives each minority worker more
 * say; averaging dilutes work, it does not discard it; an epoch protects only if the store checks
 * it, and epochs each side takes from its own detector can collide under one-way cuts).
 */


/**
 * Whether a cut or partition lies behind the workers' latest switch to eventual mode: at any moment
 * from the detector's window before that detection until now. Without one the detector fired on
 * slowness (or a pause) — a false alarm — even if a partition had come and healed earlier.
 */
function episodeHadFault(st: ExplainState, detectMs: number): boolean {
  const detected = st.lastNote('partitionDetected');
  // Only faults between workers: a partition of the coordination servers leaves the ring whole.
  const workers = st.workers.map((w) => w.id);
  return detected === null ? st.lastRepair !== null && st.lastRepair.kind !== 'restart' : st.netFaultDuring(detected.t - detectMs, st.t, workers);
}

/**
 * The slow workers a false alarm took for a partition (empty: not a false alarm, or no slow worker
 * behind it). `episodeFault`: episodeHadFault, worked out once by the caller.
 */
function falseAlarmSlow(st: ExplainState, detectMs: number, episodeFault: boolean): string[] {
  const detected = st.lastNote('partitionDetected');
  if (detected === null || episodeFault) return [];
  const from = detected.t - detectMs;
  // A worker that crashed in the window (or is down) explains the stall without any slowness.
  if (st.workers.some((w) => !w.up || (st.crashedAt[w.id] ?? -Infinity) >= from)) return [];
  const workers = new Set(st.workers.map((w) => w.id));
  return st.slowDuring(from, detected.t).filter((id) => workers.has(id));
}

/**
 * Workers whose crash a detector took for a partition: down now, crashed before the newest switch,
 * and no cut between workers in the episode (a ring round needs every worker; from inside, a crashed
 * worker and a cut-off one look the same). Seed 84 of the exploration told the sides and no cause.
 */
function falseAlarmCrash(st: ExplainState, episodeFault: boolean): Array<{ id: string; at: number }> {
  const detected = st.lastNote('partitionDetected');
  if (detected === null || episodeFault) return [];
  return st.workers.filter((w) => !w.up && (st.crashedAt[w.id] ?? Infinity) <= detected.t).map((w) => ({ id: w.id, at: st.crashedAt[w.id] }));
}

/**
 * Workers whose pause a detector took for a partition (no crash explains it, no cut in the
 * episode): paused at some moment of the window before the newest switch. The ring needs every
 * worker, so it stalls for as long as one is paused (seed 441: w4 paused 1.48-2.97 s, no cause told).
 */
function falseAlarmPause(st: ExplainState, detectMs: number, episodeFault: boolean): Array<{ id: string; start: number; until: number }> {
  const detected = st.lastNote('partitionDetected');
  if (detected === null || episodeFault) return [];
  const workers = new Set(st.workers.map((w) => w.id));
  return st.pausesDuring(detected.t - detectMs, detected.t).filter((p) => workers.has(p.id));
}

/** "w4 was paused from 1.48 s to 2.97 s" (ended by t), or "w4 has been paused since 1.48 s". */
function pausedS(st: ExplainState, ps: ReadonlyArray<{ id: string; start: number; until: number }>): Sentence {
  const one = (p: { id: string; start: number; until: number }): Sentence =>
    p.until <= st.t
      ? S(`${p.id} was paused from ${secs(p.start)} s to ${secs(p.until)} s`, `${p.id} 在 ${secs(p.start)} 秒到 ${secs(p.until)} 秒之间暂停`)
      : S(`${p.id} has been paused since ${secs(p.start)} s`, `${p.id} 从 ${secs(p.start)} 秒起一直暂停`);
  const parts = ps.map(one);
  return S(parts.map((x) => x.en).join(', '), parts.map((x) => x.zh).join('，'));
}

/**
 * The merge rule and what it costs, for the running knobs. `oneSide`: the workers went eventual on
 * a false alarm (no cut), so every one of them is one side.
 */
function mergeCost(st: ExplainState, oneSide: boolean): Sentence {
  if (st.cfg.kind !== 'degrade') return S('', '');
  const cfg = st.cfg;
  // The merge's own count (its note), not the strip's sample: a sample from before the merge read
  // "thrown away (lost work 0)" beside a merge that threw 112 steps away.
  const note = st.recent.merge;
  const lostWork = note?.what === 'merge' && typeof note.data.lostWork === 'number' ? note.data.lostWork : null;
  switch (cfg.merge) {
    case 'discard':
      return lostWork === null
        ? S("discard: the minority side's local steps are thrown away", '丢弃：少数派一侧的本地训练步被扔掉')
        : S(`discard: the minority side's local steps are thrown away (lost work ${num(lostWork)})`, `丢弃：少数派一侧的本地训练步被扔掉（丢失的工作 ${num(lostWork)}）`);
    case 'average':
      // One side: the workers' own local models are averaged ("each side's work is diluted by the other's" had no other side).
      // Two sides or more (a one-way cut can leave three views): "the rest", not "the other's".
      if (oneSide)
        return S(
          "average of every worker's local model: no steps are discarded, but each worker's local steps are diluted by the others'",
          '对每个工作节点的本地模型取平均：没有训练步被丢弃，但每个节点的本地训练成果都被其他节点稀释了',
        );
      return cfg.averageWeights === 'equal'
        ? S(
            "average, each side weighted equally: a minority worker gets more say than a majority one (local SGD would weight every worker equally, so each side by its size). No side's steps are discarded, but in the average each side's work is diluted by the rest",
            '平均，两侧等权：少数派的每个节点比多数派的节点分量更重（本地 SGD 对每个节点等权，也就是按各侧节点数加权）。没有哪一侧的训练步被丢弃，但在平均中各侧的成果都被其余部分稀释了',
          )
        : S(
            "average, weighted by worker count — every worker counts once, as local SGD averages. No side's steps are discarded, but in the average each side's work is diluted by the rest",
            '平均，按节点数加权——每个节点计一次，与本地 SGD 的平均方式相同。没有哪一侧的训练步被丢弃，但在平均中各侧的成果都被其余部分稀释了',
          );
    case 'replay':
      return cfg.replayLr === 'inverse'
        ? S("replay: the minority's gradients are replayed on the merged model with the learning rate scaled by 1/staleness", '回放：少数派的梯度在合并后的模型上重放，学习率按 1/陈旧度 缩小')
        : S("replay: the minority's gradients are replayed on the merged model at the full learning rate (watch the loss spike)", '回放：少数派的梯度在合并后的模型上以完整学习率重放（留意损失的尖峰）');
  }
}

/** Epochs granted by the coordination service (create-if-absent on a majority-replicated key): once, to one side. */
function serviceEpochs(eventual: NodeState[], majors: Side[], storeS: Sentence): Sentence {
  const waiting = new Map<string, { ids: string[]; epoch: number; asked: number }>();
  for (const w of eventual) {
    const f = facts(w)!;
    if (f.epochPending === undefined || f.majoritySide) continue;
    const ids = f.side ?? [w.id];
    if (majors.some((m) => m.ids.join(',') === ids.join(','))) continue; // its side holds the epoch already (a side-mate's request)
    waiting.set(ids.join(','), { ids, epoch: f.epoch, asked: f.epochPending });
  }
  const pend = [...waiting.values()];
  const pendS = pend.length
    ? S(
        `; ${pend.map((p) => setOf(p.ids)).join(' and ')} asked for epoch ${pend[0].asked} too and ${pend.length === 1 ? 'waits' : 'wait'} for an answer (none comes to a side that cannot reach a majority of the service's servers), keeping epoch ${pend[0].epoch}: ${pend.length === 1 ? 'its' : 'their'} work is provisional`,
        `；${pend.map((p) => setOf(p.ids)).join(' 与 ')} 也申请了纪元号 ${pend[0].asked}，正在等待答复（连不到协调服务的多数派时永远等不到），只能保留纪元号 ${pend[0].epoch}：它的成果只是临时的`,
      )
    : S('', '');
  if (majors.length >= 1) {
    const m = majors[0];
    return S(
      ` The coordination service granted epoch ${m.epoch} to ${setOf(m.ids)}${pendS.en}. The service grants each epoch once, to one side, so no other side can hold epoch ${m.epoch}; writes carrying an older epoch are stale${storeS.en}.`,
      `协调服务把纪元号 ${m.epoch} 发给了 ${setOf(m.ids)}${pendS.zh}。协调服务每个纪元号只发一次、只发给一侧，所以没有别的一侧能持有纪元号 ${m.epoch}；带着更旧纪元号的写入都是过时的${storeS.zh}。`,
    );
  }
  if (pend.length)
    return S(
      ` ${pend.map((p) => setOf(p.ids)).join(' and ')} asked the coordination service for epoch ${pend[0].asked} and ${pend.length === 1 ? 'waits' : 'wait'} for its answer; until one side is granted it, every side's work is provisional.`,
      `${pend.map((p) => setOf(p.ids)).join(' 与 ')} 已向协调服务申请纪元号 ${pend[0].asked}，正在等待答复；在某一侧拿到它之前，每一侧的成果都只是临时的。`,
    );
  return S(' No side has been granted a new epoch by the coordination service.', '协调服务还没有把新的纪元号发给任何一侧。');
}

export function degrade(st: ExplainState): Sentence {
  if (st.cfg.kind !== 'degrade') return S('', '');
  const cfg = st.cfg;
  const pacelc = st.cap?.pacelc ?? 'PA/EC';
  const rule = mergeRuleName(cfg.merge, 'en');
  const ruleZh = mergeRuleName(cfg.merge, 'zh');
  const fenced = st.metrics.fencedWrites ?? 0;
  const staleAccepted = st.metrics.staleWritesAccepted ?? 0;
  const live = st.workers.filter((w) => w.up && facts(w) !== null);
  const eventual = live.filter((w) => facts(w)!.mode === 'eventual');
  const merging = live.filter((w) => facts(w)!.mode === 'merging').map((w) => w.id);
  if (!st.started)
    return S(
      `Degrade: strong (ring all-reduce, lockstep replicas) while healthy; when a worker detects a partition it switches to eventual mode and trains locally; on heal the sides merge by rule "${rule}". Press ▶ to start.`,
      `降级策略：正常时为强一致（环形全归约，副本锁步前进）；工作节点检测到网络分区后切换到最终一致模式，在本地训练；恢复后两侧按“${ruleZh}”规则合并。按 ▶ 开始。`,
    );
  if (staleAccepted > 0 && !cfg.fencing) {
    const one = staleAccepted === 1;
    const writes = S(
      one ? `a checkpoint write carrying an old epoch was accepted (stale writes accepted 1) and overwrote newer state` : `checkpoint writes carrying an old epoch were accepted (stale writes accepted ${staleAccepted}) and overwrote newer state`,
      `${one ? '一次' : ''}带着旧纪元号的检查点写入被接受（被接受的陈旧写入 ${staleAccepted}），覆盖了更新的状态`,
    );
    // Once the sides are one ring again the split brain is over; what it wrote stays (it said "Split brain:" at the run's end).
    const over = eventual.length === 0 && merging.length === 0 && !st.partition && !st.networkFault;
    return over
      ? S(
          `Healed: every worker is back in strong mode on one ring, but during the split brain, with fencing off, ${writes.en}. An epoch only protects the store if the store checks it.`,
          `已恢复：所有工作节点都回到同一个环上的强一致模式，但在脑裂期间，由于防护令牌（fencing token）检查被关闭，${writes.zh}。纪元号只有在存储端检查时才能起保护作用。`,
        )
      : S(
          `Split brain: fencing is off, so ${writes.en}. An epoch only protects the store if the store checks it.`,
          `脑裂：防护令牌（fencing token）检查被关闭，${writes.zh}。纪元号只有在存储端检查时才能起保护作用。`,
        );
  }
  const merged = st.recent.merge;
  if (merging.length > 0 || (merged && eventual.length === 0 && !st.partition)) {
    // After a false alarm (a slow worker, no cut) nothing healed: the workers hear each other again.
    const healed = episodeHadFault(st, cfg.detectTimeoutMs);
    const cost = mergeCost(st, !healed);
    const head = healed
      ? S(`Healed: the sides ${merging.length ? 'are merging' : 'merged'}`, `已恢复：两侧${merging.length ? '正在合并' : '已经合并'}`)
      : S(
          `No link between workers was cut, and every worker hears the others again: the replicas ${merging.length ? 'are merging' : 'merged'}`,
          `工作节点之间没有链路被切断过，每个工作节点又都能听到其他节点：副本${merging.length ? '正在合并' : '已经合并'}`,
        );
    return S(
      `${head.en} — ${cost.en}. Then the ring resumes in strong mode. Every merge rule has a visible cost.`,
      `${head.zh}——${cost.zh}。之后环路以强一致模式继续。每种合并规则都有看得见的代价。`,
    );
  }
  if (eventual.length > 0) {
    const episodeFault = episodeHadFault(st, cfg.detectTimeoutMs);
    const sides = sidesOf(st, eventual, episodeFault);
    const majors = sides.filter((x) => x.majority);
    const fromService = eventual.some((w) => facts(w)!.epochFrom === 'service');
    const fenceS =
      fenced > 0 && majors.length !== 1
        ? S(` The store refused writes carrying an old epoch (fenced writes ${fenced}).`, `存储拒绝了带着旧纪元号的写入（被拦截的写入 ${fenced}）。`)
        : S('', '');
    const storeS = cfg.fencing
      ? S(`, and the store refuses them (fenced writes ${fenced})`, `，存储会拒绝它们（被拦截的写入 ${fenced}）`)
      : S(', and without fencing the store accepts them', '，关闭防护后存储照样接受');
    // No cut at all: the detector took a slow worker for a partition, and every worker is one side
    // (it said "Only the majority side {w0–w5} … the minority's writes …", with no minority).
    // Only where nothing else explains it: no cut from the detection's window until now (after a
    // heal the workers stay eventual until they merge), no crashed worker, and a slow one then.
    const alarmSlow = falseAlarmSlow(st, cfg.detectTimeoutMs, episodeFault);
    const falseAlarm = alarmSlow.length > 0;
    // One side of every worker only where no cut explains the switch (under a partition, such a
    // side is a detector's lagging view: viewS).
    const oneSide = majors.length === 1 && live.every((w) => majors[0].ids.includes(w.id)) && !episodeFault;
    const epochS = oneSide
      ? S(
          ` Every worker is on one side, ${setOf(majors[0].ids)} (epoch ${majors[0].epoch}): there is no minority whose writes need fencing.`,
          `所有工作节点都在同一侧 ${setOf(majors[0].ids)}（纪元号 ${majors[0].epoch}）：没有需要拦截写入的少数派。`,
        )
      : fromService
        ? serviceEpochs(eventual, majors, storeS)
        : detectorEpochs(majors, storeS);
    const slowS = S(` ${list(alarmSlow, 'en')}'s slowness`, `${list(alarmSlow, 'zh')} 的变慢`);
    const crashed = falseAlarmCrash(st, episodeFault);
    const paused = crashed.length ? [] : falseAlarmPause(st, cfg.detectTimeoutMs, episodeFault);
    const pausedIds = [...new Set(paused.map((p) => p.id))];
    const viewSentence = viewS(sides, cfg.detectTimeoutMs, new Set(pausedIds));
    const alarmS = crashed.length
      ? S(
          ` No link between workers is cut: ${list(crashed.map((c) => c.id), 'en')} crashed at ${crashed.map((c) => `${secs(c.at)} s`).join(', ')}, the ring stalled without ${crashed.length === 1 ? 'it' : 'them'}, and the failure detector took that for a partition — from inside, a crash and a cut look the same.`,
          `工作节点之间没有链路被切断：${list(crashed.map((c) => c.id), 'zh')} 在 ${crashed.map((c) => `${secs(c.at)} 秒`).join('、')}崩溃，环因此停住，故障检测器把它当成了网络分区——从内部看，崩溃和切断一模一样。`,
        )
      : paused.length
      ? // Seed 620: w3 slowed at 7.96 s, w5 paused at 8.64 s, the switch at 9.00 s — both held the ring.
        S(
          ` No link between workers is cut: ${pausedS(st, paused).en}; the ring stalled without ${pausedIds.length === 1 ? 'it' : 'them'}, and the failure detector took that${falseAlarm ? ` and${slowS.en}` : ''} for a partition — from inside, a paused process${falseAlarm ? ', a slow one' : ''} and a cut look the same.`,
          `工作节点之间没有链路被切断：${pausedS(st, paused).zh}，环因此停住，故障检测器把${falseAlarm ? `这一点连同 ${slowS.zh}` : '它'}当成了网络分区——从内部看，暂停的进程${falseAlarm ? '、变慢的进程' : ''}和切断一模一样。`,
        )
      : falseAlarm
      ? S(
          ` No link between workers is cut: the failure detector (detectTimeoutMs ${cfg.detectTimeoutMs} ms without progress) took${slowS.en} for a partition — from inside, the two look the same.`,
          `工作节点之间没有链路被切断：故障检测器（detectTimeoutMs ${cfg.detectTimeoutMs} ms 没有进展）把 ${slowS.zh}当成了网络分区——从内部看，两者一模一样。`,
        )
      : S('', '');
    const n = eventual.length;
    // Right after the switch the replicas are still equal: "C lost (divergence 0)" read as a contradiction.
    const d = num(st.divergence);
    const cS = d !== '0' && d !== '0.00' && d !== '—' ? S(`C lost (divergence ${d})`, `放弃了 C（副本分歧 ${d}）`) : S(`C given up: the replicas drift apart from here (divergence ${d} so far)`, `放弃了 C：副本从这里开始分道扬镳（目前副本分歧 ${d}）`);
    return S(
      `Degraded: ${n} worker${n === 1 ? '' : 's'} switched to eventual mode and ${n === 1 ? 'trains' : 'train'} locally (local SGD) — A kept, ${cS.en}.${alarmS.en}${epochS.en}${viewSentence.en}${fenceS.en}`,
      `已降级：${n} 个工作节点切换到最终一致模式，在本地训练（本地 SGD）——保住了 A，${cS.zh}。${alarmS.zh}${epochS.zh}${viewSentence.zh}${fenceS.zh}`,
    );
  }
  // The ring is cut only by a fault between workers (a partition of the coordination servers is not one).
  if (st.netFaultDuring(st.t, st.t, st.workers.map((w) => w.id)))
    return S(
      `The ring is cut: in strong mode every worker waits, until the failure detector (detectTimeoutMs ${cfg.detectTimeoutMs} ms without progress) decides this is a partition, not slowness — from inside, the two look the same.`,
      `环被切断：强一致模式下所有工作节点都在等待，直到故障检测器（detectTimeoutMs ${cfg.detectTimeoutMs} ms 没有进展）判定这是网络分区而不是变慢——从内部看，两者一模一样。`,
    );
  if (st.recentlyHealed) {
    // A merge after this repair, or none: a cut the ring did not stall on (or that healed before the
    // detector fired) left every worker in strong mode ("back … on one merged model" with no merge).
    const merge = st.lastNote('merge');
    return merge !== null && st.lastRepair !== null && merge.t >= st.lastRepair.t
      ? S('Healed: the ring is whole again and every worker is back in strong mode on one merged model.', '已恢复：环路重新完整，所有工作节点都在同一个合并后的模型上回到了强一致模式。')
      : S(
          'Healed: the network is whole again. No worker had switched to eventual mode, so there is nothing to merge: the ring goes on in strong mode.',
          '已恢复：网络重新完整。没有工作节点切换到最终一致模式，所以没有什么需要合并：环路继续以强一致模式运行。',
        );
  }
  const service = serviceSplit(st);
  return S(
    `Strong mode: a ring all-reduce keeps all ${st.workers.length} replicas in lockstep. On a detected partition it would rather keep training (A) and pay later, in a merge — ${pacelc}.${service.en}`,
    `强一致模式：环形全归约让 ${st.workers.length} 个副本锁步前进。一旦检测到网络分区，它宁可继续训练（A），把代价留到之后的合并——${pacelc}。${service.zh}`,
  );
}

/**
 * A partition of the coordination servers while the ring is whole: the ring does not use the
 * service then, but the epochs a detected partition would ask for need its majority (the caption
 * said only "Strong mode …" beside a split service).
 */
function serviceSplit(st: ExplainState): Sentence {
  const groups = st.partition;
  if (!st.coord || !groups) return S('', '');
  const live = st.coord.servers.filter((c) => c.up).map((c) => c.id);
  const n = st.coord.servers.length;
  const need = majority(n);
  const home = groups.find((g) => st.workers.some((w) => g.includes(w.id)));
  if (!home) return S('', '');
  const here = live.filter((id) => home.includes(id));
  const away = st.coord.servers.map((c) => c.id).filter((id) => !home.includes(id));
  if (away.length === 0) return S('', '');
  if (here.length >= need)
    return S(
      ` ${list(away, 'en')} ${away.length === 1 ? 'is' : 'are'} cut off from the rest of the coordination service; its majority (${setOf(here)}, ${here.length} of ${n}) is on the workers' side, so an epoch could still be granted.`,
      `${list(away, 'zh')} 与协调服务的其余部分隔开了；它的多数派（${setOf(here)}，${n} 台中的 ${here.length} 台）在工作节点这一侧，所以仍能授予纪元号。`,
    );
  const reach = here.length === 0 ? S('none of its servers', '它的任何一台服务器') : S(`only ${setOf(here)}`, `只有 ${setOf(here)}`);
  return S(
    ` The coordination service is split: the workers reach ${reach.en} (${here.length} of ${n}; its majority needs ${need}). The ring does not use the service while it is whole, but a partition detected now could be granted no epoch — the service answers only through its majority — so every side's work would stay provisional and the merge after it would wait for its epoch.`,
    `协调服务被隔开了：工作节点能连到的${reach.zh}（${n} 台中的 ${here.length} 台；多数派需要 ${need} 台）。环路完整时用不到协调服务，但如果此刻检测到网络分区，哪一侧都拿不到纪元号——协调服务只通过它的多数派应答——所以各侧的工作都只是临时的，之后的合并也要等它的纪元号。`,
  );
}
