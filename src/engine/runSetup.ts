import type { Strategy } from '../protocols';
import type { CoordServiceFactory } from '../protocols/coord/create';
import { createStrategy } from '../protocols/factory';
import type { Scenario } from '../scenario/schema';
import type { Sha256Factory } from '../sim/history';
import type { Action } from '../sim/types';
import type { Trainer } from '../train/types';
import { EngineCore } from './core';
import { FactsRecorder } from './factsRecorder';
import { FaultInjection } from './faultInjection';
import { coordContext, factsSource, securityHost, strategyContext } from './ports';
import { ReadModel } from './readModel';
import { PRIO_END, PRIO_EXPECT, PRIO_SAMPLE, PRIO_USER } from './runtime';
import { expectationResults, sampleTimes } from './sampling';
import { SecurityPort } from './security/port';

/**
 * Building a run (Simulation's constructor): the core and everything attached to it — the
 * coordination service, the strategy, the security layer, the facts recorder, the books the
 * history feeds — then the events queued before the first one runs (timeline, expectations,
 * samples, the end), and the start. The order is the run's: it fixes the schedule hash.
 */

/** The parts of a built run the event loop and the public surface work on. */
export interface RunParts {
  c: EngineCore;
  strategy: Strategy;
  faults: FaultInjection;
  read: ReadModel;
}

export function assembleRun(
  scenario: Scenario,
  opts: { trainer: Trainer; sha256: Sha256Factory; sampleEveryMs?: number },
  coordService: CoordServiceFactory | null,
): RunParts {
  const c = new EngineCore(scenario, opts.trainer, opts.sha256);
  const results = expectationResults(scenario, c.durationMs);
  const read = new ReadModel(c, results);
  const faults = new FaultInjection(c);
  c.coord = coordService ? coordService(coordContext(c)) : null;
  const strategy = (c.strategy = createStrategy(scenario.strategy, strategyContext(c)));
  c.security = new SecurityPort(scenario.security, securityHost(c));
  c.recorder = new FactsRecorder(factsSource(c), c.allIds, (e) => c.history.append(e));
  c.history.onAppend((e) => {
    read.rounds?.onEvent(e);
    if (faults.hasTriggers && (e.type === 'note' || e.type === 'action')) faults.fireTriggers(e);
    if (e.type !== 'note') return;
    if (e.what === 'apply') read.appliedTaus.push({ t: e.t, node: e.data.worker, tau: e.data.staleness });
    else if (e.what === 'merge') read.losses.onMerge(e.t);
  });
  for (const entry of scenario.timeline) {
    // `who` (who did it, in a live room's export) is a label for people; the engine ignores it.
    const { at, on, by, who: _who, ...rest } = entry;
    const action = rest as Action;
    if (on) faults.addTrigger(on, action);
    else if (at !== undefined && by === 'user') c.queue.push(at, { k: 'action', action, source: 'user' }, PRIO_USER);
    else if (at !== undefined) c.queue.push(at, { k: 'action', action, source: 'timeline' });
  }
  results.forEach((r, index) => c.queue.push(r.time, { k: 'expect', index }, PRIO_EXPECT));
  for (const s of sampleTimes(scenario, c.durationMs, results, opts.sampleEveryMs ?? 250)) c.queue.push(s, { k: 'sample' }, PRIO_SAMPLE);
  c.queue.push(c.durationMs, { k: 'end' }, PRIO_END);
  c.coord?.start();
  strategy.start();
  c.recorder.touchAll();
  c.recorder.flush(0);
  return { c, strategy, faults, read };
}
