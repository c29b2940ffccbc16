import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lessonVerdict } from './lessonVerdict';
import { valuedButUnmeasured } from './testing/measuredCheck';
import { builtinIndex, lessonRunsOf, loadBuiltinFile, runOf } from './testing/lessonRuns';

/**
 * Every built-in scenario is a test: it must run to its end with every expectation holding — its
 * base and every variant (CURRICULUM §C.1: variants run with the base seed), then the lesson's
 * comparisons and shapes (CURRICULUM §C.7), judged from the runs' samples as the CLI judges them.
 */
const ids = builtinIndex();

/** Every variant of every built-in, as [id, variant]. */
const variants: Array<[string, string]> = ids.flatMap((id) => (loadBuiltinFile(id).variants ?? []).map((x): [string, string] => [id, x.id]));
const withVerdicts = ids.filter((id) => {
  const s = loadBuiltinFile(id);
  return s.expect.some((e) => e.than !== undefined || e.thanAt !== undefined) || (s.shapes?.length ?? 0) > 0;
});

describe('built-in scenarios', () => {
  it('the index lists every scenario file', () => {
    const files = readdirSync(new URL('../../public/scenarios/', import.meta.url))
      .filter((f) => f.endsWith('.json') && f !== 'index.json')
      .map((f) => f.replace(/\.json$/, ''));
    expect([...ids].sort()).toEqual(files.sort());
  });

  it.each(ids)('%s replays to the end with all expectations passing', async (id) => {
    const { summary, scenario } = await runOf(id, null);
    expect(summary.expectations.filter((e) => !e.pass)).toEqual([]);
    expect(summary.simTimeMs).toBe(scenario.durationMs);
  });

  it.runIf(variants.length > 0).each(variants)('%s, variant %s, replays to the end with all its expectations passing', async (id, variant) => {
    const { summary, scenario } = await runOf(id, variant);
    expect(scenario.seed).toBe(loadBuiltinFile(id).seed);
    expect(summary.expectations.filter((e) => !e.pass)).toEqual([]);
    expect(summary.simTimeMs).toBe(scenario.durationMs);
  });

  const everyRun = [...ids.map((id): [string, string, string | null] => [id, 'base', null]), ...variants.map(([id, v]): [string, string, string | null] => [id, `variant ${v}`, v])];
  it.each(everyRun)('%s (%s): every metric it gives a value to is one the validator lets an expectation name', async (id, _label, variant) => {
    const { scenario, samples } = await runOf(id, variant);
    expect(samples.length).toBeGreaterThan(0);
    expect(valuedButUnmeasured(scenario, samples)).toEqual([]);
  });

  it.each(ids)('%s has expectations (its base or a variant)', async (id) => {
    const s = loadBuiltinFile(id);
    const own = (await runOf(id, null)).summary.expectations.length;
    expect(own + s.expect.filter((e) => e.variant !== undefined).length).toBeGreaterThan(0);
  });

  it.runIf(withVerdicts.length > 0).each(withVerdicts)('%s: every comparison and shape holds', async (id) => {
    const v = lessonVerdict(loadBuiltinFile(id), await lessonRunsOf(id));
    const failed = [...[...v.comparisons.entries()].flatMap(([run, list]) => list.filter((c) => c.pass !== true).map((c) => ({ run, ...c }))), ...v.shapes.filter((sh) => sh.pass !== true)];
    expect(failed).toEqual([]);
    expect(v.pass).toBe(true);
  });
});
