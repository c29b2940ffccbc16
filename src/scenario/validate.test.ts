import { readFileSync } from 'node:fs';
import { strategies } from '../protocols';
import { describe, expect, it } from 'vitest';
import { validateScenario } from './validate';
import { parseScenarioText } from './loader';
import { formatPath } from './issues';
import { findJsonError, parseJson } from './json';

const base = {
  schema: 1,
  id: 'test',
  seed: 7,
  durationMs: 20000,
  cluster: { workers: 4 },
  strategy: { kind: 'allreduce' },
};

function errorsOf(input: unknown): string[] {
  const r = validateScenario(input);
  if (r.ok) throw new Error('expected the scenario to be rejected');
  return r.errors;
}

describe('validateScenario: good files', () => {
  it('accepts the minimal file and fills in every default', () => {
    const r = validateScenario(base);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.cluster).toEqual({ workers: 4, servers: 0, brokers: 0, coord: 0 });
    expect(r.scenario.model.dataset).toBe('spiral');
    expect(r.scenario.network.latencyMs).toBe(10);
    expect(r.scenario.compute.stragglers).toEqual([]);
    expect(r.scenario.timeline).toEqual([]);
    expect(r.scenario.expect).toEqual([]);
    expect(r.scenario.title.en).toBeTruthy();
    expect(r.scenario.strategy).toMatchObject({ kind: 'allreduce' });
  });

  it('accepts the CONTRACTS example (with servers for s0 in a partition)', () => {
    const r = validateScenario({
      ...base,
      cluster: { workers: 4, servers: 1, brokers: 0 },
      strategy: { kind: 'ps-async' },
      compute: { stepMs: 200, jitter: 0.1, stragglers: [{ node: 'w3', slowdown: 4 }] },
      timeline: [
        { at: 5000, do: 'partition', groups: [['w0', 'w1', 's0'], ['w2', 'w3']] },
        { at: 6000, do: 'cut', from: 'w0', to: 's0', oneWay: true },
        { at: 7000, do: 'link', from: 'w1', to: 's0', latencyMs: 50, loss: 0.1 },
        { at: 8000, do: 'slow', node: 'w2', factor: 3 },
        { at: 9000, do: 'crash', node: 's0' },
        { at: 10000, do: 'restart', node: 's0' },
        { at: 12000, do: 'heal' },
      ],
      expect: [
        { at: 11900, metric: 'divergence', op: '>', value: 0 },
        { at: 'end', metric: 'steps', node: 'w2', op: '>', value: 10, tolerance: 1 },
      ],
    });
    expect(r).toMatchObject({ ok: true });
  });
});

describe('validateScenario: bad files, one readable line each', () => {
  const table: Array<[string, unknown, string[]]> = [
    [
      'Krum on too few workers names the rule and the bound',
      { ...base, cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-sync', aggregation: 'krum' } },
      ['strategy.aggregation: krum needs n > 2f + 2 gradients per round (Blanchard et al. 2017); with f = 1 that is at least 5, got n = 4'],
    ],
    [
      'multi-Krum counts the gradients a round aggregates (backup workers excluded)',
      { ...base, cluster: { workers: 7, servers: 1 }, strategy: { kind: 'ps-sync', aggregation: 'multi-krum', f: 2, backupWorkers: 1 } },
      ['strategy.aggregation: multi-krum needs n > 2f + 2 gradients per round (Blanchard et al. 2017); with f = 2 that is at least 7, got n = 6 (n = workers − backupWorkers)'],
    ],
    [
      'a digest on a strategy without parameter-server updates',
      { ...base, security: { integrity: 'hmac' } },
      ['security: strategy "allreduce" sends no parameter-server updates to protect with a digest, a tag or a sequence number; "tls" covers every record (only ps-sync, ps-async, ssp, raft-ps, kafka-ps, paxos-ps, 2pc-ps do)'],
    ],
    [
      'a man-in-the-middle on a ring',
      { ...base, timeline: [{ at: 5, do: 'tamper', from: 'w0', to: 'w1', attack: 'flip' }] },
      ['timeline[0].do: strategy "allreduce" sends no parameter-server updates to alter (only ps-sync, ps-async, ssp, raft-ps, kafka-ps, paxos-ps, 2pc-ps do)'],
    ],
    [
      'an unknown integrity check',
      { ...base, security: { integrity: 'md5' } },
      ['security.integrity: expected one of "none", "sha256", "hmac", "tls", got "md5"'],
    ],
    [
      'a Byzantine server',
      { ...base, cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-sync' }, timeline: [{ at: 1, do: 'byzantine', node: 's0', attack: 'alie' }] },
      ['timeline[0].node: expected a worker id such as "w0" (only a worker computes gradients), got "s0"'],
    ],
    [
      'unknown node in partition groups',
      { ...base, timeline: [{ at: 1000, do: 'heal' }, { at: 2000, do: 'partition', groups: [['w0', 'w9'], ['w2']] }] },
      ['timeline[1].groups: node "w9" does not exist (cluster has w0-w3)'],
    ],
    [
      'unknown node names the servers too',
      { ...base, cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-async' }, timeline: [{ at: 1, do: 'heal' }, { at: 2, do: 'partition', groups: [['w0'], ['w9']] }] },
      ['timeline[1].groups: node "w9" does not exist (cluster has w0-w3, s0)'],
    ],
    [
      'node listed twice in groups',
      { ...base, timeline: [{ at: 1, do: 'partition', groups: [['w0', 'w1'], ['w1', 'w2']] }] },
      ['timeline[0].groups: node "w1" is listed more than once'],
    ],
    [
      'unknown node in expect',
      { ...base, expect: [{ at: 'end', metric: 'steps', node: 's0', op: '>', value: 1 }] },
      ['expect[0].node: node "s0" does not exist (cluster has w0-w3)'],
    ],
    [
      'unknown node in stragglers',
      { ...base, compute: { stragglers: [{ node: 'w4', slowdown: 2 }] } },
      ['compute.stragglers[0].node: node "w4" does not exist (cluster has w0-w3)'],
    ],
    [
      'cut from a node to itself',
      { ...base, timeline: [{ at: 1, do: 'cut', from: 'w1', to: 'w1' }] },
      ['timeline[0].to: "from" and "to" are the same node ("w1"); a link joins two nodes'],
    ],
    [
      'times after the end',
      { ...base, timeline: [{ at: 20001, do: 'heal' }], expect: [{ at: 30000, metric: 'steps', op: '>', value: 1 }] },
      ['timeline[0].at: 20001 is after the end of the run (durationMs 20000)', 'expect[0].at: 30000 is after the end of the run (durationMs 20000)'],
    ],
    [
      'ps-async without servers',
      { ...base, strategy: { kind: 'ps-async' } },
      ['cluster.servers: strategy "ps-async" needs at least 1 server (got 0)'],
    ],
    [
      'allreduce with one worker',
      { ...base, cluster: { workers: 1 } },
      ['cluster.workers: strategy "allreduce" needs at least 2 workers (got 1)'],
    ],
    [
      'unknown action lists the valid ones',
      { ...base, timeline: [{ at: 1, do: 'explode', node: 'w0' }] },
      ['timeline[0].do: unknown action "explode"; valid actions: partition, heal, cut, restore, crash, restart, slow, timeout, link, pause, putMeta, tamper, untamper, byzantine, honest, submit, network'],
    ],
    [
      'missing action',
      { ...base, timeline: [{ at: 1 }] },
      ['timeline[0].do: missing action; valid actions: partition, heal, cut, restore, crash, restart, slow, timeout, link, pause, putMeta, tamper, untamper, byzantine, honest, submit, network'],
    ],
    [
      'unknown strategy',
      { ...base, strategy: { kind: 'gossip' } },
      // Every registered strategy is listed, whichever are registered.
      [`strategy.kind: unknown strategy "gossip"; valid strategies: ${strategies.map((x) => x.kind).join(', ')}`],
    ],
    [
      'unknown field at top level, with a hint',
      { ...base, durationMS: 5 },
      ['scenario: unknown field "durationMS" (did you mean "durationMs"?)'],
    ],
    [
      'unknown field in a timeline entry',
      { ...base, timeline: [{ at: 1, do: 'heal', when: 3 }] },
      ['timeline[0]: unknown field "when"'],
    ],
    [
      'unknown field in a nested object',
      { ...base, network: { latency: 5 } },
      ['network: unknown field "latency" (did you mean "latencyMs"?)'],
    ],
    [
      'wrong types say what was expected and what was given',
      { ...base, seed: 'seven', cluster: { workers: '4' }, model: { hidden: 8 } },
      ['seed: expected a number, got a string ("seven")', 'cluster.workers: expected a number, got a string ("4")', 'model.hidden: expected an array, got the number 8'],
    ],
    [
      'non-integer seed',
      { ...base, seed: 1.5 },
      ['seed: expected an integer, got 1.5'],
    ],
    [
      'deep path into groups',
      { ...base, timeline: [{ at: 1, do: 'partition', groups: [['w0', 3], ['w1']] }] },
      ['timeline[0].groups[0][1]: expected a string, got the number 3'],
    ],
    [
      'bad node id format',
      { ...base, timeline: [{ at: 1, do: 'crash', node: 'worker1' }] },
      ['timeline[0].node: expected a node id such as "w0", or "@leader" / "@crashed", got "worker1"'],
    ],
    [
      'missing required fields',
      { schema: 1, id: 'x', cluster: { workers: 2 }, strategy: { kind: 'allreduce' } },
      ['seed: missing (expected a number)', 'durationMs: missing (expected a number)'],
    ],
    [
      'at is a number or "end"',
      { ...base, expect: [{ at: 'start', metric: 'steps', op: '>', value: 1 }] },
      ['expect[0].at: expected a number or "end", got a string ("start")'],
    ],
    [
      'unknown metric and op',
      { ...base, expect: [{ at: 'end', metric: 'speed', op: '=', value: 1 }] },
      [
        expect.stringMatching(/^expect\[0\]\.metric: expected one of "divergence", .*got "speed"$/) as unknown as string,
        'expect[0].op: expected one of "==", "!=", "<", "<=", ">", ">=", got "="',
      ],
    ],
    [
      'a too-short partition',
      { ...base, timeline: [{ at: 1, do: 'partition', groups: [['w0']] }] },
      ['timeline[0].groups: needs at least 2 items (got 1)'],
    ],
    [
      'negative time',
      { ...base, timeline: [{ at: -5, do: 'heal' }] },
      ['timeline[0].at: must be >= 0, got -5'],
    ],
    [
      'newer schema version',
      { ...base, schema: 2 },
      ['schema: unsupported schema version 2; this version of CAP Playground reads schema 1'],
    ],
    ['not an object', [1, 2], ['scenario: expected an object, got an array']],
  ];

  it.each(table)('%s', (_name, input, expected) => {
    expect(errorsOf(input)).toEqual(expected);
  });

  it('never throws, whatever it is given', () => {
    for (const x of [undefined, null, 0, 'x', [], {}, { schema: 1 }, { timeline: 5 }]) {
      const r = validateScenario(x);
      expect(r.ok).toBe(false);
      if (!r.ok) for (const line of r.errors) expect(line).not.toMatch(/\n|at .*\.ts:\d+/);
    }
  });

  it('caps a flood of problems', () => {
    const timeline = Array.from({ length: 40 }, (_, i) => ({ at: i, do: 'crash', node: `w${i + 10}` }));
    const errors = errorsOf({ ...base, timeline });
    expect(errors).toHaveLength(26);
    expect(errors[25]).toBe('… and 15 more problems');
  });
});

describe('JSON syntax errors carry line and column', () => {
  const cases: Array<[string, string]> = [
    ['{\n  "a": 1,\n  "b": }', 'line 3, column 8: unexpected "}", expected a value'],
    ['{"a" 1}', 'line 1, column 6: unexpected "1", expected ":" after the property name'],
    ['', 'line 1, column 1: the file is empty'],
    ['{"a": 1', 'line 1, column 8: unexpected end of input, expected "," or "}"'],
    ['[1,]', 'line 1, column 4: trailing comma before "]"'],
    ['{\n  "a": 1,\n}', 'line 3, column 1: trailing comma before "}"'],
    ["{'a': 1}", 'line 1, column 2: property names need double quotes, not single quotes'],
    ['{\n\n  "x": tru }', 'line 3, column 8: unexpected word "tru"; strings need double quotes, literals are true, false and null'],
    ['{"a": 1} x', 'line 1, column 10: unexpected "x", expected end of input after the JSON value'],
  ];
  it.each(cases)('%j', (text, message) => {
    expect(parseJson(text)).toMatchObject({ ok: false, error: message });
    expect(parseScenarioText(text)).toMatchObject({ ok: false, errors: [message] });
  });

  it('agrees with JSON.parse on valid input, including a byte-order mark', () => {
    for (const t of ['{}', '[]', '0', '-1.5e3', '"\\u00e9\\n"', '{"a":[true,false,null,{"b":"中文"}]}', ' \n {"a" : 1 } \n']) {
      expect(findJsonError(t)).toBeUndefined();
      expect(parseJson(t)).toEqual({ ok: true, value: JSON.parse(t) });
    }
    expect(parseJson('\uFEFF{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });
});

describe('formatPath', () => {
  it('writes paths as a user would', () => {
    expect(formatPath(['timeline', 2, 'groups', 0, 1])).toBe('timeline[2].groups[0][1]');
    expect(formatPath(['strategy', 'kind'])).toBe('strategy.kind');
    expect(formatPath(['strategy', 'max.message.delay.ms'])).toBe('strategy["max.message.delay.ms"]');
    expect(formatPath([])).toBe('');
  });
});

describe('validateScenario: who did a user action (a live room’s export)', () => {
  it('keeps `who` next to `by: "user"` and rejects an empty one by name', () => {
    const r = validateScenario({ ...base, timeline: [{ at: 1200, by: 'user', who: 'Ana (w2)', do: 'crash', node: 'w2' }] });
    expect(r.ok && r.scenario.timeline[0]).toEqual({ at: 1200, by: 'user', who: 'Ana (w2)', do: 'crash', node: 'w2' });
    expect(errorsOf({ ...base, timeline: [{ at: 1200, by: 'user', who: '', do: 'crash', node: 'w2' }] }).join('\n')).toMatch(/^timeline\[0\]\.who: /m);
  });
});

describe('a lesson step’s `when` (a union of shapes) that fits none', () => {
  const lesson = () => JSON.parse(readFileSync('public/scenarios/cap-partition-choice.json', 'utf8')) as { acts: Array<{ steps: Array<{ when: unknown }> }> };
  const whenErrors = (when: unknown) => {
    const l = lesson();
    l.acts[0].steps[1].when = when;
    return errorsOf(l);
  };
  it('names what the closest shape still needs, not every shape’s first wish', () => {
    // Was: "acts[0].steps[1].when: expected a number or a string or a string or a number or true, got an object".
    expect(whenErrors({ afterStep: 'n1' })).toEqual(['acts[0].steps[1].when.delayMs: missing (expected a number)']);
    expect(whenErrors({ event: 'leaderElected', aftr: 100 })).toEqual(['acts[0].steps[1].when: unknown field "aftr" (did you mean "after"?)']);
    expect(whenErrors({ metric: 'loss', op: '=<', value: 1 })).toEqual(['acts[0].steps[1].when.op: expected one of "==", "!=", "<", "<=", ">", ">=", got "=<"']);
  });
  it('says each wish once when nothing fits', () => {
    expect(whenErrors(5)).toEqual(['acts[0].steps[1].when: expected an object, got the number 5']);
  });
  it('refuses a trigger or a number on a metric its run does not measure (it would never fire, or read "—")', () => {
    // The lesson's base is the ring ("ring"); its variant "async" is a parameter server.
    expect(whenErrors({ metric: 'commitIndex', op: '>=', value: 1 })).toEqual([
      'acts[0].steps[1].when.metric: a run of strategy "allreduce" does not measure "commitIndex" (beyond the engine\'s metrics it measures sentPerRound, syncMs)',
    ]);
    const ok = lesson();
    ok.acts[0].steps[1].when = { metric: 'syncMs', op: '>=', value: 1 };
    expect(validateScenario(ok).ok).toBe(true);
    const l = lesson() as unknown as { acts: Array<{ steps: Array<{ text: { en: string; zh: string } }> }> };
    l.acts[0].steps[1].text = { en: 'rounds took {{ring:syncMs@end}} ms; the server {{async:syncMs@end}}', zh: '轮次 {{ring:syncMs@end}} 毫秒' };
    const errors = errorsOf(l);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^acts\[0\]\.steps\[1\]\.text\.en: .*\{\{async:syncMs@end\}\}.*a run of strategy "ps-async" in variant "async" does not measure "syncMs"/);
  });
});

describe('an expectation on a metric the run does not measure', () => {
  const check = (metric: string, extra: Record<string, unknown> = {}) => ({ at: 'end', metric, op: '>=', value: 0, ...extra });

  it('is refused, naming the strategy and what it measures beyond the engine (whose leaders is 0 where nothing leads)', () => {
    expect(errorsOf({ ...base, strategy: { kind: 'ps-sync' }, cluster: { workers: 4, servers: 1 }, expect: [check('availability'), check('leaders'), check('term')] })).toEqual([
      'expect[2].metric: a run of strategy "ps-sync" does not measure "term" (beyond the engine\'s metrics it measures delayedRounds, waitFraction, sentPerRound, syncMs)',
    ]);
    // A plain ring measures the engine's metrics and its rounds; consumer lag is Kafka's.
    expect(errorsOf({ ...base, expect: [check('consumerLag')] })[0]).toContain('"allreduce" does not measure "consumerLag"');
    // A knob that turns the measurement on: Raft's rejectedWrites needs a request size limit.
    const raft = { ...base, cluster: { workers: 4, servers: 3 }, strategy: { kind: 'raft-ps' }, expect: [check('rejectedWrites')] };
    expect(errorsOf(raft)[0]).toContain('"raft-ps" does not measure "rejectedWrites"');
    expect(validateScenario({ ...raft, strategy: { kind: 'raft-ps', maxRequestBytes: 4096 } }).ok).toBe(true);
  });

  it('is accepted where another part of the run measures it: a coordination service has terms and reads', () => {
    const sync = { ...base, strategy: { kind: 'ps-sync' }, expect: [check('term'), check('staleReads')] };
    expect(validateScenario({ ...sync, cluster: { workers: 4, servers: 1, coord: 3 } }).ok).toBe(true);
    expect(errorsOf({ ...sync, cluster: { workers: 4, servers: 1 } })).toHaveLength(2);
  });

  it('is judged on the run of the variant it names; "*" is refused once where the base lacks it', () => {
    const raft = { ...base, cluster: { workers: 4, servers: 3 }, strategy: { kind: 'raft-ps' }, variants: [{ id: 'ring', patch: { strategy: { kind: 'allreduce' } } }] };
    expect(errorsOf({ ...raft, expect: [check('term', { variant: 'ring' })] })).toEqual([
      'expect[0].metric: a run of strategy "allreduce" in variant "ring" does not measure "term" (beyond the engine\'s metrics it measures sentPerRound, syncMs)',
    ]);
    expect(errorsOf({ ...raft, expect: [check('term', { variant: '*' })] })).toEqual([expect.stringContaining('in variant "ring" does not measure "term"')]);
    expect(errorsOf({ ...base, variants: [{ id: 'raft', patch: { cluster: { workers: 4, servers: 3 }, strategy: { kind: 'raft-ps' } } }], expect: [check('term', { variant: '*' })] })).toEqual([
      expect.stringContaining('a run of strategy "allreduce" does not measure "term"'),
    ]);
    expect(validateScenario({ ...raft, expect: [check('term'), check('syncMs', { variant: 'ring' })] }).ok).toBe(true);
  });
});
