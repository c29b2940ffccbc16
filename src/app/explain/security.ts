import { trimCount } from '../../protocols/aggregation';
import type { NoteName } from '../../protocols/notes';
import type { NodeId } from '../../sim/types';
import { factor, list } from '../words/text';
import { join, S, type Sentence } from './common';
import type { ExplainState } from './state';

/**
 * The attack in force at t, said first (TRUTHS row "A SHA-256 hash on each update protects it"):
 * what the man-in-the-middle or the Byzantine worker does, what the receiver's check did with it
 * — from the observer's notes, so the verb is what happened in this run, not what the
 * configuration promises — and why. Null when no attacker is at work at t.
 */
export function security(st: ExplainState): Sentence | null {
  if (!st.attacked) return null;
  return join([...st.tampered.map((l) => onLink(st, l)), ...(st.byzantine.length > 0 ? [insiders(st)] : [])]);
}

type Tampered = ExplainState['tampered'][number];

/** Notes of `what` about messages from `from` to `to`, at or before t (or `at`). */
function count(st: ExplainState, what: NoteName, from: NodeId, to: NodeId, at?: number): number {
  return st.countNotes(what, (n) => n.node === to && 'from' in n.data && n.data.from === from, at);
}

/**
 * " (N so far)", N as of the metric sample the strip shows (its tampered / replay counters count
 * the same messages), so the line and the strip agree; nothing before the first sample.
 */
function soFar(st: ExplainState, what: NoteName, from: NodeId, to: NodeId, unitZh: string): Sentence {
  const n = st.sampledAt === null ? 0 : count(st, what, from, to, st.sampledAt);
  return n > 0 ? S(` (${n} so far)`, `（目前 ${n} ${unitZh}）`) : S('', '');
}

function onLink(st: ExplainState, l: Tampered): Sentence {
  const link = `${l.from} → ${l.to}`;
  const integrity = st.security?.integrity ?? 'none';
  if (l.attack === 'replay') {
    const took = count(st, 'replayAccepted', l.from, l.to);
    const refused = count(st, 'replayRejected', l.from, l.to);
    const head = S(`An attacker on ${link} re-sends genuine messages it recorded earlier`, `${link} 链路上的攻击者重发它先前录下的真实消息`);
    if (took > 0) {
      const n = soFar(st, 'replayAccepted', l.from, l.to, '次');
      const why =
        integrity === 'hmac'
          ? S(
              `their HMAC tags are genuine and nothing in the MAC says which step they belong to, so ${l.to} applies old updates again${n.en}`,
              `它们的 HMAC 标签是真的，而 MAC 里没有标明属于哪一步，所以 ${l.to} 再次应用了旧的更新${n.zh}`,
            )
          : S(`nothing marks them as old, so ${l.to} applies old updates again${n.en}`, `没有任何东西标明它们是旧消息，所以 ${l.to} 再次应用了旧的更新${n.zh}`);
      return S(`${head.en}: ${why.en}.`, `${head.zh}：${why.zh}。`);
    }
    if (refused > 0) {
      const n = soFar(st, 'replayRejected', l.from, l.to, '条');
      return integrity === 'tls'
        ? S(`${head.en}: TLS numbers its records, so ${l.to} drops every replay${n.en}.`, `${head.zh}：TLS 给每条记录编号，所以 ${l.to} 丢弃了每一条重放${n.zh}。`)
        : S(
            `${head.en}: the step and the worker are inside the MAC and ${l.to} remembers each worker's last step, so it drops every replay${n.en}.`,
            `${head.zh}：步号和节点标识都在 MAC 之内，且 ${l.to} 记得每个节点的最新步号，所以它丢弃了每一条重放${n.zh}。`,
          );
    }
    return S(`${head.en}.`, `${head.zh}。`);
  }
  const what = alteration(l);
  const took = count(st, 'tamperAccepted', l.from, l.to);
  const refused = count(st, 'tamperRejected', l.from, l.to);
  const head = S(`An attacker on ${link} ${what.en}`, `${link} 链路上的攻击者${what.zh}`);
  if (took > 0) {
    const n = soFar(st, 'tamperAccepted', l.from, l.to, '个');
    const why =
      integrity === 'sha256'
        ? S(
            `and recomputes the SHA-256 digest, which needs no key: ${l.to} applies every altered update${n.en}. A hash catches accidents, not attackers`,
            `并重新计算 SHA-256 摘要——这不需要任何密钥：${l.to} 应用了每一个被篡改的更新${n.zh}。哈希只能发现意外损坏，防不了攻击者`,
          )
        : S(`and nothing checks them: ${l.to} applies every altered update${n.en}`, `而没有任何校验：${l.to} 应用了每一个被篡改的更新${n.zh}`);
    return S(`${head.en} ${why.en}.`, `${head.zh}${why.zh}。`);
  }
  if (refused > 0) {
    const n = soFar(st, 'tamperRejected', l.from, l.to, integrity === 'tls' ? '条' : '个');
    return integrity === 'tls'
      ? S(
          `${head.en}, but TLS authenticates every record: ${l.to} drops each altered one${n.en}, so tampering becomes loss.`,
          `${head.zh}，但 TLS 会认证每一条记录：${l.to} 丢弃了每一条被篡改的记录${n.zh}，篡改变成了丢包。`,
        )
      : S(
          `${head.en}, but cannot forge an HMAC tag without ${l.from}'s key: ${l.to} rejects each altered update${n.en}.`,
          `${head.zh}，但没有 ${l.from} 的密钥就伪造不了 HMAC 标签：${l.to} 拒绝了每一个被篡改的更新${n.zh}。`,
        );
  }
  return S(`${head.en}.`, `${head.zh}。`);
}

/** What a man-in-the-middle does to the values it carries (engine/security/mitm.ts). */
function alteration(l: Tampered): Sentence {
  switch (l.attack) {
    case 'flip':
      return S(`negates what ${l.from} sends (×${factor(l.scale ?? 1)})`, `把 ${l.from} 发出的数值取反（×${factor(l.scale ?? 1)}）`);
    case 'scale':
      return S(`scales what ${l.from} sends ×${factor(l.scale ?? 10)}`, `把 ${l.from} 发出的数值放大 ${factor(l.scale ?? 10)} 倍`);
    default:
      return S(`adds noise to what ${l.from} sends`, `往 ${l.from} 发出的数值里加噪声`);
  }
}

/** Byzantine workers: authenticated, so every channel check passes; only the aggregation rule can bound them. */
function insiders(st: ExplainState): Sentence {
  const ids = st.byzantine.map((b) => b.node);
  const one = ids.length === 1;
  const b = st.byzantine[0];
  const sends = byzantineSends(b);
  // Under HMAC or TLS it holds a valid key; without keys it is still the worker itself that sends.
  const integrity = st.security?.integrity;
  const keyed = integrity === 'hmac' || integrity === 'tls';
  const head = keyed
    ? S(
        `${list(ids, 'en')} ${one ? 'is' : 'are'} Byzantine: ${one ? 'it holds' : 'they hold'} a valid key and ${sends.en}, so every channel check passes — the update is authentic`,
        `${list(ids, 'zh')} 是拜占庭节点：持有有效密钥，${sends.zh}，所以所有信道校验都会通过——这个更新确实是真的`,
      )
    : S(
        `${list(ids, 'en')} ${one ? 'is' : 'are'} Byzantine: a cluster member that ${sends.en}; no channel check could catch it, since the update really comes from ${one ? 'that worker' : 'those workers'}`,
        `${list(ids, 'zh')} 是拜占庭节点：集群内的成员，${sends.zh}；任何信道校验都拦不住，因为更新确实出自${one ? '这个节点' : '这些节点'}`,
      );
  const cfg = st.cfg.kind === 'ps-sync' ? st.cfg : null;
  if (cfg === null)
    return S(
      `${head.en}. Nothing here aggregates robustly: the malicious gradient is applied like any other.`,
      `${head.zh}。这里没有鲁棒聚合：恶意梯度和其他梯度一样被应用。`,
    );
  const rule = cfg.aggregation;
  if (rule === 'mean')
    return S(
      `${head.en}. The mean lets one worker drag the average as far as it likes; only a robust rule (median, trimmed mean, Krum) bounds it.`,
      `${head.zh}。均值聚合让一个节点就能把平均值拽到任意远；只有鲁棒规则（中位数、截尾均值、Krum）能限制它。`,
    );
  const name = ruleName(rule);
  const n = st.workers.length - cfg.backupWorkers;
  const limit = rule === 'median' ? Math.ceil(n / 2) - 1 : rule === 'trimmed-mean' ? trimCount(n, cfg.trim) : cfg.f;
  if (ids.length > limit)
    return S(
      `${head.en}. ${ids.length} of the ${n} gradients a round counts are malicious, more than ${name.en} withstands (${limit}): ${one ? 'it steers' : 'they steer'} the update.`,
      `${head.zh}。每轮计入的 ${n} 个梯度中有 ${ids.length} 个是恶意的，超过了${name.zh}能承受的 ${limit} 个：更新被它们左右。`,
    );
  if (b.attack === 'alie')
    return S(
      `${head.en}. Its shifts sit inside the honest gradients' spread ("A Little Is Enough"), the kind of attack ${name.en} can miss.`,
      `${head.zh}。它的偏移藏在诚实梯度的离散范围之内（“A Little Is Enough”），${name.zh}可能拦不住这类攻击。`,
    );
  return S(`${head.en}. ${capital(name.en)} keeps the outlier from steering the update.`, `${head.zh}。${name.zh}不让这个离群值左右更新。`);
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function byzantineSends(b: ExplainState['byzantine'][number]): Sentence {
  switch (b.attack) {
    case 'sign-flip':
      return S(`sends its gradient negated (×${factor(b.scale ?? 1)})`, `发送取反的梯度（×${factor(b.scale ?? 1)}）`);
    case 'large-norm':
      return S(`sends its gradient ×${factor(b.scale ?? 100)}`, `发送放大 ${factor(b.scale ?? 100)} 倍的梯度`);
    case 'random':
      return S('sends random vectors', '发送随机向量');
    default:
      return S('sends small, well-hidden shifts', '发送细微而隐蔽的偏移');
  }
}

function ruleName(rule: 'median' | 'trimmed-mean' | 'krum' | 'multi-krum'): Sentence {
  switch (rule) {
    case 'median':
      return S('the coordinate-wise median', '逐坐标中位数');
    case 'trimmed-mean':
      return S('the trimmed mean', '截尾均值');
    case 'krum':
      return S('Krum', 'Krum');
    default:
      return S('Multi-Krum', 'Multi-Krum');
  }
}
