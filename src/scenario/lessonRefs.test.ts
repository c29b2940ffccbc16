import { describe, expect, it } from 'vitest';
import { builtinIds, loadBuiltin } from '../cli/builtins';
import { lessonSteps, tryMatchesEntry } from './lessonRefs';
import type { Scenario } from './schema';
import { resolveVariant } from './validate';
import { baseIdOf } from './variants';

describe('tryMatchesEntry (a step’s try against a timeline entry)', () => {
  it('ignores when it fires, who applied it and interactive; every other field must agree', () => {
    const cut = { do: 'cut', from: 'w1', to: 'w2', oneWay: true };
    expect(tryMatchesEntry(cut, { at: 9000, ...cut, interactive: true })).toBe(true);
    expect(tryMatchesEntry(cut, { on: { event: 'commit' }, by: 'user', ...cut })).toBe(true);
    expect(tryMatchesEntry(cut, { at: 9000, do: 'cut', from: 'w1', to: 'w2' })).toBe(false); // oneWay missing
    expect(tryMatchesEntry(cut, { at: 9000, ...cut, to: 'w3' })).toBe(false);
    expect(tryMatchesEntry({ do: 'heal' }, { at: 1, do: 'heal', extra: 1 })).toBe(false);
  });

  it('compares partition groups as sets of groups', () => {
    const p = { do: 'partition', groups: [['w0', 'w1'], ['w2']] };
    expect(tryMatchesEntry(p, { at: 5, do: 'partition', groups: [['w0', 'w1'], ['w2']] })).toBe(true);
    // The same partition written in another order: the engine applies it alike, so it is the same action.
    expect(tryMatchesEntry(p, { at: 5, do: 'partition', groups: [['w1', 'w0'], ['w2']] })).toBe(true);
    expect(tryMatchesEntry(p, { at: 5, do: 'partition', groups: [['w0'], ['w1', 'w2']] })).toBe(false);
    expect(tryMatchesEntry(p, { at: 5, do: 'partition', groups: [['w0', 'w1']] })).toBe(false);
  });
});

/**
 * Free-play tries (CURRICULUM §C.2, L2: "network (free play)") are listed here by lesson and step;
 * every other try of a built-in lesson must be an interactive entry of a variant its act shows, or
 * guided mode would silently turn it into free play and mark the expectations n/a.
 */
const FREE_PLAY = new Set(['pacelc-barrier-stragglers/n6']);

function variantScenario(s: Scenario, id: string): Scenario {
  if (id === baseIdOf(s)) return s;
  const r = resolveVariant(s, id);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

describe('the built-in lessons’ try steps', () => {
  it.each(builtinIds())('%s: each try is an interactive entry of a shown variant (or listed free play)', (id) => {
    const r = loadBuiltin(id);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const s = r.scenario;
    for (const { step, act } of lessonSteps(s)) {
      if (!step.try) continue;
      const shown = act === null ? [baseIdOf(s)] : s.acts![act].show;
      const matched = shown.some((v) => variantScenario(s, v).timeline.some((e) => e.interactive === true && tryMatchesEntry(step.try!.action, e as Record<string, unknown>)));
      expect({ step: step.id, matched }).toEqual({ step: step.id, matched: !FREE_PLAY.has(`${id}/${step.id}`) });
    }
  });
});
