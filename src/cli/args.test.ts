import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './args';

describe('parseCliArgs', () => {
  it('reads a target and every option', () => {
    expect(parseCliArgs(['async-partition', '--seed', '7', '--until=9000', '--json', '--log', 'out.jsonl', '--backend', 'wasm'])).toEqual({
      ok: true,
      args: { target: 'async-partition', seed: 7, untilMs: 9000, json: true, log: 'out.jsonl', backend: 'wasm' },
    });
  });

  it('--samples takes a file name', () => {
    expect(parseCliArgs(['x', '--samples', 'out.csv'])).toMatchObject({ ok: true, args: { samples: 'out.csv' } });
    expect(parseCliArgs(['x', '--samples='])).toEqual({ ok: false, errors: ['--samples: empty file name'] });
    expect(parseCliArgs(['x', '--samples'])).toEqual({ ok: false, errors: ['--samples needs a value'] });
  });

  it('defaults', () => {
    expect(parseCliArgs(['s.json'])).toEqual({ ok: true, args: { target: 's.json', json: false, backend: 'cpu' } });
  });

  it('negative seeds and a target after --', () => {
    expect(parseCliArgs(['--seed', '-3', 'x'])).toMatchObject({ ok: true, args: { seed: -3, target: 'x' } });
    expect(parseCliArgs(['--', '-odd-name.json'])).toMatchObject({ ok: true, args: { target: '-odd-name.json' } });
  });

  it('help wins over everything else', () => {
    expect(parseCliArgs(['--help'])).toEqual({ ok: true, help: true });
    expect(parseCliArgs(['-h', '--bogus'])).toEqual({ ok: true, help: true });
  });

  const bad: Array<[string[], string[]]> = [
    [[], ['missing scenario: give a scenario file or a built-in id']],
    [['a', 'b'], ['expected one scenario, got 2: "a" "b"']],
    [['x', '--fast'], ['unknown option "--fast"']],
    [['x', '--sed=3'], ['unknown option "--sed" (did you mean --seed?)']],
    [['x', '--Json'], ['unknown option "--Json" (did you mean --json?)']],
    [['x', '-v'], ['unknown option "-v"']],
    [['x', '--seed', 'abc'], ['--seed: "abc" is not an integer']],
    [['x', '--seed', '1.5'], ['--seed: "1.5" is not an integer']],
    [['x', '--seed'], ['--seed needs a value']],
    [['x', '--seed', '--json'], ['--seed needs a value']],
    [['x', '--until', '0'], ['--until: "0" is not a positive number of simulated milliseconds']],
    [['x', '--until', 'soon'], ['--until: "soon" is not a positive number of simulated milliseconds']],
    [['x', '--backend', 'webgpu'], ['--backend: "webgpu" is not one of cpu, wasm']],
    [['x', '--json=yes'], ['--json takes no value (got "yes")']],
    [['x', '--log='], ['--log: empty file name']],
    [['x', '--history='], ['--history: empty file name']],
    [['x', '--seed', '1', '--seed', '2'], ['--seed given more than once']],
  ];
  it.each(bad)('%j is rejected', (argv, errors) => {
    expect(parseCliArgs(argv)).toEqual({ ok: false, errors });
  });

  it('reports every problem at once', () => {
    const r = parseCliArgs(['--seed', 'x', '--backend', 'gpu']);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toHaveLength(3);
  });
});
