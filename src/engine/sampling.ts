import { isComparison, type PlainExpectation, type Scenario } from '../scenario/schema';
import { hasLessonVerdicts, lessonSampleTimes } from '../scenario/lessonRefs';
import { baseIdOf, expectationsFor } from '../scenario/variants';
import { compare } from '../scenario/expectations';
import type { Evaluation } from '../train/types';
import type { ExpectationResult } from './api';
import type { EngineCore } from './core';
import type { ReadModel } from './readModel';
import { SnapshotSeries } from './snapshots';

/**
 * Measuring a run on the simulated clock: which expectations it judges, when metrics are sampled,
 * what a sample records (evaluations, parameter snapshots, the cluster loss, a `metrics` event)
 * and how an expectation is checked. The event loop (eventLoop.ts) runs these as `sample` and
 * `expect` events; runSetup.ts queues them.
 */

/** The expectations this run judges itself, each with its resolved time and no verdict yet. */
export function expectationResults(scenario: Scenario, durationMs: number): ExpectationResult[] {
  // The base run holds the expectations without `variant` (and "*"); a variant's run gets its own.
  // Comparisons with another run or time are judged after the runs, from the samples (lessonVerdict.ts).
  return expectationsFor(scenario.expect, null, baseIdOf(scenario))
    .filter((e): e is PlainExpectation & { variant?: string } => !isComparison(e) && e.value !== undefined)
    .map((e) => ({
      ...e,
      time: e.at === 'end' ? durationMs : Math.min(e.at, durationMs),
      actual: null,
      pass: null,
    }));
}

/** The times to sample at, ascending, `every` ms apart plus the times something reads (0: only those). */
export function sampleTimes(scenario: Scenario, durationMs: number, results: readonly ExpectationResult[], every: number): number[] {
  // Metrics are sampled on the simulated clock — a fixed period, every expectation time, every
  // time the lesson reads (lessonRefs.ts) and the end — never by the screen: the charts,
  // `--samples` and the lesson's comparisons read the same points.
  const times = new Set<number>();
  const lessonTimes = lessonSampleTimes(scenario).filter((t) => t <= durationMs);
  if (every > 0) {
    for (let s = 0; s <= durationMs; s += every) times.add(s);
    for (const r of results) times.add(r.time);
    for (const t of lessonTimes) times.add(t);
    times.add(durationMs);
  } else if (hasLessonVerdicts(scenario) || (scenario.sampleAt?.length ?? 0) > 0) {
    // Without the period, still every time a comparison reads (a variant carries them in sampleAt).
    for (const t of lessonTimes) times.add(t);
    times.add(durationMs);
  }
  return [...times].sort((a, b) => a - b);
}

/** A `sample` event: evaluate every live worker, keep its snapshot, and record the metrics. */
export async function takeSample(c: EngineCore, read: ReadModel): Promise<void> {
  const live = c.workerIds.map((id) => c.node(id)).filter((n) => n.up);
  const evals = await Promise.all(live.map((n) => c.trainer.evaluate(n.replica.params.slice()).catch(() => null)));
  live.forEach((n, i) => {
    const e = evals[i];
    if (!e) return;
    n.eval = e;
    let snaps = read.snapshots.get(n.id);
    if (!snaps) read.snapshots.set(n.id, (snaps = new SnapshotSeries()));
    snaps.push({ t: c.t, params: n.replica.params.slice(), eval: e });
  });
  const sampled = evals.filter((e): e is Evaluation => !!e);
  const clusterLoss = sampled.length ? sampled.reduce((a, e) => a + e.loss, 0) / sampled.length : null;
  if (read.losses.onSample(c.t, c.totalSteps(), clusterLoss)) {
    c.history.append({ t: c.t, type: 'note', what: 'targetReached', data: { steps: c.totalSteps() } });
  }
  c.history.append({ t: c.t, type: 'metrics', v: read.metricSample() });
}

/** Refresh every live worker's evaluation (before a loss or accuracy is read, and at the end). */
export async function evaluateWorkers(c: EngineCore): Promise<void> {
  const live = c.workerIds.map((id) => c.node(id)).filter((n) => n.up);
  const evals = await Promise.all(live.map((n) => c.trainer.evaluate(n.replica.params.slice()).catch(() => null)));
  live.forEach((n, i) => {
    if (evals[i]) n.eval = evals[i]!;
  });
}

/** An `expect` event: read the metric now and record the verdict. */
export async function checkExpectation(c: EngineCore, read: ReadModel, index: number): Promise<void> {
  const r = read.results[index];
  if (r.metric === 'loss' || r.metric === 'accuracy') await evaluateWorkers(c);
  const actual = read.metric(r.metric, r.node);
  r.actual = actual;
  r.pass = compare(actual, r.op, r.value, r.tolerance ?? 0);
}
