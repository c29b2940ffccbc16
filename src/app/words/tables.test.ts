import { afterEach, describe, expect, it, vi } from 'vitest';

describe("a language's sentence tables (tables.ts)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('are there once ensureLang resolves; before that (a bug) the words are English, said once', async () => {
    // Fresh copies: only English loaded, as on an English page's first load.
    vi.resetModules();
    const { ensureLang } = await import('../i18n/catalog');
    const { noteText } = await import('./noteWords');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const note = { what: 'retransmit' as const, node: 'w1', data: { round: 3 } };
    expect(noteText(note, 'zh')).toBe('w1 retransmits (round 3)');
    expect(noteText(note, 'zh')).toBe('w1 retransmits (round 3)');
    expect(error).toHaveBeenCalledTimes(1);
    await ensureLang('zh');
    expect(noteText(note, 'zh')).toBe('w1 重传（第 3 轮）');
    expect(noteText(note, 'en')).toBe('w1 retransmits (round 3)');
  });
});
