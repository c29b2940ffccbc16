import { strategyInfo } from '../../protocols/registry';
import { num } from '../words/text';
import { consistencyName, S, type Sentence } from './common';
import type { ExplainState } from './state';

/** Strategies without a tailored text get an honest reading of the metrics and their class. */
export function generic(st: ExplainState): Sentence {
  const info = strategyInfo(st.cfg.kind);
  const name = info ? info.name : { en: st.cfg.kind, zh: st.cfg.kind };
  const cls = st.cap ? consistencyName(st.cap) : null;
  const clsS = st.cap && cls ? S(` It is ${st.cap.pacelc}: ${cls.en}.`, `它是 ${st.cap.pacelc}：${cls.zh}。`) : S('', '');
  const facts = S(
    `availability ${num(st.availability)}, staleness ${num(st.staleness)}, versionConflicts ${num(st.metrics.versionConflicts ?? null)}`,
    `可用性 ${num(st.availability)}，陈旧度 ${num(st.staleness)}，versionConflicts ${num(st.metrics.versionConflicts ?? null)}`,
  );
  const fault = st.networkFault || st.crashedWorkers.length > 0 || st.serverDown;
  if (!fault) return S(`${name.en}: ${facts.en}.${clsS.en}`, `${name.zh}：${facts.zh}。${clsS.zh}`);
  if (st.availability === 0)
    return S(`${name.en} under a fault: it blocks rather than diverge (${facts.en}).${clsS.en}`, `${name.zh} 遇到故障：它宁可阻塞也不产生分歧（${facts.zh}）。${clsS.zh}`);
  return S(
    `${name.en} under a fault: it keeps training (${facts.en}); watch staleness and divergence to see what consistency it gives up.${clsS.en}`,
    `${name.zh} 遇到故障：它继续训练（${facts.zh}）；留意陈旧度和副本分歧，看看放弃了多少一致性。${clsS.zh}`,
  );
}
