import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveVariant, validateScenario } from '../scenario/validate';
import { LocalTrainer } from '../train/localTrainer';
import { Simulation } from './simulation';

/** Every built-in scenario is a test: it must run to its end with every expectation holding. */
const dir = new URL('../../public/scenarios/', import.meta.url);
const ids = (JSON.parse(readFileSync(new URL('index.json', dir), 'utf8')) as string[]).slice();

/** Every variant of every built-in, as [id, variant] (CURRICULUM §C.1: variants run with the base seed). */
const variants: Array<[string, string]> = ids.flatMap((id) => {
  const v = validateScenario(JSON.parse(readFileSync(new URL(`${id}.json`, dir), 'utf8')));
  return v.ok ? (v.scenario.variants ?? []).map((x): [string, string] => [id, x.id]) : [];
});

describe('built-in scenarios', () => {
  it('the index lists every scenario file', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json').map((f) => f.replace(/\.json$/, ''));
    expect([...ids].sort()).toEqual(files.sort());
  });

  it.each(ids)('%s replays to the end with all expectations passing', async (id) => {
    const v = validateScenario(JSON.parse(readFileSync(new URL(`${id}.json`, dir), 'utf8')));
    if (!v.ok) throw new Error(v.errors.join('\n'));
    // The 101,770-parameter Fashion-MNIST model runs on wasm (3–4× faster than cpu for it; the
    // schedule does not depend on the backend, and the expectations leave room for float32 noise).
    const backend = v.scenario.model.dataset === 'fashion-mnist' ? 'wasm' : 'cpu';
    const trainer = await LocalTrainer.create({ model: v.scenario.model, seed: v.scenario.seed, backend });
    const sim = await Simulation.create(v.scenario, { trainer });
    const s = await sim.runToEnd();
    const failed = s.expectations.filter((e) => !e.pass);
    expect(failed).toEqual([]);
    expect(s.expectations.length).toBeGreaterThan(0);
    expect(s.simTimeMs).toBe(v.scenario.durationMs);
  });

  it.runIf(variants.length > 0).each(variants)('%s, variant %s, replays to the end with all its expectations passing', async (id, variant) => {
    const v = validateScenario(JSON.parse(readFileSync(new URL(`${id}.json`, dir), 'utf8')));
    if (!v.ok) throw new Error(v.errors.join('\n'));
    const r = resolveVariant(v.scenario, variant);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.scenario.seed).toBe(v.scenario.seed);
    const trainer = await LocalTrainer.create({ model: r.scenario.model, seed: r.scenario.seed, backend: 'cpu' });
    const sim = await Simulation.create(r.scenario, { trainer });
    const s = await sim.runToEnd();
    expect(s.expectations.filter((e) => !e.pass)).toEqual([]);
    expect(s.expectations.length).toBeGreaterThan(0);
    expect(s.simTimeMs).toBe(r.scenario.durationMs);
  });
});
