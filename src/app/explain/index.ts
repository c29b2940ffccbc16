import type { Lang } from '../i18n/lang';
import { allreduce } from './allreduce';
import type { Sentence } from './common';
import { lockRecipe } from './coordination';
import { degrade } from './degrade';
import { generic } from './generic';
import { kafka } from './kafka';
import { paxos } from './paxos';
import { psAsync } from './psAsync';
import { psSync } from './psSync';
import { raft } from './raft';
import { ssp } from './ssp';
import type { ExplainState } from './state';
import { twoPc } from './twoPc';

/**
 * The "WHAT YOU SEE" line: one or two sentences saying, in C/A/P terms, what the run is doing at
 * the cursor time. Derived from the state at t (facts, typed notes, the engine's metric sample)
 * and the class of the running configuration, never scripted by time, so it stays true whatever
 * the user does and whenever they scrub to. One module per strategy (this folder).
 */

export { deriveExplainState, healWindowMs, recentMs, type ExplainInput, type ExplainState } from './state';

const sentences: Record<string, (st: ExplainState) => Sentence> = {
  allreduce,
  // Under a lock from the coordination service, ps-async follows the lock recipe (L11).
  'ps-async': (st) => (st.cfg.kind === 'ps-async' && st.cfg.writeLock === 'lease' ? lockRecipe(st) : psAsync(st)),
  'ps-sync': psSync,
  ssp,
  'raft-ps': raft,
  'kafka-ps': kafka,
  degrade,
  'paxos-ps': paxos,
  '2pc-ps': twoPc,
};

export function explainSentence(st: ExplainState): Sentence {
  return (sentences[st.cfg.kind] ?? generic)(st);
}

export function explain(st: ExplainState, lang: Lang): string {
  let text = explainSentence(st)[lang];
  // A broken invariant outranks any story about trade-offs: it is a bug, and the line says so first.
  const violations = st.metrics.violations ?? 0;
  if (violations > 0) {
    const what = st.firstViolation ? `${st.firstViolation.invariant}: ${st.firstViolation.detail}` : '';
    // The detail is the strategy's own English diagnostic; a Chinese screen names the invariant only.
    const whatZh = st.firstViolation ? `${st.firstViolation.invariant}，t = ${(st.firstViolation.t / 1000).toFixed(3)} 秒` : '';
    text =
      lang === 'zh'
        ? `⚠ 不变量被破坏（${violations} 次${whatZh ? `，首次：${whatZh}` : ''}）——这是缺陷，不是取舍。${text}`
        : `⚠ Invariant broken (${violations}${what ? `; first: ${what}` : ''}) — a bug, not a trade-off. ${text}`;
  }
  if (!st.done) return text;
  return lang === 'zh' ? `运行结束。${text}` : `Run finished. ${text}`;
}
