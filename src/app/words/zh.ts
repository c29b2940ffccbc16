import { checksZh } from './checkWords.zh';
import { sentencesZh } from './nodeWords.zh';
import { notesZh } from './noteWords.zh';
import { serversZh } from './serverWords.zh';
import { problemsZh } from './problemWords.zh';
import { actionsZh } from './actionWords.zh';
import type { WordTables } from './tables';

/** The Chinese sentence tables: a chunk of their own, loaded with zh.json (i18n/catalog.ts). */
export const zhWords: WordTables = { notes: notesZh, nodes: sentencesZh, checks: checksZh, servers: serversZh, problems: problemsZh, actions: actionsZh };
