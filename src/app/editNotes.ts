import type { Lang } from './i18n/lang';
import { s } from './i18n/strings';
import type { Edit } from './scenarioEdit';

/** What an edit left out of the scenario, and why: a strategy switch, a change of the cluster, or of the knobs. */
export type EditLeft = Pick<Edit, 'pruned' | 'droppedVariants' | 'droppedLesson' | 'droppedChecks' | 'droppedCheckCount'> & { cause: 'strategy' | 'cluster' | 'settings' };

/** The notice's sentences for what an edit left out (load.ts shows them once the edited run is built). */
export function leftOutNotes(lang: Lang, left: EditLeft): string[] {
  const sep = lang === 'zh' ? '、' : ', ';
  const variantsKey = ({ strategy: 'droppedVariants', cluster: 'droppedVariantsCluster', settings: 'droppedVariantsSettings' } as const)[left.cause];
  const lessonKey = ({ strategy: 'droppedLesson', cluster: 'droppedLessonCluster', settings: 'droppedLessonSettings' } as const)[left.cause];
  const notes: string[] = [];
  if (left.pruned > 0) notes.push(s(lang, 'prunedEntries', { n: left.pruned }));
  const variants = left.droppedVariants;
  if (variants.length > 0) notes.push(s(lang, variantsKey, { n: variants.length, ids: variants.join(sep) }));
  const checksKey = left.cause === 'strategy' ? 'droppedChecks' : 'droppedChecksSettings';
  if (left.droppedCheckCount > 0) notes.push(s(lang, checksKey, { n: left.droppedCheckCount, metrics: left.droppedChecks.join(sep) }));
  if (left.droppedLesson) notes.push(s(lang, lessonKey));
  return notes;
}
