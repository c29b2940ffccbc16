import type { Action, ByzantineAttack, TamperAttack } from '../sim/types';
import type { Lang } from './i18n';

/**
 * Short descriptions of actions, in English or Chinese, for the timeline, the history list and
 * narration (the action table in actions.ts holds the menus' labels and hints).
 */

const arrow = (a: { from: string; to: string; oneWay?: boolean }) => `${a.from}${a.oneWay ? '→' : '↔'}${a.to}`;

function fmtNum(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(4)));
}

/** 2000 → "2 s" / "2 秒"; 250 → "250 ms". */
function fmtSeconds(ms: number, lang: Lang): string {
  if (ms >= 1000 && ms % 100 === 0) return `${fmtNum(ms / 1000)} ${lang === 'zh' ? '秒' : 's'}`;
  return `${fmtNum(ms)} ms`;
}

function linkChanges(a: Extract<Action, { do: 'link' }>, lang: Lang): string {
  const zh = lang === 'zh';
  const parts: string[] = [];
  if (a.latencyMs !== undefined) parts.push(`${zh ? '延迟' : 'latency'} ${fmtNum(a.latencyMs)} ms`);
  if (a.jitterMs !== undefined) parts.push(`${zh ? '抖动' : 'jitter'} ${fmtNum(a.jitterMs)} ms`);
  if (a.bandwidthMbps !== undefined) parts.push(`${zh ? '带宽' : 'bandwidth'} ${fmtNum(a.bandwidthMbps)} Mbps`);
  if (a.loss !== undefined) parts.push(`${zh ? '丢包率' : 'loss'} ${fmtNum(a.loss * 100)}%`);
  if (a.duplicate !== undefined) parts.push(`${zh ? '重复率' : 'duplicate'} ${fmtNum(a.duplicate * 100)}%`);
  if (parts.length === 0) return zh ? '无变化' : 'no change';
  return parts.join(zh ? '，' : ', ');
}

/**
 * `partition {w0,w1} | {w2,w3}`, `cut w1↔w2` (both directions) or `cut w1→w2` (oneWay),
 * `crash w3`, `slow w2 ×4`, `link w0↔w1: latency 50 ms, loss 10%`; Chinese with the glossary's terms.
 */
export function describeAction(a: Action, lang: Lang): string {
  const zh = lang === 'zh';
  switch (a.do) {
    case 'partition': {
      const groups = a.groups.map((g) => `{${g.join(',')}}`).join(' | ');
      return zh ? `网络分区 ${groups}` : `partition ${groups}`;
    }
    case 'heal':
      return zh ? '修复网络' : 'heal';
    case 'cut':
      return zh ? `切断 ${arrow(a)}` : `cut ${arrow(a)}`;
    case 'restore':
      return zh ? `恢复 ${arrow(a)}` : `restore ${arrow(a)}`;
    case 'crash':
      return zh ? `崩溃 ${a.node}` : `crash ${a.node}`;
    case 'restart':
      return zh ? `重启 ${a.node}` : `restart ${a.node}`;
    case 'slow':
      if (a.factor === 1) return zh ? `${a.node} 恢复正常速度` : `${a.node} back to normal speed`;
      return zh ? `减速 ${a.node} ×${fmtNum(a.factor)}` : `slow ${a.node} ×${fmtNum(a.factor)}`;
    case 'timeout':
      return zh ? `${a.node} 选举超时` : `election timeout on ${a.node}`;
    case 'link':
      return zh ? `链路 ${arrow(a)}：${linkChanges(a, lang)}` : `link ${arrow(a)}: ${linkChanges(a, lang)}`;
    case 'pause':
      return zh ? `暂停 ${a.node} ${fmtSeconds(a.ms, lang)}（GC）` : `pause ${a.node} ${fmtSeconds(a.ms, lang)} (GC)`;
    case 'putMeta':
      return zh ? `写入元数据 ${a.key} = "${a.value}"` : `put ${a.key} = "${a.value}"`;
    case 'tamper': {
      const words = zh ? tamperWordsZh : tamperWordsEn;
      const parts = [words[a.attack]];
      if (a.scale !== undefined) parts.push(`×${fmtNum(a.scale)}`);
      if (a.count !== undefined) parts.push(zh ? `${a.count} 条` : `${a.count} messages`);
      return zh ? `篡改 ${a.from}→${a.to}：${parts.join(' ')}` : `tamper ${a.from}→${a.to}: ${parts.join(' ')}`;
    }
    case 'untamper':
      return zh ? `撤除 ${a.from}→${a.to} 上的中间人` : `remove the attacker from ${a.from}→${a.to}`;
    case 'byzantine': {
      const w = (zh ? byzantineWordsZh : byzantineWordsEn)[a.attack];
      const scale = a.scale !== undefined ? ` ×${fmtNum(a.scale)}` : '';
      return zh ? `${a.node} 变为拜占庭节点：${w}${scale}` : `${a.node} turns Byzantine: ${w}${scale}`;
    }
    case 'honest':
      return zh ? `${a.node} 恢复诚实` : `${a.node} is honest again`;
    case 'submit': {
      const n = a.count ?? 1;
      return zh ? `${a.node} 提交 ${n} 次更新` : `${a.node} submits ${n === 1 ? 'an update' : `${n} updates`}`;
    }
    case 'network': {
      const changes = linkChanges({ from: '', to: '', ...a, do: 'link' }, lang);
      return zh ? `全部链路：${changes}` : `every link: ${changes}`;
    }
  }
}

const tamperWordsEn: Record<TamperAttack, string> = { flip: 'flip', scale: 'scale', noise: 'noise', replay: 'replay' };
const tamperWordsZh: Record<TamperAttack, string> = { flip: '取反', scale: '放大', noise: '加噪声', replay: '重放' };
const byzantineWordsEn: Record<ByzantineAttack, string> = { 'sign-flip': 'sign flip', 'large-norm': 'huge gradient', random: 'random noise', alie: '"A Little Is Enough"' };
const byzantineWordsZh: Record<ByzantineAttack, string> = { 'sign-flip': '符号翻转', 'large-norm': '超大梯度', random: '随机噪声', alie: '“A Little Is Enough”' };
