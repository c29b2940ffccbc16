import type { Op } from './ops';
import type { Verdict, Witness } from './linearizabilityModel';

/** The linearizability checker's verdicts and witnesses as sentences (English and Chinese). */

const ms = (t: number | null) => (t === null ? '∞' : `${Math.round(t)}`);
const span = (o: Op) => `[${ms(o.invoke)}, ${ms(o.complete)}] ms`;
const hashOf = (o: Op) => (o.hash ? ` (parameters ${o.hash})` : '');
const hashZh = (o: Op) => (o.hash ? `（参数 ${o.hash}）` : '');

function what(o: Op, lang: 'en' | 'zh'): string {
  const v = o.version === undefined ? '' : `v=${o.version}`;
  if (lang === 'zh') return o.f === 'read' ? `读到 ${v}` : v ? `更新到 ${v}` : '更新';
  return o.f === 'read' ? `read of ${v}` : v ? `update to ${v}` : 'update';
}

/** One sentence naming the operations that no sequential order explains. */
export function explainWitness(w: Witness, lang: 'en' | 'zh' = 'en'): string {
  const { a, b } = w;
  if (lang === 'zh') {
    switch (w.kind) {
      case 'stale-read':
        return `${b!.process} 在 ${span(b!)} 读到 v=${b!.version}，但 ${a.process} 的${what(a, 'zh')}已在 ${ms(a.complete)} ms 完成（早于读开始）：陈旧读。`;
      case 'lost-update':
        return `${b!.process} 在 ${span(b!)} 读到 v=${b!.version}，但读开始前已有 ${w.count} 个更新完成（最后一个：${a.process} 在 ${ms(a.complete)} ms）：读取缺少一个已确认的更新（陈旧或丢失）。`;
      case 'fork':
        return `${a.process} 在 ${ms(a.complete)} ms 的${what(a, 'zh')}${hashZh(a)}与 ${b!.process} 在 ${ms(b!.complete)} ms 的${what(b!, 'zh')}${hashZh(b!)}：同一版本有两组参数。`;
      case 'regression':
        return `${b!.process} 在 ${span(b!)} 的更新产生 v=${b!.version}，而 ${a.process} 的${what(a, 'zh')}已在 ${ms(a.complete)} ms 完成：版本倒退。`;
      case 'unplaceable':
        return `没有任何顺序能解释 ${a.process} 在 ${span(a)} 的${what(a, 'zh')}。`;
    }
  }
  switch (w.kind) {
    case 'stale-read':
      return `${b!.process} read v=${b!.version} at ${span(b!)} after ${a.process}'s ${what(a, 'en')} completed at ${ms(a.complete)} < ${ms(b!.invoke)}: a stale read.`;
    case 'lost-update':
      return `${b!.process} read v=${b!.version} at ${span(b!)}, but ${w.count} updates had completed before it began (the last: ${a.process}'s at ${ms(a.complete)} ms): the read misses an acknowledged update (stale or lost).`;
    case 'fork':
      return `${a.process}'s ${what(a, 'en')}${hashOf(a)} at ${ms(a.complete)} ms and ${b!.process}'s ${what(b!, 'en')}${hashOf(b!)} at ${ms(b!.complete)} ms: one version, two parameter sets.`;
    case 'regression':
      return `${b!.process}'s update at ${span(b!)} produced v=${b!.version} after ${a.process}'s ${what(a, 'en')} completed at ${ms(a.complete)} ms: the version went back.`;
    case 'unplaceable':
      return `no sequential order explains ${a.process}'s ${what(a, 'en')} at ${span(a)}.`;
  }
}

export function describeVerdict(v: Verdict, lang: 'en' | 'zh' = 'en'): string {
  if (v.result === 'linearizable') return lang === 'zh' ? `线性一致（${v.ops} 个操作）` : `linearizable (${v.ops} operations)`;
  if (v.result === 'unknown') return lang === 'zh' ? `未判定：${v.reason}` : `unknown: ${v.reason}`;
  return `${lang === 'zh' ? '不是线性一致的' : 'not linearizable'}: ${explainWitness(v.witness, lang)}`;
}
