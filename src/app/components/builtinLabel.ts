import { tr, type Lang } from '../i18n/lang';
import type { Scenario } from '../../scenario/schema';
import type { BuiltinEntry } from '../store';

/**
 * A picker entry's text. The titles arrive after the first run is on screen (load.ts), so until
 * its own file comes the open built-in borrows the loaded scenario's title: a lesson opened by its
 * link showed its bare id there.
 */
export function builtinLabel(b: BuiltinEntry, loaded: Scenario | null, lang: Lang): string {
  const title = b.title ?? (loaded?.id === b.id ? loaded.title : undefined);
  return title ? `${tr(title, lang)} (${b.id})` : b.id;
}
