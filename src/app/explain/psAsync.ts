import { factor, list, num } from '../words/text';
import { S, type Sentence } from './common';
import type { ExplainState } from './state';

/**
 * Asynchronous parameter server (ASP; TRUTHS: nobody waits, replicas drift, PA/EL). What a cut-off
 * or orphaned worker does is read from its facts: it trains on its local copy (`unreachable`),
 * or waits for parameters.
 */
export function psAsync(st: ExplainState): Sentence {
  const a = num(st.availability);
  const stale = num(st.staleness);
  const server = st.servers[0]?.id ?? 's0';
  const pacelc = st.cap?.pacelc ?? 'PA/EL';
  const state = (w: (typeof st.workers)[number]) => (w.facts?.kind === 'ps-worker' ? w.facts.state : null);
  const local = st.workers.filter((w) => w.up && state(w) === 'unreachable').map((w) => w.id);
  const waiting = st.workers.filter((w) => w.up && state(w) === 'waiting').map((w) => w.id);
  if (!st.started)
    return S(
      `Asynchronous parameter server: each worker pushes its gradient to ${server} and pulls the newest parameters, never waiting for the others. Press ▶ to start.`,
      `异步参数服务器：每个工作节点把梯度推送给 ${server}，再拉取最新参数，从不等待其他节点。按 ▶ 开始。`,
    );
  if (st.serverDown) {
    if (local.length === 0)
      return S(
        `${server} crashed: the workers wait for parameters it cannot send (availability ${a}). Nobody trains on a stale copy yet, but nobody trains either.`,
        `${server} 已崩溃：工作节点在等它发不出来的参数（可用性 ${a}）。此刻还没有人基于陈旧副本训练，但也没有人在训练。`,
      );
    return S(
      `${server} crashed: ${list(local, 'en')} ${local.length === 1 ? 'keeps' : 'keep'} taking steps on ${local.length === 1 ? 'its local copy' : 'their local copies'} (availability ${a}), but no update reaches a shared copy: staleness and divergence grow — A kept, C lost.`,
      `${server} 已崩溃：${list(local, 'zh')} 继续在本地副本上训练（可用性 ${a}），但没有任何更新能汇入共享副本：陈旧度和副本分歧不断增大——保住了 A，放弃了 C。`,
    );
  }
  if (st.isolated.length > 0) {
    const trainLocal = st.isolated.filter((id) => local.includes(id));
    const noticing = trainLocal.length === 0;
    return noticing
      ? S(
          `${list(st.isolated, 'en')} cannot reach ${server}; until their push times out they wait, then they train on their local copies. The others keep training (availability ${a}).`,
          `${list(st.isolated, 'zh')} 连不上 ${server}；推送超时之前它们在等待，之后会在本地副本上训练。其他节点照常训练（可用性 ${a}）。`,
        )
      : S(
          `Both sides keep training (availability ${a}), but ${list(trainLocal, 'en')} no longer ${trainLocal.length === 1 ? 'sees' : 'see'} the server's updates and ${trainLocal.length === 1 ? 'trains' : 'train'} on a local copy: staleness and divergence grow — A kept, C lost.`,
          `两边都在继续训练（可用性 ${a}），但 ${list(trainLocal, 'zh')} 已看不到服务器的更新，只能在本地副本上训练：陈旧度和副本分歧不断增大——保住了 A，放弃了 C。`,
        );
  }
  if (st.crashedWorkers.length > 0)
    return S(
      `${list(st.crashedWorkers, 'en')} crashed: the other workers keep training without waiting (availability counts live workers only). After a restart ${st.crashedWorkers.length === 1 ? 'it pulls' : 'each pulls'} the newest parameters from ${server}.`,
      `${list(st.crashedWorkers, 'zh')} 已崩溃：其他工作节点不等${st.crashedWorkers.length === 1 ? '它' : '它们'}，继续训练（可用性只统计存活节点）。重启后${st.crashedWorkers.length === 1 ? '它' : '每个节点都'}会从 ${server} 拉取最新参数。`,
    );
  if (st.slow.length > 0) {
    const w = st.slow[0];
    return S(
      `${w.node} is slow (×${factor(w.factor)}): nobody waits for it, but its gradients are computed on old parameters and arrive stale (staleness ${stale}). Asynchrony trades consistency for speed: ${pacelc}.`,
      `${w.node} 变慢了（×${factor(w.factor)}）：没有人等它，但它的梯度基于旧参数算出，到达时已经陈旧（陈旧度 ${stale}）。异步用一致性换取速度：${pacelc}。`,
    );
  }
  if (st.recentlyHealed)
    return S(
      'Healed: the cut-off workers push gradients computed on old parameters and pull the newest ones; divergence collapses, but those updates were applied stale.',
      '已恢复：被隔开的工作节点把基于旧参数算出的梯度推上去，再拉取最新参数；副本分歧很快消失，但这些更新是以陈旧状态被应用的。',
    );
  if (st.networkFault)
    return S(
      `The fault separates workers only; each still reaches ${server}, so training goes on as before (availability ${a}).`,
      `这次故障只隔开了工作节点之间的链路；每个节点仍能连到 ${server}，训练照常进行（可用性 ${a}）。`,
    );
  // Waiting on the server's reply is not waiting on another worker: say which it is.
  const note = waiting.length > 0 ? S(`; ${list(waiting, 'en')} ${waiting.length === 1 ? 'is' : 'are'} only waiting for ${server}'s reply to a pull`, `；${list(waiting, 'zh')} 只是在等 ${server} 回复拉取请求`) : S('', '');
  // Availability looks back 10 × stepMs: quote it once the window has filled.
  // Below 1 with nobody waiting, say who finished no step in that window ("no worker waits …
  // (availability 0.88)" read as a contradiction when a slow step was the reason).
  const idle = st.unavailableWorkers.filter((id) => !waiting.includes(id));
  const windowS = num((10 * st.stepMs) / 1000);
  const why =
    idle.length > 0 && st.availability !== null && st.availability < 1
      ? S(`: ${list(idle, 'en')} completed no step in the last ${windowS} s, which the metric counts as unavailable`, `：${list(idle, 'zh')} 在过去 ${windowS} s 内没有完成任何一步，这一指标把${idle.length === 1 ? '它' : '它们'}算作不可用`)
      : S('', '');
  const avail = st.t >= 10 * st.stepMs ? S(` (availability ${a}${why.en})`, `（可用性 ${a}${why.zh}）`) : S('', '');
  // "Healthy" is not the word while an attacker is at work (the attack sentence comes first).
  const healthy = st.attacked ? S('No worker waits for another', '工作节点之间互不等待') : S('Healthy: no worker waits for another', '运行正常：工作节点之间互不等待');
  // Before the first update lands nobody misses one yet: "miss … (staleness 0)" contradicted itself.
  const misses =
    st.staleness !== null && st.staleness > 0
      ? S(`each worker computes on parameters that miss the others' newest updates (staleness ${stale}, in versions)`, `每个工作节点计算所用的参数都缺少其他节点最新的更新（陈旧度 ${stale}，以版本计）`)
      : S(`no worker waits for the others' newest updates either, so each will compute on parameters that miss some (staleness ${stale} so far, in versions)`, `也没有人等其他节点最新的更新，所以每个工作节点将基于缺少部分更新的参数计算（目前陈旧度 ${stale}，以版本计）`);
  return S(`${healthy.en}${avail.en}${note.en}. But ${misses.en} — eventual consistency, ${pacelc}.`, `${healthy.zh}${avail.zh}${note.zh}。但${misses.zh}——最终一致性，${pacelc}。`);
}
