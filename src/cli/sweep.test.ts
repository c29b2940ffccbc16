import { describe, expect, it } from 'vitest';
import { loadBuiltin } from './builtins';
import { parseSweepArgs, runSweep, shapeOf, sweepRuns, type SweepArgs } from './sweep';

function builtin(id: string) {
  const v = loadBuiltin(id);
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return v.scenario;
}

describe('npm run sweep', () => {
  it('parses its arguments and refuses unknown metrics', () => {
    const p = parseSweepArgs(['ssp-bounded-staleness', '--knob', 'staleness', '--values', '0,1,inf', '--metric', 'timeToTarget', '--json']);
    expect(p.ok && 'args' in p && p.args.values).toEqual([0, 1, 'inf']);
    expect(parseSweepArgs(['x', '--knob', 'k', '--values', '1', '--metric', 'nope']).ok).toBe(false);
  });

  it('answers --help and -h with its usage; --seed and --backend are checked as sim checks them', () => {
    expect(parseSweepArgs(['--help'])).toEqual({ ok: true, help: true });
    expect(parseSweepArgs(['x', '--knob', 'k', '-h'])).toEqual({ ok: true, help: true });
    const base = ['x', '--knob', 'staleness', '--values', '1', '--metric', 'steps'];
    const p = parseSweepArgs([...base, '--seed', '7', '--backend', 'wasm']);
    expect(p.ok && 'args' in p && [p.args.seed, p.args.backend]).toEqual([7, 'wasm']);
    expect(parseSweepArgs([...base, '--seed', '1.5'])).toEqual({ ok: false, error: '--seed: "1.5" is not an integer' });
    expect(parseSweepArgs([...base, '--backend', 'webgl'])).toEqual({ ok: false, error: '--backend: "webgl" is not one of cpu, wasm' });
    expect(parseSweepArgs(['x', '--knob', 'staleness', '--values', ',', '--metric', 'steps'])).toEqual({ ok: false, error: '--values: no value given' });
  });

  it('checks every value before running any: a bad one is named with its field, the others not run', () => {
    const sc = builtin('ssp-bounded-staleness');
    const args: SweepArgs = { target: sc.id, knob: 'staleness', values: [0, 2, 'abc', -1], metric: 'steps', json: false };
    const r = sweepRuns(sc, args);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(2);
    expect(r.errors[0]).toMatch(/^staleness=abc: strategy\.staleness: /);
    expect(r.errors[1]).toMatch(/^staleness=-1: strategy\.staleness: /);
    // A misspelt knob is an unknown field, with the suggestion the scenario checker makes.
    const typo = sweepRuns(sc, { ...args, knob: 'stalenes', values: [1] });
    expect(typo).toEqual({ ok: false, errors: ['stalenes=1: strategy: unknown field "stalenes" (did you mean "staleness"?)'] });
    // A metric a value's run does not measure: named with the value (rounds are lock-step's, s = 0 only).
    expect(sweepRuns(sc, { ...args, values: [0, 2], metric: 'sentPerRound' })).toEqual({
      ok: false,
      errors: ['staleness=2: --metric: a run of strategy "ssp" does not measure "sentPerRound" (beyond the engine\'s metrics it measures maxClockGap, waitFraction)'],
    });
    // --seed replaces the scenario's seed in every run.
    const seeded = sweepRuns(sc, { ...args, values: [0, 1], seed: 99 });
    expect(seeded.ok && seeded.runs.map((x) => [x.index, x.value, x.scenario.seed])).toEqual([
      [0, 0, 99],
      [1, 1, 99],
    ]);
  });

  it('shows the U of TRUTHS shape 2 on ssp-bounded-staleness: time-to-target is best strictly between s = 0 and s = ∞', async () => {
    const sc = builtin('ssp-bounded-staleness');
    const args: SweepArgs = { target: 'ssp-bounded-staleness', knob: 'staleness', values: [0, 1, 2, 4, 8, 'inf'], metric: 'timeToTarget', at: 29900, json: true };
    const runs = sweepRuns(sc, args);
    if (!runs.ok) throw new Error(runs.errors.join('\n'));
    const rows = await runSweep(runs.runs, args);
    const s = shapeOf(rows);
    expect(s.u).toBe(true);
    expect(rows[s.argmin].metric!).toBeLessThan(rows[0].metric ?? Infinity);
    expect(rows[s.argmin].metric!).toBeLessThan(rows[rows.length - 1].metric ?? Infinity);
  }, 60000);
});
