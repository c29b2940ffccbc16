import { describe, expect, it } from 'vitest';
import { loadBuiltin } from './builtins';
import { parseSweepArgs, runSweep, shapeOf } from './sweep';

describe('npm run sweep', () => {
  it('parses its arguments and refuses unknown metrics', () => {
    const p = parseSweepArgs(['ssp-bounded-staleness', '--knob', 'staleness', '--values', '0,1,inf', '--metric', 'timeToTarget', '--json']);
    expect(p.ok && 'args' in p && p.args.values).toEqual([0, 1, 'inf']);
    expect(parseSweepArgs(['x', '--knob', 'k', '--values', '1', '--metric', 'nope']).ok).toBe(false);
  });

  it('shows the U of TRUTHS shape 2 on ssp-bounded-staleness: time-to-target is best strictly between s = 0 and s = ∞', async () => {
    const v = loadBuiltin('ssp-bounded-staleness');
    if (!v.ok) throw new Error(v.errors.join('\n'));
    const args = { target: 'ssp-bounded-staleness', knob: 'staleness', values: [0, 1, 2, 4, 8, 'inf'], metric: 'timeToTarget' as const, at: 29900, json: true };
    const rows = await runSweep(v.scenario, args);
    const s = shapeOf(rows);
    expect(s.u).toBe(true);
    expect(rows[s.argmin].metric!).toBeLessThan(rows[0].metric ?? Infinity);
    expect(rows[s.argmin].metric!).toBeLessThan(rows[rows.length - 1].metric ?? Infinity);
  }, 60000);
});
