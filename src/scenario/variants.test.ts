import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectationsFor, mergePatch, patchedInput } from './variants';
import { resolveVariant, validateScenario } from './validate';
import type { Scenario } from './schema';

const base = {
  schema: 1,
  id: 'base',
  seed: 7,
  durationMs: 20000,
  cluster: { workers: 4, servers: 5 },
  strategy: { kind: 'raft-ps', heartbeatMs: 40 },
  timeline: [{ at: 1000, do: 'crash', node: 's4' }],
};

function errorsOf(input: unknown): string[] {
  const r = validateScenario(input);
  if (r.ok) throw new Error('expected the scenario to be rejected');
  return r.errors;
}

function ok(input: unknown): Scenario {
  const r = validateScenario(input);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

describe('mergePatch (RFC 7386, Appendix A test cases)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched with %j is %j', (target, patch, result) => {
    const before = JSON.stringify(target);
    expect(mergePatch(target, patch)).toEqual(result);
    expect(JSON.stringify(target)).toBe(before); // the target is not modified
  });

  it('a "__proto__" key stays a plain field and never becomes a prototype', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
    const out = mergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(out).sort()).toEqual(['__proto__', 'a']);
    // Through the validator, the key is dropped from the patch (zod's record) and pollutes nothing.
    const s = ok({ ...base, variants: [{ id: 'x', patch: JSON.parse('{"__proto__": {"polluted": true}}') as unknown }] });
    expect(resolveVariant(s, 'x')).toMatchObject({ ok: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('timeline "on" (CURRICULUM §C.1)', () => {
  it('accepts a note name or action:<do>, with node and after', () => {
    const s = ok({
      ...base,
      timeline: [
        { on: { event: 'leaderElected', node: 's1', after: 500 }, do: 'crash', node: 's1' },
        { on: { event: 'action:crash' }, do: 'restart', node: 's4' },
      ],
    });
    expect(s.timeline[0]).toEqual({ on: { event: 'leaderElected', node: 's1', after: 500 }, do: 'crash', node: 's1' });
  });

  it.each([
    ['neither at nor on', [{ do: 'heal' }], ['timeline[0]: give "at" (a time in ms) or "on" (an event to fire on)']],
    ['both', [{ at: 5, on: { event: 'commit' }, do: 'heal' }], ['timeline[0].on: give either "at" or "on", not both']],
    [
      'a misspelt event, with a hint',
      [{ on: { event: '2pc.prepareSend' }, do: 'heal' }],
      ['timeline[0].on.event: unknown event "2pc.prepareSend" (did you mean "2pc.prepareSent"?); an event is a history note such as "leaderElected" or "2pc.prepareSent", or "action:<do>" such as "action:crash"'],
    ],
    ['an unknown node', [{ on: { event: 'commit', node: 's9' }, do: 'heal' }], ['timeline[0].on.node: node "s9" does not exist (cluster has w0-w3, s0-s4)']],
    ['after the end', [{ on: { event: 'commit', after: 25000 }, do: 'heal' }], ['timeline[0].on.after: 25000 is after the end of the run (durationMs 20000)']],
    ['an unknown field', [{ on: { event: 'commit', nth: 2 }, do: 'heal' }], ['timeline[0].on: unknown field "nth"']],
  ])('%s', (_name, timeline, errors) => {
    expect(errorsOf({ ...base, timeline })).toEqual(errors);
  });
});

describe('variants (CURRICULUM §C.1, §C.7)', () => {
  const withVariants = (variants: unknown, expect: unknown[] = []) => ({ ...base, variants, expect });

  it('a patch merges into the base; arrays are replaced whole; a new strategy kind replaces the strategy', () => {
    const s = ok(
      withVariants(
        [
          { id: 'slow', title: { en: 'Slow heartbeats', zh: '慢心跳' }, patch: { strategy: { heartbeatMs: 100 }, timeline: [{ at: 2000, do: 'heal' }] } },
          { id: '2pc', patch: { strategy: { kind: '2pc-ps', voteTimeoutMs: 200 } } },
        ],
        [
          { at: 'end', metric: 'violations', op: '==', value: 0 },
          { at: 'end', metric: 'steps', op: '>', value: 0, variant: '*' },
          { at: 'end', metric: 'inDoubt', op: '==', value: 0, variant: '2pc' },
        ],
      ),
    );
    const slow = resolveVariant(s, 'slow');
    expect(slow.ok && slow.scenario.strategy).toMatchObject({ kind: 'raft-ps', heartbeatMs: 100, electionTimeoutMs: [150, 300] });
    expect(slow.ok && slow.scenario.timeline).toEqual([{ at: 2000, do: 'heal' }]);
    expect(slow.ok && slow.scenario.seed).toBe(7);
    // "*" applies to every variant (and the base); an id to that variant only; none to the base only.
    expect(slow.ok && slow.scenario.expect.map((e) => e.metric)).toEqual(['steps']);
    const tpc = resolveVariant(s, '2pc');
    expect(tpc.ok && tpc.scenario.strategy).toEqual({ kind: '2pc-ps', coordinator: 's0', voteTimeoutMs: 200, clientRetryMs: 100, updateTimeoutMs: 2000 });
    expect(tpc.ok && tpc.scenario.expect.map((e) => e.metric)).toEqual(['steps', 'inDoubt']);
    expect(tpc.ok && tpc.scenario.variants).toBeUndefined();
    expect(expectationsFor(s.expect, null).map((e) => e.metric)).toEqual(['violations', 'steps']);
    expect(resolveVariant(s, 'nope')).toEqual({ ok: false, errors: ['variant: no variant "nope" (variants: slow, 2pc)'], unknown: ['slow', '2pc'] });
    expect(resolveVariant(s, 'base')).toEqual({ ok: true, scenario: s });
  });

  it('patchedInput does not modify the base', () => {
    const s = ok(withVariants([{ id: 'a', patch: { strategy: { heartbeatMs: 10 } } }]));
    const before = JSON.stringify(s);
    patchedInput(s, { strategy: { heartbeatMs: 10 }, timeline: [] });
    expect(JSON.stringify(s)).toBe(before);
  });

  it.each([
    [
      'a wrong strategy in a patch is named under the patch',
      [{ id: 'a', patch: { strategy: { kind: 'gossip' } } }],
      [],
      [expect.stringMatching(/^variants\[0\]\.patch\.strategy\.kind: unknown strategy "gossip"; valid strategies: /)],
    ],
    ['a bad knob in the second variant', [{ id: 'a', patch: {} }, { id: 'b', patch: { strategy: { heartbeatMs: -1 } } }], [], ['variants[1].patch.strategy.heartbeatMs: must be > 0, got -1']],
    [
      'a problem the patch causes elsewhere is named by the variant',
      [{ id: 'small', patch: { cluster: { servers: 0 } } }],
      [],
      ['variants[0].patch.cluster.servers: strategy "raft-ps" needs at least 3 servers (got 0)', 'variants[0] ("small"): timeline[0].node: node "s4" does not exist (cluster has w0-w3)'],
    ],
    [
      'fixed fields',
      [{ id: 'a', patch: { seed: 8, expect: [], id: 'other' } }],
      [],
      [
        'variants[0].patch.seed: variants run with the base seed, so they differ only by the patch',
        'variants[0].patch.expect: a variant\'s expectations go in the base "expect" with "variant": "<id>" (or "*" for all)',
        'variants[0].patch.id: a variant is named by its own "id", not the scenario\'s',
      ],
    ],
    ['duplicate ids', [{ id: 'a', patch: {} }, { id: 'a', patch: {} }], [], ['variants[1].id: "a" is used by variants[0] already']],
    ['a bad id', [{ id: 'A B', patch: {} }], [], ['variants[0].id: use lowercase letters, digits and "-", got "A B"']],
    [
      'an expectation naming no variant',
      [{ id: 'two-pc', patch: {} }],
      [{ at: 'end', metric: 'steps', op: '>', value: 0, variant: '2pc' }],
      ['expect[0].variant: no variant "2pc" (variants: two-pc; "*" means all, "base" the base)'],
    ],
    [
      'an expectation on a node the variant does not have',
      [{ id: 'three', patch: { cluster: { servers: 3 }, timeline: [] } }],
      [{ at: 'end', metric: 'term', node: 's4', op: '>', value: 0, variant: 'three' }],
      ['expect[0].node: node "s4" does not exist (cluster has w0-w3, s0-s2) in variant "three"'],
    ],
  ])('%s', (_name, variants, expectations, errors) => {
    expect(errorsOf(withVariants(variants, expectations))).toEqual(errors);
  });

  it('an expectation with "variant" on a scenario without variants is refused', () => {
    expect(errorsOf({ ...base, expect: [{ at: 'end', metric: 'steps', op: '>', value: 0, variant: 'x' }] })).toEqual(['expect[0].variant: no variant "x" (the scenario has no variants; "*" means all, "base" the base)']);
  });
});

describe('a variant written out on its own', () => {
  it('is a plain scenario that validates again (every built-in lesson variant): the lesson script stays with the file', () => {
    const ids = JSON.parse(readFileSync('public/scenarios/index.json', 'utf8')) as string[];
    let checked = 0;
    for (const id of ids) {
      const file = validateScenario(JSON.parse(readFileSync(`public/scenarios/${id}.json`, 'utf8')));
      if (!file.ok) throw new Error(`${id}: ${file.errors.join('; ')}`);
      for (const v of file.scenario.variants ?? []) {
        const r = resolveVariant(file.scenario, v.id);
        if (!r.ok) throw new Error(`${id}/${v.id}: ${r.errors.join('; ')}`);
        expect(r.scenario.acts ?? r.scenario.narration ?? r.scenario.lesson, `${id}/${v.id}`).toBeUndefined();
        const again = validateScenario(JSON.parse(JSON.stringify({ ...r.scenario, id: `${id}-${v.id}` })));
        expect(again.ok ? [] : again.errors, `${id}/${v.id}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});
