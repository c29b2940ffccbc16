import type { RunReader } from '../../engine/runReader';
import { lastAtOrBefore } from '../../engine/index/series';
import { deriveExplainState, explain } from '../explain';
import type { Lang } from '../i18n/lang';
import { nodeLines, roleOf, termOf, versionOf } from '../words/nodeWords';
import { noteText } from '../words/noteWords';
import { metricSeries } from './chartModel';
import { expectationsAt, indexOf, stateAt, staticOf } from './runView';
import { serverPanelModel } from './serverModel';
import { keyNotes } from './timelineModel';
import { wordsContext } from './wordsContext';

/**
 * Everything the screen shows at time t, as plain data: what each view draws (the topology's
 * nodes with their hooks and tooltip lines, the servers panel, the metrics strip, the charts'
 * points up to t, the timeline's notes, the expectations, the violations count) and every
 * sentence. Tests compare it captured live at t with the same read back after the run went on —
 * the screen of a scrubbed t must be the one the live run showed at t. The run's explanation must
 * have loaded (`loadExplain`, which the app starts with the run).
 */
export function viewModelAt(sim: RunReader, t: number, lang: Lang) {
  const ix = indexOf(sim);
  const st = staticOf(sim);
  const state = stateAt(sim, t);
  const ctx = wordsContext(sim.scenario, st);
  const workers = st.nodes.filter((n) => n.role === 'worker').map((n) => n.id);
  const series = metricSeries(ix, workers);
  const upTo = lastAtOrBefore(series.t, t, (x) => x) + 1;
  return {
    topology: state.nodes.map((n) => ({
      id: n.id,
      role: roleOf(n),
      term: termOf(n),
      version: versionOf(n, state.metrics?.nodes[n.id]?.version),
      up: n.up,
      slow: n.slowFactor,
      progress: n.computing,
      lines: nodeLines(n, ctx, lang),
    })),
    links: state.links.map((l) => `${l.from}>${l.to}:${l.cut ? 'cut' : ''}${l.partitioned ? 'part' : ''}`),
    inFlight: state.inFlight.map((m) => m.id),
    servers: serverPanelModel(state, ix, 12, ctx, lang),
    metrics: state.metrics,
    charts: {
      t: series.t.slice(0, upTo),
      divergence: series.divergence.slice(0, upTo),
      staleness: [...series.staleness].map(([w, v]) => [w, v.slice(0, upTo)]),
    },
    notes: keyNotes(ix)
      .filter((n) => n.t <= t)
      .map((n) => noteText(n, lang, sim.scenario)),
    expectations: expectationsAt(sim, t).map((e) => [e.time, e.pass, e.actual]),
    violations: lastAtOrBefore(ix.violations, t, (v) => v.t) + 1,
    explain: explain(deriveExplainState({ cfg: sim.scenario.strategy, coordination: sim.scenario.coordination, security: sim.scenario.security, ix, static: st, state, done: false, stepMs: sim.scenario.compute.stepMs }), lang),
  };
}
