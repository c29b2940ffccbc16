import type { CapClass } from '../../protocols';
import type { Text } from '../i18n/lang';

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
