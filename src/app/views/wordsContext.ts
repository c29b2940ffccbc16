import type { RunStatic } from '../../engine/index/runState';
import type { StrategyConfig } from '../../protocols';
import type { WordsContext } from '../words/nodeWords';

const cache = new WeakMap<RunStatic, WordsContext>();

/** What the fact sentences need to know about the run: ring length, Raft majority, knobs. */
export function wordsContext(cfg: StrategyConfig, st: RunStatic): WordsContext {
  let c = cache.get(st);
  if (!c || c.cfg !== cfg) {
    c = { workers: st.nodes.filter((n) => n.role === 'worker').length, servers: st.nodes.filter((n) => n.role === 'server').length, cfg };
    cache.set(st, c);
  }
  return c;
}
