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

  it("English's consensus notes come with a run that has a consensus protocol; the two parts make every note once", async () => {
    vi.resetModules();
    const { noteText, loadNoteWords, consensusNoteNames } = await import('./noteWords');
    const { notesEn } = await import('./noteWords.en');
    const { consensusNotesEn } = await import('./noteWords.consensus.en');
    const { noteNames } = await import('../../protocols/notes');
    const core = Object.keys(notesEn);
    const consensus = Object.keys(consensusNotesEn);
    expect([...consensus].sort()).toEqual([...consensusNoteNames].sort());
    expect(core.filter((k) => consensus.includes(k))).toEqual([]);
    expect([...core, ...consensus].sort()).toEqual([...noteNames].sort());
    const note = { what: 'leaderElected' as const, node: 's1', data: { term: 2 } };
    await loadNoteWords({ strategy: { kind: 'ps-async' } });
    expect(noteText(note, 'en')).toBe('s1: leaderElected'); // not loaded for a parameter server
    await loadNoteWords({ strategy: { kind: 'ps-async' }, coordination: { service: 'etcd' } });
    expect(noteText(note, 'en')).toBe('s1 elected leader for term 2');
  });
});
