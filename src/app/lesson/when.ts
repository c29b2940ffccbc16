import type { Act, When } from '../../scenario/lesson';
import type { Action, MetricSample } from '../../sim/types';
import { firstAtOrAfter } from '../../engine/index/series';
import type { SampleSeries } from '../../engine/index/metricSamples';
import type { NoteList } from '../../engine/index/noteList';

/**
 * When the steps of an act fire (CURRICULUM §C.7): pure functions of the shown variants' runs.
 * A step fires at the first moment its `when` holds — a time, the nth matching history event,
 * the first sample where a metric crosses a threshold, a delay after another step, the end — in
 * its variant's run (default: the act's first shown), and never before the step before it: steps
 * are read in order, so one whose trigger came early fires right after its predecessor. A run is
 * append-only, so a time once found never changes; an unknown one (null) may appear later.
 */

/** What the step logic reads from one variant's run (a RunIndex and the run's clock). */
export interface RunFacts {
  /** Notes, time-ordered: a strategy's or the engine's typed events (`leaderElected`, …), as the index's columns. */
  notes: Pick<NoteList, 'length' | 't' | 'what' | 'node' | 'firstAtOrAfter'>;
  /** Applied actions, time-ordered (timeline, user and triggered). */
  actions: ReadonlyArray<{ t: number; action: Action }>;
  /** The engine's metric samples, time-ordered. */
  metrics: SampleSeries;
  /** How far the run has got, and whether it reached its end. */
  now: number;
  done: boolean;
  durationMs: number;
}

export type FactsOf = (variant: string) => RunFacts | null;

const ops = {
  '==': (a: number, b: number) => a === b,
  '!=': (a: number, b: number) => a !== b,
  '<': (a: number, b: number) => a < b,
  '<=': (a: number, b: number) => a <= b,
  '>': (a: number, b: number) => a > b,
  '>=': (a: number, b: number) => a >= b,
} as const;

/** A metric's value in one sample (cluster-wide, or one node's), null when undefined. */
export function sampleValue(s: MetricSample, metric: string, node?: string): number | null {
  const v = node === undefined ? s.cluster[metric] : s.nodes[node]?.[metric];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function actionNode(a: Action): string | undefined {
  return 'node' in a ? a.node : undefined;
}

/**
 * The time `when` first holds at or after `from`, or null while unknown. `fired(id)` is the
 * firing time of another step (for `afterStep`).
 */
export function resolveWhen(when: When, facts: RunFacts | null, from: number, fired: (stepId: string) => number | null): number | null {
  if ('at' in when) return when.at;
  if ('afterStep' in when) {
    const t = fired(when.afterStep);
    return t === null ? null : t + when.delayMs;
  }
  if (!facts) return null;
  if ('end' in when) return facts.done ? facts.durationMs : null;
  if ('event' in when) {
    if (when.event === 'end') return facts.done ? facts.durationMs : null;
    const lo = Math.max(from, when.after ?? 0);
    const nth = when.nth ?? 1;
    let seen = 0;
    if (when.event.startsWith('action:')) {
      const kind = when.event.slice('action:'.length);
      for (let i = firstAtOrAfter(facts.actions, lo, (a) => a.t); i < facts.actions.length; i++) {
        const a = facts.actions[i];
        if (a.action.do !== kind || (when.node !== undefined && actionNode(a.action) !== when.node)) continue;
        if (++seen === nth) return a.t;
      }
      return null;
    }
    const notes = facts.notes;
    for (let i = notes.firstAtOrAfter(lo); i < notes.length; i++) {
      if (notes.what(i) !== when.event || (when.node !== undefined && notes.node(i) !== when.node)) continue;
      if (++seen === nth) return notes.t(i);
    }
    return null;
  }
  // A metric crossing: the first sample at or after `from` where the comparison holds.
  const test = ops[when.op];
  const m = facts.metrics;
  const col = when.node === undefined ? m.cluster(when.metric) : m.column(`node:${when.metric}:${when.node}`, (s) => sampleValue(s, when.metric, when.node) ?? NaN);
  for (let i = m.firstAtOrAfter(from); i < m.length; i++) if (!Number.isNaN(col[i]) && test(col[i], when.value)) return m.t(i);
  return null;
}

/** The variant a `when` reads (its own `variant`, else the act's first shown). */
export function whenVariant(when: When, act: Act): string {
  return ('variant' in when && when.variant) || act.show[0];
}

/**
 * Firing times of an act's steps, in order. `start` is when the act begins (its `rewindTo`, or
 * where the act before it ended). A step whose trigger is still unknown holds back the ones after
 * it, except once its run has ended: then it fires at the end, so that no step is unreachable.
 */
export function stepTimes(act: Act, start: number, factsOf: FactsOf): Array<number | null> {
  const out: Array<number | null> = [];
  const byId = new Map<string, number | null>();
  let prev: number | null = start;
  for (const step of act.steps) {
    let fire: number | null = null;
    if (prev !== null) {
      const facts = factsOf(whenVariant(step.when, act));
      let t = resolveWhen(step.when, facts, start, (id) => byId.get(id) ?? null);
      if (t === null && facts?.done) t = facts.durationMs;
      fire = t === null ? null : Math.max(t, prev);
    }
    out.push(fire);
    byId.set(step.id, fire);
    prev = fire;
  }
  return out;
}

/** The step current at t: the last one fired at or before t (-1: none yet). */
export function stepAt(times: ReadonlyArray<number | null>, t: number): number {
  let cur = -1;
  for (let i = 0; i < times.length; i++) {
    const ti = times[i];
    if (ti === null || ti > t + 1e-9) break;
    cur = i;
  }
  return cur;
}

/** When a predict step's answer is revealed: its `reveal.when`, searched from the step's own time. */
export function revealTime(when: When, act: Act, stepTime: number, factsOf: FactsOf, fired: (stepId: string) => number | null): number | null {
  const facts = factsOf(whenVariant(when, act));
  const t = resolveWhen(when, facts, stepTime, fired);
  return t === null ? null : Math.max(t, stepTime);
}
