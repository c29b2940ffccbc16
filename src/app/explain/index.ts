import type { StrategyConfig } from '../../protocols';
import { loadOnce } from '../../protocols/loadOnce';
import type { Lang } from '../i18n/lang';
import { invariantName } from '../words/invariantWords';
import type { Sentence } from './common';
import { generic } from './generic';
import type { ExplainState } from './state';

/**
 * The "WHAT YOU SEE" line: one or two sentences saying, in C/A/P terms, what the run is doing at
 * the cursor time. Derived from the state at t (facts, typed notes, the engine's metric sample)
 * and the class of the running configuration, never scripted by time, so it stays true whatever
 * the user does and whenever they scrub to. One module per strategy (this folder).
 *
 * The per-strategy modules load when a run needs them (issue 9), as protocol code does
 * (protocols/factory.ts): `loadExplain(cfg)` is started wherever a run's code is (app/load.ts,
 * the lesson runtime, forks), and `explain` is synchronous and says clearly when it was not.
 */

export { deriveExplainState, healWindowMs, recentMs, type ExplainInput, type ExplainState } from './state';

type Explainer = (st: ExplainState) => Sentence;

/** The module that explains a configuration: ps-async under a lock from the coordination service follows the lock recipe (L11). */
type ModuleKey = StrategyConfig['kind'] | 'ps-async/lock';
function moduleOf(cfg: StrategyConfig): ModuleKey {
  return cfg.kind === 'ps-async' && cfg.writeLock === 'lease' ? 'ps-async/lock' : cfg.kind;
}

const loaders: Record<ModuleKey, () => Promise<Explainer>> = {
  allreduce: async () => (await import('./allreduce')).allreduce,
  'ps-async': async () => (await import('./psAsync')).psAsync,
  'ps-async/lock': async () => (await import('./coordination')).lockRecipe,
  'ps-sync': async () => (await import('./psSync')).psSync,
  ssp: async () => (await import('./ssp')).ssp,
  'raft-ps': async () => (await import('./raft')).raft,
  'kafka-ps': async () => (await import('./kafka')).kafka,
  degrade: async () => (await import('./degrade')).degrade,
  'paxos-ps': async () => (await import('./paxos')).paxos,
  '2pc-ps': async () => (await import('./twoPc')).twoPc,
};

const modules = loadOnce((key: ModuleKey) => loaders[key]());

/** The attack sentence (security.ts): loaded with the security code, for the runs that have an attacker. */
const attackText = loadOnce((_: 'security') => import('./security').then((m) => m.security));

/** Loads the attack sentence (once): wherever the engine's security code runs, an attacker may appear. */
export function loadExplainSecurity(): Promise<void> {
  return attackText.load('security');
}

/** Whether `explain` can say what an attacker does (before that, it says the strategy's sentence alone). */
export function explainSecurityLoaded(): boolean {
  return attackText.get('security') !== undefined;
}

/** The module's key, or null for a kind without a tailored text (it gets `generic`, always loaded). */
function keyOf(cfg: StrategyConfig): ModuleKey | null {
  const key = moduleOf(cfg);
  return Object.hasOwn(loaders, key) ? key : null;
}

/** Loads the text of this configuration's strategy (once; later calls share the first; a failed load is tried again). */
export function loadExplain(cfg: StrategyConfig): Promise<void> {
  const key = keyOf(cfg);
  return key === null ? Promise.resolve() : modules.load(key);
}

/** Whether `explain` can speak for this configuration now. */
export function explainLoaded(cfg: StrategyConfig): boolean {
  const key = keyOf(cfg);
  return key === null || modules.get(key) !== undefined;
}

export function explainSentence(st: ExplainState): Sentence {
  const key = keyOf(st.cfg);
  if (key === null) return generic(st);
  const f = modules.get(key);
  if (!f) throw new Error(`the explanation of strategy "${st.cfg.kind}" is not loaded: await loadExplain(cfg) before reading it`);
  return f(st);
}

export function explain(st: ExplainState, lang: Lang): string {
  // An attacker at work is what the viewer most needs named: first, then the strategy's story.
  const attack = st.attacked ? (attackText.get('security')?.(st) ?? null) : null;
  let text = attack ? `${attack[lang]}${lang === 'zh' ? '' : ' '}${explainSentence(st)[lang]}` : explainSentence(st)[lang];
  // A broken invariant outranks any story about trade-offs: it is a bug, and the line says so first.
  const violations = st.metrics.violations ?? 0;
  if (violations > 0) {
    const what = st.firstViolation ? `${st.firstViolation.invariant}: ${st.firstViolation.detail}` : '';
    // The detail is the strategy's own English diagnostic; a Chinese screen names the invariant only,
    // by its Chinese name (its id, "leader-completeness", was English on a Chinese screen).
    const whatZh = st.firstViolation ? `${invariantName(st.firstViolation.invariant, 'zh')}，t = ${(st.firstViolation.t / 1000).toFixed(3)} 秒` : '';
    text =
      lang === 'zh'
        ? `⚠ 不变量被破坏（${violations} 次${whatZh ? `，首次：${whatZh}` : ''}）——这是缺陷，不是取舍。${text}`
        : `⚠ Invariant broken (${violations}${what ? `; first: ${what}` : ''}) — a bug, not a trade-off. ${text}`;
  }
  if (!st.done) return text;
  return lang === 'zh' ? `运行结束。${text}` : `Run finished. ${text}`;
}
