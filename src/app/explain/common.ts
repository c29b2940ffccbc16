import type { CapClass } from '../../protocols';
import type { Text } from '../i18n/lang';
import { list } from '../words/text';

/**
 * Shared wording of the explanation (TRUTHS "Careful wording"): C in CAP is linearizability, so
 * each strategy's consistency is named for what it is — lockstep rounds, a committed prefix,
 * bounded staleness, durability — and the PACELC label is the one of the running configuration.
 */

export type Sentence = Text;

export function S(en: string, zh: string): Sentence {
  return { en, zh };
}

export const empty: Sentence = S('', '');

/** A simulated time in seconds, as the captions write it ("9.04"). */
export function secs(ms: number): string {
  return (ms / 1000).toFixed(2);
}

/** Joins sentence parts (each language with its own separator). */
export function join(parts: readonly Sentence[], sep: Sentence = S(' ', '')): Sentence {
  const kept = parts.filter((p) => p.en !== '' || p.zh !== '');
  return { en: kept.map((p) => p.en).join(sep.en), zh: kept.map((p) => p.zh).join(sep.zh) };
}

/**
 * Availability while everything is blocked: the metric looks back 10 × stepMs, so right after the
 * fault it still reads the steps just before it — say where it is going.
 */
export function blockedAvailability(a: number | null): Sentence {
  if (a === null) return S('availability —', '可用性 —');
  if (a === 0) return S('availability 0', '可用性为 0');
  const v = String(Number(a.toFixed(2)));
  return S(`availability ${v}, falling to 0`, `可用性 ${v}，正降向 0`);
}

/** What the configuration's consistency is, in a few words. */
export function consistencyName(cap: CapClass): Sentence {
  switch (cap.consistency) {
    case 'linearizable':
      return S('linearizable (C)', '线性一致（C）');
    case 'lockstep':
      return S('lockstep: every replica steps through the same versions, one round at a time', '锁步：每个副本逐轮经过同一串版本');
    case 'committed-prefix':
      return S('a committed prefix of one log, possibly stale — not linearizable', '同一日志的已提交前缀，可能陈旧——不是线性一致');
    case 'bounded-staleness':
      return S('bounded staleness — not linearizable', '有界陈旧——不是线性一致');
    case 'eventual':
      return S('eventual consistency', '最终一致性');
  }
}

/**
 * The side of a partition without a majority of servers (Raft, Multi-Paxos): its servers, which
 * `stall` (singular and plural English, then Chinese), and the workers there, who wait; or workers
 * cut off from every server alone (a dragged worker); or nothing that trains or stores.
 */
export function minoritySide(servers: readonly string[], workers: readonly string[], stall: { en: [string, string]; zh: string }, kept: Sentence): Sentence {
  const w1 = workers.length === 1;
  if (servers.length > 0) {
    const there = workers.length ? S(`, so ${list(workers, 'en')} there ${w1 ? 'waits' : 'wait'}`, `，那一侧的 ${list(workers, 'zh')} 只能等待`) : S('', '');
    return S(
      ` ${list(servers, 'en')} on the minority side ${stall.en[servers.length === 1 ? 0 : 1]}${there.en} — ${kept.en} everywhere, A lost on the minority side.`,
      `少数派一侧的 ${list(servers, 'zh')} ${stall.zh}${there.zh}——各处${kept.zh}，少数派一侧放弃了 A。`,
    );
  }
  if (workers.length > 0)
    return S(
      ` ${list(workers, 'en')} ${w1 ? 'is' : 'are'} cut off from every server, so ${w1 ? 'it waits' : 'they wait'} — ${kept.en} everywhere, A lost on ${w1 ? 'its' : 'their'} side.`,
      `${list(workers, 'zh')} 与所有服务器都断开了，只能等待——各处${kept.zh}，${w1 ? '它' : '它们'}那一侧放弃了 A。`,
    );
  return S(' No worker or server is on the other side.', '另一侧没有工作节点，也没有服务器。');
}
