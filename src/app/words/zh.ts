import type { WordTables } from './tables';
import { notesZh } from './noteWords.zh';

/** The Chinese sentence tables: a chunk of their own, loaded with zh.json (i18n/catalog.ts). */
export const zhWords: WordTables = { notes: notesZh };
