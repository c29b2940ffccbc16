import { describe, expect, it } from 'vitest';
import { validateScenario } from '../../scenario/validate';
import type { Scenario } from '../../scenario/schema';
import { readFileSync } from 'node:fs';
import { actsOf, gatesOf, isLesson, parseStepParam, readsAhead, shownVariants, stepParam, variantScenarios } from './script';
import { problemLine } from '../../scenario/problems';
import { ensureLang } from '../i18n/catalog';
import { problemLines } from '../scenarioProblemText';
import { fillText, formatValue, placeholdersOf } from './placeholders';

const text = { en: 'x', zh: 'x' };
function scenario(extra: Record<string, unknown>): Scenario {
  const r = validateScenario({ schema: 1, id: 'l', seed: 1, durationMs: 20000, cluster: { workers: 4, servers: 1 }, strategy: { kind: 'ps-async' }, ...extra });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

describe('the lesson script', () => {
  const sc = scenario({
    variants: [{ id: 'sync', patch: { strategy: { kind: 'ps-sync' } } }],
    acts: [
      { id: 'one', title: text, show: ['base', 'sync'], steps: [{ id: 'N1', when: { at: 0 }, text }, { id: 'N2', when: { at: 100 }, text }] },
      { id: 'two', title: text, show: ['sync'], rewindTo: 0, steps: [{ id: 'M1', when: { at: 0 }, text }] },
    ],
  });

  it('acts come from `acts`, or one act from `narration` showing the base and its variants', () => {
    expect(actsOf(sc).map((a) => a.id)).toEqual(['one', 'two']);
    expect(shownVariants(actsOf(sc))).toEqual(['base', 'sync']);
    const one = scenario({ variants: [{ id: 'v', patch: {} }], narration: [{ id: 'a', when: { at: 0 }, text }] });
    expect(actsOf(one)).toMatchObject([{ id: 'main', show: ['base', 'v'] }]);
    expect(isLesson(scenario({}))).toBe(false);
  });

  it('&step=<act>.<n> by id or number (1-based), with errors naming what exists', () => {
    const acts = actsOf(sc);
    expect(parseStepParam('one.2', acts)).toEqual({ act: 0, step: 1 });
    expect(parseStepParam('two.M1', acts)).toEqual({ act: 1, step: 0 });
    expect(parseStepParam('2.1', acts)).toEqual({ act: 1, step: 0 });
    expect(parseStepParam('one.3', acts)).toEqual({ problem: 'no-step', param: 'step', value: 'one.3', act: 'one', step: '3', steps: ['N1', 'N2'] });
    expect(parseStepParam('six.1', acts)).toEqual({ problem: 'no-act', param: 'step', value: 'six.1', act: 'six', acts: ['one', 'two'] });
    expect(parseStepParam('one', acts)).toEqual({ problem: 'not-step', param: 'step', value: 'one', example: 'one.1' });
    expect(stepParam(acts, { act: 0, step: 1 })).toBe('one.2');
    expect(stepParam(acts, { act: 1, step: -1 })).toBe('two.1');
  });

  it('gates: the interactive entries with a time, in time order', () => {
    const g = scenario({
      timeline: [
        { at: 13000, do: 'heal', interactive: true },
        { at: 6000, do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']], interactive: true },
        { at: 7000, do: 'crash', node: 'w1' },
        { on: { event: 'leaderElected' }, do: 'crash', node: 'w2', interactive: true },
      ],
    });
    expect(gatesOf(g.timeline)).toEqual([
      { index: 1, at: 6000, action: { do: 'partition', groups: [['w0', 'w1'], ['w2', 'w3']] } },
      { index: 0, at: 13000, action: { do: 'heal' } },
    ]);
  });
});

describe('placeholders', () => {
  const values: Record<string, number | null> = { 'async:staleness:w2:9000': 71, 'ring:relDivergence::now': 0.012345, 'async:loss::end': null };
  const lookup = (r: { variant: string; metric: string; node?: string; at: number | 'now' | 'end' }) => values[`${r.variant}:${r.metric}:${r.node ?? ''}:${r.at}`] ?? null;

  it('read variant (default: the focused one), metric, node and time', () => {
    expect(placeholdersOf('{{async:staleness[w2]@9000}} and {{relDivergence@now}}', 'ring')).toEqual([
      { variant: 'async', metric: 'staleness', node: 'w2', at: 9000 },
      { variant: 'ring', metric: 'relDivergence', at: 'now' },
    ]);
  });
  it('are filled with the page language number format, "—" while undefined', () => {
    const t = 'w2 is {{async:staleness[w2]@9000}} behind; divergence {{relDivergence@now}}; loss {{async:loss@end}}.';
    expect(fillText(t, 'ring', 'en', lookup)).toBe('w2 is 71 behind; divergence 0.0123; loss —.');
    expect(fillText(t, 'ring', 'zh', lookup)).toBe('w2 is 71 behind; divergence 0.0123; loss —.');
    expect(formatValue(12345.678, 'en')).toBe('12,300');
    expect(formatValue(1234567, 'en')).toBe('1,234,567');
    expect(formatValue(1234567, 'zh')).toBe('1,234,567');
    expect(formatValue(Number.NaN, 'zh')).toBe('—');
  });
});

describe('what a lesson reads ahead of its runs', () => {
  const builtin = (id: string): Scenario => {
    const r = validateScenario(JSON.parse(readFileSync(`public/scenarios/${id}.json`, 'utf8')));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    return r.scenario;
  };

  it('L3: the scaling table and its text read six variants at 7.9 s, four of which no act shows', () => {
    const reads = readsAhead(builtin('ring-allreduce-cost'));
    expect(reads).toEqual(expect.arrayContaining(['ring4', 'ring8', 'ring4-large', 'ring8-large', 'ps4-large', 'ps8-large'].map((variant) => ({ variant, until: 7900 }))));
    expect(reads.filter((r) => !shownVariants(actsOf(builtin('ring-allreduce-cost'))).includes(r.variant)).map((r) => r.variant).sort()).toEqual(['ps4-large', 'ps8-large', 'ring4-large', 'ring8', 'ring8-large']);
  });

  it('L5: the sweep reads all seven staleness bounds at 29.9 s', () => {
    const reads = readsAhead(builtin('ssp-bounded-staleness'));
    for (const v of ['ssp-0', 'ssp-1', 'ssp-2', 'ssp-4', 'ssp-8', 'ssp-16', 'ssp-inf']) expect(reads).toContainEqual({ variant: v, until: 29900 });
  });

  it('a value at the end wins over any time; the play-head reads nothing ahead; a text without a variant reads each shown one', () => {
    const sc = scenario({
      variants: [{ id: 'sync', patch: { strategy: { kind: 'ps-sync' } } }],
      acts: [
        {
          id: 'one',
          title: text,
          show: ['base', 'sync'],
          steps: [
            { id: 'N1', when: { at: 0 }, text: { en: '{{sync:steps@3000}} {{sync:steps@end}} {{base:steps@now}}', zh: '{{steps@2000}}' } },
          ],
        },
      ],
    });
    expect(readsAhead(sc)).toEqual([
      { variant: 'sync', until: 'end' },
      { variant: 'base', until: 2000 },
    ]);
  });
});

describe('variantScenarios (the runs a lesson opens)', () => {
  const l1 = (): Scenario => {
    const r = validateScenario(JSON.parse(readFileSync('public/scenarios/cap-partition-choice.json', 'utf8')));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    return r.scenario;
  };

  it('L1: the base and its async variant, each a whole scenario', () => {
    const r = variantScenarios(l1());
    if (!r.ok) throw new Error(r.problems.map(problemLine).join('\n'));
    expect(r.runs.map((x) => [x.id, x.scenario.strategy.kind, x.scenario.cluster.servers])).toEqual([
      ['ring', 'allreduce', 0],
      ['async', 'ps-async', 1],
    ]);
  });

  it("names a variant whose patched run does not hold, as the file's checker does, in either language", async () => {
    const sc = l1();
    // A lesson changed after its file was checked (the checker itself reports this at load).
    sc.variants![0].patch = { strategy: { kind: 'ps-async' }, cluster: { servers: 0 } };
    const r = variantScenarios(sc);
    if (r.ok) throw new Error('a parameter server with no server was accepted');
    expect(r.problems.map(problemLine)).toEqual(['variants[0] ("async"): cluster.servers: strategy "ps-async" needs at least 1 server (got 0)']);
    await ensureLang('zh');
    expect(problemLines('zh', { errors: [], problems: r.problems })).toEqual(['variants[0]（“async”）：cluster.servers：策略“ps-async”至少需要 1 个服务器（现在是 0 个）']);
    const unknown = variantScenarios(l1(), ['sync']);
    expect(unknown.ok ? [] : unknown.problems.map(problemLine)).toEqual(['acts: no variant "sync" (runs: ring, async ("base" names the base too))']);
  });
});
