import { afterEach, describe, expect, it } from 'vitest';
import { nodeSha256 } from '../../cli/nodeSha256';
import { sliceBatch } from '../../sim/packCodec';
import type { Action } from '../../sim/types';
import { Simulation } from '../simulation';
import { InstantTrainer } from '../testing/instantTrainer';
import { testScenario } from '../testing/scenarios';
import { RowsReader } from '../../sim/historyRows';
import type { Scenario } from '../../scenario/schema';
import type { GradientRequest, GradientResult, TrainerSpec } from '../../train/types';
import { EngineClient, type RemoteRun } from './client';
import { EngineHost, type HostTrainer } from './host';
import type { EnginePort, FromHost, ToHost } from './protocol';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** A host and its client over a MessageChannel: structured clones and transfers, as between a page and a worker. */
/** A stand-in whose boundary grid is made of the parameters it is given, so a grid shows which parameters it came from. */
class GridTrainer extends InstantTrainer {
  override predictGrid(params: Float32Array, res: number): Promise<Float32Array> {
    return Promise.resolve(Float32Array.from({ length: res * res }, (_, i) => params[i % params.length] + i));
  }
}

/** Trainers the host has started and disposed of, by the spec's seed. */
const started: number[] = [];
const disposed: number[] = [];

/** Answers each gradient in a task of its own, as a training worker's message does (the host's port is heard between two). */
class TaskTrainer extends GridTrainer {
  override async gradient(req: GradientRequest): Promise<GradientResult> {
    await new Promise((r) => setTimeout(r, 0));
    return super.gradient(req);
  }
}

function connected(make: () => GridTrainer = () => new GridTrainer()): EngineClient {
  const ch = new MessageChannel();
  channels.push(ch);
  const trainer = (spec: TrainerSpec): Promise<HostTrainer> => {
    started.push(spec.seed);
    const t = make();
    return Promise.resolve(Object.assign(t, { dispose: () => Promise.resolve(void disposed.push(spec.seed)) }));
  };
  new EngineHost(ch.port1 as unknown as EnginePort<ToHost, FromHost>, { trainer, sha256: () => nodeSha256 });
  return new EngineClient(ch.port2 as unknown as EnginePort<FromHost, ToHost>);
}

/** A run of `sc` on a trainer of its own. */
async function remote(client: EngineClient, sc: Scenario): Promise<RemoteRun> {
  return client.create(sc, await client.trainer({ model: sc.model, seed: sc.seed, backend: 'cpu' }, { nodes: sc.cluster.workers }));
}

const raft = testScenario({
  cluster: { workers: 4, servers: 3 },
  durationMs: 6000,
  strategy: { kind: 'raft-ps' } as never,
  timeline: [{ at: 1500, do: 'crash', node: '@leader' }, { at: 2500, do: 'restart', node: 's0' }, { at: 4000, do: 'partition', groups: [['w0', 's0'], ['w1', 'w2', 'w3', 's1', 's2']] }] as never,
});

const lines = (h: { length: number; at(i: number): unknown }): string[] => Array.from({ length: h.length }, (_, i) => JSON.stringify(h.at(i)));

describe('engine/remote: a run in a worker, followed by the page', () => {
  it('is the same run as one in the page: history, state at any time, live figures, actions and digests', async () => {
    const here = await Simulation.create(raft, { trainer: new GridTrainer(), sha256: nodeSha256 });
    const there = await remote(connected(), raft);
    expect(there.durationMs).toBe(here.durationMs);
    expect(there.cap).toEqual(here.cap);
    expect(there.runStatic()).toEqual(here.runStatic());
    const crash: Action = { do: 'crash', node: 'w1' } as Action;
    const restart: Action = { do: 'restart', node: 'w1' } as Action;
    for (let t = 400; !here.done; t += 400) {
      // The page's driver passes its input check; it stays on the page (a function does not cross threads).
      await Promise.all([here.advanceTo(t, { wallBudgetMs: 1000 }), there.advanceTo(t, { wallBudgetMs: 1000, interrupt: () => false })]);
      if (t === 2800) {
        expect(await there.apply(crash)).toEqual(here.apply(crash));
        expect(await there.apply(restart, 3700)).toEqual(here.schedule(restart, 3700));
        // Refused the same way, with the same typed reason: there is no w9.
        const refused = await there.apply({ do: 'crash', node: 'w9' } as Action);
        expect(refused.ok).toBe(false);
        expect(refused).toEqual(here.apply({ do: 'crash', node: 'w9' } as Action));
      }
      expect(there.now()).toBe(here.now());
      expect(there.done).toBe(here.done);
      expect(there.nodes()).toEqual(here.nodes());
      // The links and the metrics as the page reads them, from its copy of the history at now: the
      // engine's live links, and the engine's newest metric sample.
      const now = there.stateAt(there.now());
      expect(now.links).toEqual(here.links());
      expect(now.metrics).toEqual(here.stateAt(here.now()).metrics);
      expect(now.metrics?.nodes.w2?.steps).toBe([...here.index().metrics].at(-1)?.value.nodes.w2?.steps);
      for (const n of ['w0', 'w3', 's1']) expect(there.backendFor(n)).toBe(here.backendFor(n));
      expect(there.expectations()).toEqual(here.expectations());
      expect(there.userActions()).toEqual(here.userActions());
      for (const n of ['s0', 's1', 'w0']) expect(there.acceptsAction('timeout', n)).toBe(here.acceptsAction('timeout', n));
      expect(there.history.length).toBe(here.history.length);
    }
    expect(there.userActions()).toHaveLength(2);
    expect(there.stateAt(there.now()).metrics?.nodes.w2?.steps).toBeGreaterThan(0); // the samples compared above were real
    expect(lines(there.history)).toEqual(lines(here.history));
    for (const t of [0, 1500, 2800, 3700, 4000.5, here.now()]) expect(there.stateAt(t)).toEqual(here.stateAt(t));
    expect(await there.digests()).toEqual(await here.digests());
    // A run's export reads the history's row slices in order on its worker.
    const reader = new RowsReader();
    const exported: string[] = [];
    for (const slice of there.history.rowSlices()) reader.forEach(sliceBatch(slice()), (e) => exported.push(JSON.stringify(e)));
    expect(exported).toEqual(lines(here.history));
    // The replica tiles: a worker's grid and evaluation at t, from its parameters then.
    for (const [node, t] of [['w0', 100], ['w2', 2900], ['w1', 3000], ['w3', here.now()]] as const) {
      const params = here.paramsAt(node, t);
      expect(await there.gridAt(node, t, 6)).toEqual(params ? await here.trainer.predictGrid(params, 6) : null);
      expect(await there.evaluationAt(node, t)).toEqual(here.evaluationAt(node, t));
    }
    expect(await there.gridAt('w0', 2000, 6)).not.toEqual(await there.gridAt('w0', 5000, 6));
  });

  it('keeps runs apart, steps one event, and says what went wrong as an error', async () => {
    const client = connected();
    const [a, b] = await Promise.all([remote(client, raft), remote(client, { ...raft, seed: raft.seed + 1 })]);
    await a.advanceTo(1000);
    await b.stepEvent();
    expect(a.now()).toBeGreaterThan(b.now());
    expect(b.history.length).toBeLessThan(a.history.length);
    await b.dispose();
    await expect(b.advanceTo(500)).rejects.toThrow(/no run/);
    await a.advanceTo(2000);
    expect(a.now()).toBe(2000);
    await expect(remote(client, { ...raft, strategy: { kind: 'no-such-strategy' } } as never)).rejects.toThrow(/no-such-strategy/);
    // The code a run needs loads ahead of its creation (the page asks while the trainer starts).
    await client.prepare(raft);
    await expect(client.prepare({ ...raft, strategy: { kind: 'no-such-strategy' } } as never)).rejects.toThrow(/no-such-strategy/);
  });

  it('applies an action asked while the run advances at the next instant, not after the slice', async () => {
    const run = await remote(connected(() => new TaskTrainer()), raft);
    // A slice long enough for the whole run; the crash is asked as soon as the advance has started.
    const advancing = run.advanceTo(raft.durationMs, { wallBudgetMs: 60_000 });
    await new Promise((r) => setTimeout(r, 20));
    const crashed = await run.apply({ do: 'crash', node: 'w1' } as Action);
    await advancing;
    expect(crashed.ok).toBe(true);
    const at = run.userActions()[0].t;
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(raft.durationMs); // the slice ended there: the run was not over when it applied
    await run.advanceTo(raft.durationMs);
    expect(run.done).toBe(true);
  });

  it('a worker that stops answering fails every request waiting and every later one, and is let go of once', async () => {
    const ch = new MessageChannel();
    channels.push(ch);
    let letGo = 0;
    const client = new EngineClient(ch.port2 as unknown as EnginePort<FromHost, ToHost>, () => letGo++);
    const waiting = client.trainer({ model: raft.model, seed: raft.seed, backend: 'cpu' }, { nodes: 4 }); // no host answers
    expect(client.lost).toBe(false);
    // What engineWorker.ts posts when the engine itself fails to load.
    ch.port1.postMessage({ req: 0, ok: false, error: 'engineHost failed to load' });
    await expect(waiting).rejects.toThrow(/stopped: engineHost failed to load/);
    expect(client.lost).toBe(true);
    client.fail('again');
    await expect(client.trainer({ model: raft.model, seed: raft.seed, backend: 'cpu' }, { nodes: 4 })).rejects.toThrow(/engineHost failed to load/);
    expect(letGo).toBe(1);
  });

  it('runs forks on the trainer they share, keeps it when a run goes, and lets go of it when the page says', async () => {
    const client = connected();
    const seed = 7001;
    const sc = { ...raft, seed };
    const trainer = await client.trainer({ model: sc.model, seed, backend: 'cpu' }, { nodes: sc.cluster.workers });
    const [a, b] = await Promise.all([client.create(sc, trainer), client.create(sc, trainer)]);
    expect(started.filter((x) => x === seed)).toHaveLength(1);
    await Promise.all([a.advanceTo(2000), b.advanceTo(2000)]);
    expect(lines(b.history)).toEqual(lines(a.history));
    await a.dispose();
    await b.advanceTo(3000); // its trainer is still there
    expect(disposed).not.toContain(seed);
    await Promise.all([trainer.dispose(), trainer.dispose()]);
    expect(disposed.filter((x) => x === seed)).toHaveLength(1);
    await expect(client.create(sc, trainer)).rejects.toThrow(/no trainer/);
    await expect(b.advanceTo(4000)).rejects.toThrow(/no run/); // the runs on it went with it
    await expect(trainer.injectFault('w0')).rejects.toThrow(/no trainer/);
  });
});
