import type { RunStatic } from '../../engine/index/runState';
import type { Scenario } from '../../scenario/schema';
import type { WordsContext } from '../words/nodeWords';

const cache = new WeakMap<RunStatic, WordsContext>();

/** What the fact sentences need to know about the run: ring length, Raft majority, knobs, the coordination service. */
export function wordsContext(sc: Pick<Scenario, 'strategy' | 'coordination'>, st: RunStatic): WordsContext {
  let c = cache.get(st);
  const coord = sc.coordination?.service;
  if (!c || c.cfg !== sc.strategy || c.coord !== coord) {
    c = { workers: st.nodes.filter((n) => n.role === 'worker').length, servers: st.nodes.filter((n) => n.role === 'server').length, cfg: sc.strategy, ...(coord ? { coord } : {}) };
    cache.set(st, c);
  }
  return c;
}
