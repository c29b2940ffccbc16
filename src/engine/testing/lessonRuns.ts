import { readFileSync } from 'node:fs';
import type { RunSummary } from '../api';
import type { SampleSeries } from '../index/metricAt';
import { SampleList } from '../index/metricSamples';
import type { LessonRun } from '../lessonVerdict';
import { resolveVariant, validateScenario } from '../../scenario/validate';
import type { Scenario } from '../../scenario/schema';
import { baseIdOf } from '../../scenario/variants';
import { LocalTrainer } from '../../train/localTrainer';
import { Simulation } from '../simulation';

/**
 * Real runs of the built-ins for tests (tfjs on cpu, as the CLI runs them), each run once per
 * test file and kept: the per-run checks, the lesson's comparisons and shapes, and the texts'
 * placeholders all read the same runs.
 */

const dir = new URL('../../../public/scenarios/', import.meta.url);

export function builtinIndex(): string[] {
  return JSON.parse(readFileSync(new URL('index.json', dir), 'utf8')) as string[];
}

export function loadBuiltinFile(id: string): Scenario {
  const v = validateScenario(JSON.parse(readFileSync(new URL(`${id}.json`, dir), 'utf8')));
  if (!v.ok) throw new Error(`${id}: ${v.errors.join('\n')}`);
  return v.scenario;
}

export interface TestRun {
  scenario: Scenario;
  summary: RunSummary;
  samples: SampleSeries;
}

const cache = new Map<string, Promise<TestRun>>();

/** The run of `variant` (null or the base's id: the base) of built-in `id`, with an optional seed override. */
export function runOf(id: string, variant: string | null, seed?: number): Promise<TestRun> {
  const key = `${id}|${variant ?? ''}|${seed ?? ''}`;
  let p = cache.get(key);
  if (!p) {
    p = (async () => {
      let base = loadBuiltinFile(id);
      if (seed !== undefined) base = { ...base, seed };
      let sc = base;
      if (variant !== null) {
        const r = resolveVariant(base, variant);
        if (!r.ok) throw new Error(r.errors.join('\n'));
        sc = r.scenario;
      }
      // The 101,770-parameter Fashion-MNIST model runs on wasm (3–4× faster than cpu for it; the
      // schedule does not depend on the backend, and the expectations leave room for float32 noise).
      const backend = sc.model.dataset === 'fashion-mnist' ? 'wasm' : 'cpu';
      const trainer = await LocalTrainer.create({ model: sc.model, seed: sc.seed, backend });
      try {
        const sim = await Simulation.create(sc, { trainer });
        const summary = await sim.runToEnd();
        if (sim.failure) throw new Error(sim.failure);
        // The samples only: a run's whole history is too large to keep for every lesson run.
        return { scenario: sc, summary, samples: new SampleList([...sim.index().metrics]) };
      } finally {
        await trainer.dispose();
      }
    })();
    cache.set(key, p);
  }
  return p;
}

/** Every run of a lesson, keyed as lessonVerdict wants them (the base under its own id). */
export async function lessonRunsOf(id: string, seed?: number): Promise<Map<string, LessonRun>> {
  const base = loadBuiltinFile(id);
  const runs = new Map<string, LessonRun>();
  const b = await runOf(id, null, seed);
  runs.set(baseIdOf(base), { samples: b.samples, durationMs: b.scenario.durationMs });
  for (const v of base.variants ?? []) {
    const r = await runOf(id, v.id, seed);
    runs.set(v.id, { samples: r.samples, durationMs: r.scenario.durationMs });
  }
  return runs;
}
