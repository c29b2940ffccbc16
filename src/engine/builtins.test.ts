import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../scenario/validate';
import { LocalTrainer } from '../train/localTrainer';
import { Simulation } from './simulation';

/** Every built-in scenario is a test: it must run to its end with every expectation holding. */
const dir = new URL('../../public/scenarios/', import.meta.url);
const ids = (JSON.parse(readFileSync(new URL('index.json', dir), 'utf8')) as string[]).slice();

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
});
