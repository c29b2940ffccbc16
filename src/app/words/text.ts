import type { Lang, Text } from '../i18n/lang';

/**
 * Small helpers every sentence builder shares: lists and numbers in the reader's punctuation,
 * majorities and the fault tolerance they buy. Node ids, knob names and metric ids stay in Latin script in Chinese
 * text (they are names, not words); everything else is written in the reader's language.
 */

export type { Lang, Text };

/** `w0, w1` / `w0、w1`. */
export function list(ids: readonly string[], lang: Lang): string {
  return ranged(ids).join(lang === 'zh' ? '、' : ', ');
}

/** `{b0, b1}` — a set of nodes (ISR, a partition side). */
export function setOf(ids: readonly string[]): string {
  return `{${ranged(ids).join(', ')}}`;
}

/** Five or more ids of one role, consecutive, in this order. */
const RUN = 5;

/**
 * Runs of RUN or more consecutive node ids of one role, in the order given (an ISR's order is
 * its meaning), as a range: "w6–w15" (a sixteen-worker side took a projector's whole line).
 */
export function ranged(ids: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ids.length; ) {
    const m = /^([wsbc])(\d+)$/.exec(ids[i]);
    let j = i + 1;
    if (m) while (j < ids.length && ids[j] === `${m[1]}${Number(m[2]) + (j - i)}`) j++;
    if (j - i >= RUN) out.push(`${ids[i]}–${ids[j - 1]}`);
    else out.push(...ids.slice(i, j));
    i = j;
  }
  return out;
}

/** A metric value as a sentence quotes it: integers as they are, others to two decimals, — when unknown. */
export function num(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (Number.isInteger(v)) return String(v);
  return v.toFixed(2);
}

/**
 * A fencing token as its service prints it. A ZooKeeper zxid carries the leader's epoch in its high
 * 32 bits (every zxid is ≥ 2³²: epochs start at 1) and is written 0x<epoch><counter>, as ZooKeeper
 * writes it; an etcd revision (a store-wide counter, far below 2³² in any run) as a number.
 */
export function tokenText(token: number): string {
  if (token < 2 ** 32) return String(token);
  const epoch = Math.floor(token / 2 ** 32);
  return `0x${epoch.toString(16)}${(token % 2 ** 32).toString(16).padStart(8, '0')}`;
}

/** A byte count as the etcd documentation writes its limits: MiB. */
export function mib(bytes: number): string {
  const v = bytes / 2 ** 20;
  return `${Number(v.toFixed(2))} MiB`; // 1.5 MiB, as the docs write it (not 1.50)
}

/** A slowdown factor: `4`, `2.5`. */
export function factor(f: number): string {
  return Number.isInteger(f) ? String(f) : f.toFixed(1);
}

/** English plural by count ("1 crash", "2 crashes"); Chinese has none. */
function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}


/** A majority of n: ⌊n/2⌋ + 1. */
export function majority(n: number): number {
  return Math.floor(n / 2) + 1;
}

/**
 * How many crashes n replicas of a majority protocol tolerate: f = ⌊(n − 1)/2⌋. For odd n that is
 * the familiar 2f + 1 = n; an even n tolerates no more than n − 1 would (TRUTHS: never print
 * "2f + 1 = 4").
 */
export function tolerance(n: number, lang: Lang): string {
  const f = Math.floor((n - 1) / 2);
  if (n % 2 === 1) return lang === 'zh' ? `2f + 1 = ${n} 台服务器可以容忍 f = ${f} 台崩溃` : `2f + 1 = ${n} servers tolerate f = ${f} ${plural(f, 'crash', 'crashes')}`;
  return lang === 'zh'
    ? `${n} 台服务器可以容忍 f = ${f} 台崩溃——和 ${n - 1} 台一样多（偶数个副本并不多容忍一台）`
    : `${n} servers tolerate f = ${f} ${plural(f, 'crash', 'crashes')} — no more than ${n - 1} would (an even count adds no tolerance)`;
}

/** The key a lock lives under (psAsyncRmw's lock "params" is /locks/params in the service). */
export function lockKey(name: string): string {
  return name.startsWith('/') ? name : `/locks/${name}`;
}

/** A degrade merge rule's name in the reader's language (the knob value stays in the knob). */
export function mergeRuleName(rule: 'discard' | 'average' | 'replay', lang: Lang): string {
  const names = { discard: ['discard', '丢弃'], average: ['average', '平均'], replay: ['replay', '回放'] } as const;
  return names[rule][lang === 'zh' ? 1 : 0];
}
