import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateScenario } from './validate';

/**
 * A third interface language is a new catalog plus one more key in the texts a lesson author
 * writes: the scenario and lesson schemas let such a key through (kept, not stripped), still
 * require EN and 中文, and refuse a key that is not a language tag.
 */
const lesson = JSON.parse(readFileSync(new URL('../../public/scenarios/cap-partition-choice.json', import.meta.url), 'utf8')) as {
  title: Record<string, string>;
  acts: Array<{ steps: Array<{ text: Record<string, string> }> }>;
};

function withText(patch: (l: typeof lesson) => void): unknown {
  const copy = structuredClone(lesson);
  patch(copy);
  return copy;
}

describe('localized texts in scenario and lesson files', () => {
  it('a third language key passes through the scenario title and a narration step', () => {
    const r = validateScenario(
      withText((l) => {
        l.title.ja = '一つの分断、二つの選択';
        l.acts[0].steps[0].text.ja = '四つのワーカーが同じモデルを二回学習します。';
      }),
    );
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect((r.scenario.title as Record<string, string>).ja).toBe('一つの分断、二つの選択');
    expect((r.scenario.acts![0].steps[0].text as Record<string, string>).ja).toBe('四つのワーカーが同じモデルを二回学習します。');
  });

  it('a key that is not a language tag is refused, by name', () => {
    const r = validateScenario(withText((l) => (l.acts[0].steps[0].text.EN = 'typo')));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(/"EN" is not a language tag/);
  });

  it('EN and 中文 stay required', () => {
    const r = validateScenario(withText((l) => delete l.acts[0].steps[0].text.zh));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(/zh/);
  });
});
