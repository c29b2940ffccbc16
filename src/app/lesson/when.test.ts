import { describe, expect, it } from 'vitest';
import { RunIndex } from '../../engine/index/runIndex';
import type { Act, Step } from '../../scenario/lesson';
import type { HistoryEvent, MetricSample } from '../../sim/types';
import { resolveWhen, revealTime, stepAt, stepTimes, type RunFacts } from './when';

/** A variant's run as the guided mode sees it: a RunIndex over a history, and the run's clock. */
function run(events: HistoryEvent[], now: number, done = false, durationMs = 20000): RunFacts {
  const ix = new RunIndex(['w0', 'w1', 'w2', 'w3', 's0']);
  ix.sync(events);
  return { notes: ix.notes, actions: ix.actions, metrics: ix.metrics, now, done, durationMs };
}

const sample = (t: number, cluster: Record<string, number | null>, nodes: MetricSample['nodes'] = {}): HistoryEvent => ({ t, type: 'metrics', v: { cluster, nodes } });
const note = (t: number, what: string, node?: string): HistoryEvent => ({ t, type: 'note', what, ...(node ? { node } : {}), data: {} }) as unknown as HistoryEvent;

const text = { en: 'x', zh: 'x' };
const step = (id: string, when: Step['when'], extra: Partial<Step> = {}): Step => ({ id, when, text, ...extra });
const act = (steps: Step[], show = ['ring', 'async']): Act => ({ id: 'cap', title: text, show, steps });

// The async run: a partition at 6 s, relDivergence crossing 0.05 at 7.25 s, a leader elected twice.
const asyncRun = run(
  [
    sample(0, { relDivergence: 0 }),
    note(3200, 'leaderElected', 's1'),
    sample(5000, { relDivergence: 0 }),
    { t: 6000, type: 'action', action: { do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] }, source: 'timeline' },
    sample(7000, { relDivergence: 0.04 }, { w2: { staleness: 3 } }),
    sample(7250, { relDivergence: 0.06 }, { w2: { staleness: 12 } }),
    note(8100, 'leaderElected', 's2'),
    sample(9000, { relDivergence: null }),
  ],
  9000,
);
const ringRun = run([sample(0, { relDivergence: 0 }), { t: 6000, type: 'action', action: { do: 'partition', groups: [['w0', 'w1']] }, source: 'user' }], 9000);
const factsOf = (v: string) => (v === 'async' ? asyncRun : v === 'ring' ? ringRun : null);
const none = () => null;

describe('resolveWhen', () => {
  it('a time is known before the run gets there', () => {
    expect(resolveWhen({ at: 12000 }, null, 0, none)).toBe(12000);
  });
  it('an event: the first (or nth) match at or after max(from, after), by node', () => {
    expect(resolveWhen({ event: 'leaderElected' }, asyncRun, 0, none)).toBe(3200);
    expect(resolveWhen({ event: 'leaderElected', after: 3300 }, asyncRun, 0, none)).toBe(8100);
    expect(resolveWhen({ event: 'leaderElected' }, asyncRun, 5000, none)).toBe(8100);
    expect(resolveWhen({ event: 'leaderElected', nth: 2 }, asyncRun, 0, none)).toBe(8100);
    expect(resolveWhen({ event: 'leaderElected', node: 's2' }, asyncRun, 0, none)).toBe(8100);
    expect(resolveWhen({ event: 'leaderElected', nth: 3 }, asyncRun, 0, none)).toBeNull();
  });
  it('action:<do> matches applied actions, by the timeline or by the learner', () => {
    expect(resolveWhen({ event: 'action:partition' }, asyncRun, 0, none)).toBe(6000);
    expect(resolveWhen({ event: 'action:partition' }, ringRun, 0, none)).toBe(6000);
    expect(resolveWhen({ event: 'action:heal' }, asyncRun, 0, none)).toBeNull();
  });
  it('a metric crossing: the first sample where the comparison holds; null values never do', () => {
    expect(resolveWhen({ metric: 'relDivergence', op: '>', value: 0.05 }, asyncRun, 0, none)).toBe(7250);
    expect(resolveWhen({ metric: 'staleness', node: 'w2', op: '>=', value: 10 }, asyncRun, 0, none)).toBe(7250);
    expect(resolveWhen({ metric: 'relDivergence', op: '>', value: 0.5 }, asyncRun, 0, none)).toBeNull();
  });
  it('end: only once the run is done', () => {
    expect(resolveWhen({ end: true }, asyncRun, 0, none)).toBeNull();
    expect(resolveWhen({ event: 'end' }, run([], 20000, true), 0, none)).toBe(20000);
  });
  it('afterStep: the other step time plus the delay, unknown while it is', () => {
    expect(resolveWhen({ afterStep: 'N1', delayMs: 400 }, null, 0, (id) => (id === 'N1' ? 1500 : null))).toBe(1900);
    expect(resolveWhen({ afterStep: 'N9', delayMs: 400 }, null, 0, none)).toBeNull();
  });
});

describe('stepTimes and stepAt: which step is current at t', () => {
  const lesson = act([
    step('N1', { at: 0 }),
    step('N4', { at: 5500 }),
    step('N5', { event: 'action:partition' }),
    step('N6', { metric: 'relDivergence', variant: 'async', op: '>', value: 0.05 }),
    step('N6b', { afterStep: 'N6', delayMs: 250 }),
    step('N7', { event: 'leaderElected', variant: 'async', after: 3000 }),
    step('N8', { at: 10500 }),
  ]);

  it('resolves each step in its variant (default: the first shown) and never before the step before it', () => {
    // N7's election at 3.2 s came before N6 fired: it fires right after N6b instead.
    expect(stepTimes(lesson, 0, factsOf)).toEqual([0, 5500, 6000, 7250, 7500, 7500, 10500]);
  });

  it('the current step is the last fired at or before t', () => {
    const times = stepTimes(lesson, 0, factsOf);
    expect(stepAt(times, -1)).toBe(-1);
    expect(stepAt(times, 0)).toBe(0);
    expect(stepAt(times, 5499)).toBe(0);
    expect(stepAt(times, 5500)).toBe(1);
    expect(stepAt(times, 7400)).toBe(3);
    expect(stepAt(times, 7500)).toBe(5);
    expect(stepAt(times, 20000)).toBe(6);
  });

  it('an unknown trigger holds back the steps after it, until its run ends', () => {
    const waiting = act([step('a', { at: 1000 }), step('b', { event: 'action:heal' }), step('c', { at: 2000 })]);
    expect(stepTimes(waiting, 0, factsOf)).toEqual([1000, null, null]);
    expect(stepAt(stepTimes(waiting, 0, factsOf), 5000)).toBe(0);
    const ended = run([], 20000, true);
    expect(stepTimes(waiting, 0, () => ended)).toEqual([1000, 20000, 20000]);
  });

  it('an act that starts later (rewindTo, or after the previous act) fires nothing before its start', () => {
    const later = act([step('a', { at: 1000 }), step('b', { event: 'action:partition' })]);
    expect(stepTimes(later, 3000, factsOf)).toEqual([3000, 6000]);
    expect(stepTimes(later, 7000, factsOf)).toEqual([7000, null]);
  });

  it('a variant with no run yet resolves nothing but times', () => {
    const other = act([step('a', { at: 100 }), step('b', { event: 'leaderElected' })], ['sync']);
    expect(stepTimes(other, 0, factsOf)).toEqual([100, null]);
  });

  it('a reveal is searched from its step time', () => {
    expect(revealTime({ at: 9000 }, lesson, 5500, factsOf, none)).toBe(9000);
    expect(revealTime({ at: 1000 }, lesson, 5500, factsOf, none)).toBe(5500);
    expect(revealTime({ event: 'leaderElected', variant: 'async' }, lesson, 5500, factsOf, none)).toBe(8100);
  });
});
