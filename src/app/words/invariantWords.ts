import { english, translate, type KeyOf } from '../i18n/catalog';
import type { Lang } from '../i18n/lang';
import { s } from '../i18n/strings';

/**
 * Names of the invariants the strategies and the coordination service check (their `violation`
 * ids), in the reader's language: namespace `invariants` of the catalogs in ../i18n/locales. A
 * strategy's own diagnostic (`detail`) is English prose for the CLI and the checker; a Chinese
 * screen shows the invariant's name from here instead.
 */
type InvariantId = KeyOf<'invariants'>;

function isNamed(id: string): id is InvariantId {
  return Object.hasOwn(english.invariants, id);
}

/** The invariant's name for people; unknown ids (a new check) show as themselves. */
export function invariantName(id: string, lang: Lang): string {
  // ZooKeeper's Zab checks (zab-<id>) are Raft's, under the service's name.
  const zab = id.startsWith('zab-');
  const bare = zab ? id.slice(4) : id;
  const base = isNamed(bare) ? translate(lang, 'invariants', bare) : bare;
  return zab ? s(lang, 'invariantZab', { name: base }) : base;
}

/** Every id with a name (for the test that each checked invariant has one). */
export const namedInvariants: readonly string[] = Object.keys(english.invariants);
