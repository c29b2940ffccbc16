import { loadedWords } from '../i18n/catalog';
import type { Lang } from '../i18n/lang';
import type { CheckWhat } from '../../check/models';
import type { ServerTable } from '../views/serverModel';
import type { NodeSentences } from './nodeWords';
import type { NoteTable } from './noteWords';
import type { ProblemWords } from '../../scenario/problems';
import type { ActionWords } from './actionWords';

/**
 * One language's sentence tables: what the words modules say in it. English's are bundled (the
 * fallback); another language's come in one chunk with its catalog (i18n/catalog.ts `loaders`,
 * e.g. ./zh.ts), so an English page never downloads them and a page in that language has them
 * before its first render, as it has the catalog.
 */
export interface WordTables {
  notes: NoteTable;
  nodes: NodeSentences;
  checks: Record<CheckWhat, string>;
  servers: ServerTable;
  /** A scenario file's problems. */
  problems: ProblemWords;
  /** The action table's labels and hints. */
  actions: ActionWords;
}

const warned = new Set<Lang>();

/**
 * `lang`'s table (picked out of its WordTables), or `english` where it is English. A language
 * whose chunk has not arrived (a switch that skipped `ensureLang`: a bug) gets English, said once,
 * as `translate` does.
 */
export function wordsIn<T>(lang: Lang, english: T, pick: (t: WordTables) => T): T {
  if (lang === 'en') return english;
  const tables = loadedWords(lang);
  if (tables) return pick(tables);
  if (!warned.has(lang)) console.error(`words: "${lang}" is not loaded; await ensureLang('${lang}') first`);
  warned.add(lang);
  return english;
}
